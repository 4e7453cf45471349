package ticket

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Board limits: every open ticket (a shop with more than maxOpen open
// tickets sees the oldest maxOpen), and the most recently closed ones.
const (
	maxOpen            = 2000
	defaultClosedCards = 30
	maxClosedCards     = 200
	boardReaders       = 16
)

// board answers GET /api/{db}/_tickets/board?closed=30: the open tickets
// (read through the klass index's "o#" prefix, so the read is proportional
// to them, not to every ticket ever opened), the latest closed ones, the
// exact count of each status (the stream's tally) and the names of the
// customers on the cards.
//
//	200 {"tickets":[{_id,_rev,…}], "counts":{"open":n,…}, "customers":{"cus-…":"name"}, "truncated":false}
func (m *Module) board(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	db := r.PathValue("db")
	closed, err := httpjson.IntParam(r.URL.Query().Get("closed"), "closed", defaultClosedCards)
	if err != nil {
		return err
	}
	if closed > maxClosedCards {
		return fault.Newf(fault.BadRequest, "closed: at most %d", maxClosedCards)
	}
	open, truncated, err := m.listAll(ctx, db, store.ListQuery{Klass: KlassTicket, Prefix: openPrefix, Limit: 500}, maxOpen)
	if err != nil {
		return err
	}
	var done []store.Doc
	if closed > 0 {
		page, err := m.deps.Store.List(ctx, db, store.ListQuery{Klass: KlassTicket, Prefix: closedPrefix, Descending: true, Limit: closed})
		if err != nil {
			return err
		}
		done = page.Docs
	}
	counts, err := stream.Read(ctx, m.deps.Store, db)
	if err != nil {
		return err
	}
	tickets := make([]json.RawMessage, 0, len(open)+len(done))
	customerIDs := map[string]bool{}
	for _, d := range append(open, done...) {
		tickets = append(tickets, docs.WithMeta(d))
		var ref struct {
			Customer string `json:"customer_id"`
		}
		if json.Unmarshal(d.Body, &ref) == nil && ref.Customer != "" {
			customerIDs[ref.Customer] = true
		}
	}
	names, err := m.names(ctx, db, customerIDs)
	if err != nil {
		return err
	}
	byStatus := counts.Tally(TallyByStatus)
	if byStatus == nil {
		byStatus = map[string]int64{}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"tickets": tickets, "counts": byStatus, "customers": names, "truncated": truncated})
	return nil
}

// listAll pages through q up to max documents.
func (m *Module) listAll(ctx context.Context, db string, q store.ListQuery, max int) ([]store.Doc, bool, error) {
	var out []store.Doc
	for {
		page, err := m.deps.Store.List(ctx, db, q)
		if err != nil {
			return nil, false, err
		}
		out = append(out, page.Docs...)
		if len(out) >= max {
			return out[:max], true, nil
		}
		if page.Next == "" {
			return out, false, nil
		}
		q.After = page.Next
	}
}

// names reads the name of each record id, a few at a time; ids that are
// gone are left out.
func (m *Module) names(ctx context.Context, db string, idSet map[string]bool) (map[string]string, error) {
	out := map[string]string{}
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		first error
	)
	sem := make(chan struct{}, boardReaders)
	for id := range idSet {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			_, body, err := m.get(ctx, db, id)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && first == nil {
				first = err
			}
			if body != nil {
				out[id] = str(body["name"])
			}
		}()
	}
	wg.Wait()
	return out, first
}
