package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// longpollInterval is how often a long poll re-reads a store that cannot
// notify (DynamoDB); the embedded store wakes readers at once.
const longpollInterval = 500 * time.Millisecond

// longpollReserve is the time a long poll leaves before its request's
// deadline (a Lambda invocation's) to write its answer.
const longpollReserve = 2 * time.Second

type changeRow struct {
	Seq     uint64              `json:"seq"`
	ID      string              `json:"id"`
	Changes []map[string]string `json:"changes"`
	Deleted bool                `json:"deleted,omitempty"`
	Doc     json.RawMessage     `json:"doc,omitempty"`
}

// changes answers GET /api/{db}/_changes with feed=normal or longpoll.
func (s *Server) changes(w http.ResponseWriter, r *http.Request) error {
	db, _, err := s.dbAccess(r, access.Read)
	if err != nil {
		return err
	}
	v := r.URL.Query()
	info, err := s.store.DBInfo(r.Context(), db)
	if err != nil {
		return err
	}
	var since uint64
	switch raw := v.Get("since"); raw {
	case "", "0":
	case "now":
		since = info.UpdateSeq
	default:
		if since, err = strconv.ParseUint(raw, 10, 64); err != nil {
			return fault.New(fault.BadRequest, "Malformed sequence supplied in 'since' parameter.")
		}
	}
	limit, err := intParam(v.Get("limit"), "limit", 0)
	if err != nil {
		return err
	}
	descending, err := boolParam(v.Get("descending"), "descending")
	if err != nil {
		return err
	}
	includeDocs, err := boolParam(v.Get("include_docs"), "include_docs")
	if err != nil {
		return err
	}
	rowCap := s.pageRows(limit)
	// One row more than the page tells whether rows remain.
	q := store.ChangesQuery{Since: since, Limit: rowCap + 1, Descending: descending, IncludeDocs: includeDocs}
	if includeDocs {
		// The store stops reading documents once their bodies fill a page.
		q.MaxBytes = s.cfg.PageMaxBytes
	}

	var timeout time.Duration
	switch feed := v.Get("feed"); feed {
	case "", "normal":
	case "longpoll":
		if principalOf(r) == nil {
			// A wait holds a connection (on Lambda a function) and re-reads
			// the store: only signed-in callers may wait.
			return fault.New(fault.Unauthorized, "You are not logged in.")
		}
		ms, err := intParam(v.Get("timeout"), "timeout", int(s.cfg.LongpollMax/time.Millisecond))
		if err != nil {
			return err
		}
		timeout = min(time.Duration(ms)*time.Millisecond, s.cfg.LongpollMax)
		if deadline, ok := r.Context().Deadline(); ok && timeout > 0 {
			// On Lambda the invocation ends at the deadline: answer (with
			// no rows) while the answer can still get out.
			timeout = max(min(timeout, time.Until(deadline)-longpollReserve), time.Millisecond)
		}
	default:
		return fault.Newf(fault.BadRequest, "unsupported feed %q: use normal or longpoll", truncate(feed, 20))
	}

	rows, err := s.waitForChanges(r, db, q, timeout)
	if err != nil {
		return err
	}
	more := len(rows) > rowCap
	if more {
		rows = rows[:rowCap]
	}
	if q.MaxBytes > 0 && bodyBytes(rows) >= q.MaxBytes {
		more = true // the store stopped on the byte bound: rows may remain
	}
	pg := s.newPage()
	last := since
	for _, d := range rows {
		row := changeRow{Seq: d.Seq, ID: d.ID, Changes: []map[string]string{{"rev": d.Rev}}, Deleted: d.Deleted}
		if includeDocs {
			row.Doc = docs.WithMeta(d)
		}
		ok, err := pg.add(row)
		if err != nil {
			return err
		}
		if !ok {
			more = true
			break
		}
		last = max(last, d.Seq)
	}
	var pending uint64
	switch {
	case more:
		// Writes after last_seq: at least the rows left (a document
		// written twice since counts twice), so above 0 until caught up.
		pending = 1
		if now, err := s.store.DBInfo(r.Context(), db); err == nil {
			pending = now.UpdateSeq - min(last, now.UpdateSeq)
		}
	case len(rows) == 0 && timeout == 0:
		last = max(since, info.UpdateSeq)
	}
	writeJSON(w, http.StatusOK, map[string]any{"results": pg.rows, "last_seq": last, "pending": pending})
	return nil
}

// bodyBytes is the size of the rows' bodies.
func bodyBytes(rows []store.Doc) int {
	n := 0
	for _, d := range rows {
		n += len(d.Body)
	}
	return n
}

// waitForChanges reads the feed; with a timeout it waits until a change
// arrives, the timeout passes or the client goes away.
func (s *Server) waitForChanges(r *http.Request, db string, q store.ChangesQuery, timeout time.Duration) ([]store.Doc, error) {
	ctx := r.Context()
	deadline := time.Now().Add(timeout)
	notifier, _ := s.store.(store.Notifier)
	for {
		var wake <-chan struct{}
		if notifier != nil {
			wake = notifier.Changed(db) // subscribe before reading, so no write slips between
		}
		rows, err := s.store.Changes(ctx, db, q)
		if err != nil || len(rows) > 0 || timeout == 0 {
			return rows, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return rows, nil
		}
		if wake == nil {
			left = min(left, longpollInterval)
		}
		timer := time.NewTimer(left)
		select {
		case <-ctx.Done(): // the client left; nobody reads the answer
			timer.Stop()
			return nil, nil
		case <-s.stopping:
			timer.Stop()
			return nil, nil
		case <-wake:
		case <-timer.C:
		}
		timer.Stop()
	}
}
