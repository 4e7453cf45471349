package ticket

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/store"
)

// The ticket list opens newest number first, but the klass index is keyed
// for the board: open tickets by creation ("o#" + created_at), closed ones
// by their last change ("c#" + updated_at). A page by number still needs
// only the top of each part, because a ticket takes its number when it is
// created, from a sequence, and its created_at then too: numbers follow
// creation times (within numberSkew). So every ticket numbered above the
// n-th highest number found, N, was created after N's ticket, less the
// skew: open, it is among the open ones created since then; closed, among
// the closed ones changed since then (a ticket changes after it is
// created). topByNumber reads both parts from their newest end down to
// that time, which it lowers as it finds higher numbers, and hands every
// ticket it read to the _find (docs.Top), which sorts and pages them.
//
// The two parts are read one after the other, not in one snapshot: a
// ticket reopened between the two reads can be missing from that page,
// as a page read in several requests on DynamoDB can miss a ticket moved
// meanwhile.

// numberSkew bounds how much earlier than a lower-numbered ticket's
// created_at a higher-numbered ticket's can be: the time between stamping
// a write and committing it (when the number is taken: a request ends
// within API Gateway's 30 s), and the clocks of the API's instances
// (synchronised within a second).
const numberSkew = 2 * time.Minute

// topPage is the most tickets topByNumber reads from a part at a time:
// each read takes twice the one before, up to as many as a whole-klass
// read takes a call, so a window holding many tickets (closed together)
// costs a few calls, and one holding a few over-reads little.
const topPage = 500

// topPart is one part of the klass index, read from its newest end.
type topPart struct {
	q    store.ListQuery
	last string // the time in the sort key of the last ticket read
	done bool   // read to its end
}

// read reads the part's next q.Limit tickets into into, and doubles the
// limit for the next read.
func (p *topPart) read(ctx context.Context, st store.Store, db string, into map[string]numbered) error {
	page, err := st.List(ctx, db, p.q)
	if err != nil {
		return err
	}
	for _, d := range page.Docs {
		var b struct {
			Number    *int64 `json:"number"`
			CreatedAt string `json:"created_at"`
		}
		if err := json.Unmarshal(d.Body, &b); err != nil {
			return err
		}
		into[d.ID] = numbered{doc: d, number: b.Number, createdAt: b.CreatedAt}
		p.last = strings.TrimPrefix(d.SortKey, p.q.Prefix)
	}
	p.q.After, p.done = page.Next, page.Next == ""
	p.q.Limit = min(2*p.q.Limit, topPage)
	return nil
}

type numbered struct {
	doc       store.Doc
	number    *int64
	createdAt string
}

// topByNumber implements docs.Top for the ticket list by number.
func (m *Module) topByNumber(ctx context.Context, db string, n int) ([]store.Doc, bool, error) {
	parts := []*topPart{
		{q: store.ListQuery{Klass: KlassTicket, Prefix: openPrefix, Descending: true, Limit: n + 1}},
		{q: store.ListQuery{Klass: KlassTicket, Prefix: closedPrefix, Descending: true, Limit: n + 1}},
	}
	read := map[string]numbered{}
	for _, p := range parts {
		if err := p.read(ctx, m.deps.Store, db, read); err != nil {
			return nil, false, err
		}
	}
	for {
		since, ok := nthCreated(read, n)
		if !ok {
			// Fewer than n numbered tickets read: the page takes any
			// ticket, so read the parts to their end.
			since = ""
		}
		more := false
		for _, p := range parts {
			if !p.done && p.last >= since {
				if err := p.read(ctx, m.deps.Store, db, read); err != nil {
					return nil, false, err
				}
				more = true
			}
		}
		if !more {
			break
		}
	}
	out := make([]store.Doc, 0, len(read))
	for _, t := range read {
		out = append(out, t.doc)
	}
	return out, true, nil
}

// nthCreated is the creation time, less numberSkew, of the ticket with
// the n-th highest number among those read (false: fewer than n numbered,
// or a time it cannot read).
func nthCreated(read map[string]numbered, n int) (string, bool) {
	var nums []numbered
	for _, t := range read {
		if t.number != nil {
			nums = append(nums, t)
		}
	}
	if len(nums) < n {
		return "", false
	}
	slices.SortFunc(nums, func(a, b numbered) int { return cmp.Compare(*b.number, *a.number) })
	at, err := time.Parse(docs.TimeFormat, nums[n-1].createdAt)
	if err != nil {
		return "", false
	}
	return at.Add(-numberSkew).UTC().Format(docs.TimeFormat), true
}
