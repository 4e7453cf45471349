package ticket_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/ticket"
)

// TestListByNumber: the ticket list's default page (every ticket, newest
// number first) is read from the top of the board's index parts
// (top.go), not the whole klass, and gives the rows the whole-klass read
// gives, at every page the list offers: open, closed, reopened and
// long-closed tickets changed again, on both stores. On DynamoDB it reads
// less than the whole klass.
func TestListByNumber(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		s := newShop(t, e)
		// Two hundred old tickets, done long ago.
		var old []any
		for i := range 200 {
			old = append(old, map[string]any{"klass": "Ticket", "status": "doing", "content": fmt.Sprint("old ", i)})
		}
		made := s.bia.Do("POST", "/api/"+s.db+"/_bulk_docs", map[string]any{"docs": old})
		made.Expect(t, http.StatusCreated)
		var rows []map[string]any
		if err := json.Unmarshal(made.Body, &rows); err != nil || len(rows) != len(old) {
			t.Fatalf("bulk create: %s", made.Body)
		}
		var done []any
		for i, m := range rows {
			done = append(done, map[string]any{"_id": m["id"], "_rev": m["rev"], "klass": "Ticket", "status": "done", "content": fmt.Sprint("old ", i)})
		}
		s.bia.Do("POST", "/api/"+s.db+"/_bulk_docs", map[string]any{"docs": done}).Expect(t, http.StatusCreated)
		e.Clock.Advance(time.Hour)
		var ids []string
		for i := range 90 {
			status := []string{"open", "doing", "doing"}[i%3]
			ids = append(ids, s.ticket(t, map[string]any{"status": status, "content": fmt.Sprint("ticket ", i)}))
			e.Clock.Advance(11 * time.Minute) // under a day in all: the sessions last 24 hours
		}
		// Most tickets close; some long-closed ones are reopened or changed
		// again much later, which puts them at the top of the closed part.
		for i, id := range ids {
			if i%3 != 0 && i < 80 {
				s.put(s.bia, id, map[string]any{"status": "done"}).Expect(t, http.StatusCreated)
			}
		}
		e.Clock.Advance(3 * time.Hour)
		for _, i := range []int{2, 5} {
			s.put(s.bia, ids[i], map[string]any{"status": "open"}).Expect(t, http.StatusCreated)
		}
		for _, i := range []int{7, 8} {
			s.put(s.bia, ids[i], map[string]any{"status": "done", "content": "changed"}).Expect(t, http.StatusCreated)
		}
		e.Drain()
		page := func(selector map[string]any, skip, limit int) []string {
			t.Helper()
			res := s.bia.Do("POST", "/api/"+s.db+"/_find", map[string]any{"selector": selector, "sort": []any{map[string]any{"number": "desc"}}, "skip": skip, "limit": limit}).Expect(t, http.StatusOK)
			var out []string
			for _, d := range res["docs"].([]any) {
				out = append(out, d.(map[string]any)["_id"].(string))
			}
			return out
		}
		all := map[string]any{"klass": "Ticket"}
		whole := map[string]any{"klass": "Ticket", "number": map[string]any{"$gt": 0}} // not the list's selector: the whole klass
		for _, p := range []struct{ skip, limit int }{{0, 26}, {0, 5}, {25, 26}, {80, 26}, {0, 200}} {
			got, want := page(all, p.skip, p.limit), page(whole, p.skip, p.limit)
			if !slices.Equal(got, want) || len(want) == 0 {
				t.Fatalf("skip %d limit %d: %v, want %v", p.skip, p.limit, got, want)
			}
		}
		if got := page(all, 0, 3); !slices.Equal(got, []string{ids[89], ids[88], ids[87]}) {
			t.Fatalf("first rows %v, want the newest numbers", got)
		}
		// The read itself, on either store: it holds the first n rows and
		// far fewer than the klass's 290 tickets.
		top := ticket.TopByNumber(ticket.New(module.Deps{Store: e.Store}))
		for _, n := range []int{1, 5, 26, 105} {
			docs, ok, err := top(context.Background(), s.db, n)
			if err != nil || !ok {
				t.Fatalf("top %d: %v, %v", n, ok, err)
			}
			read := map[string]bool{}
			for _, d := range docs {
				read[d.ID] = true
			}
			for _, id := range page(whole, 0, n) {
				if !read[id] {
					t.Fatalf("top %d: %s, among the first %d by number, was not read (%d read)", n, id, n, len(docs))
				}
			}
			if n <= 26 && len(docs) > 150 {
				t.Fatalf("top %d read %d tickets of 290", n, len(docs))
			}
		}
		if e.Meter != nil {
			reads := func(sel map[string]any) float64 {
				e.Meter.Reset()
				page(sel, 0, 26)
				r, _, _ := e.Meter.Totals()
				return r
			}
			if top, klass := reads(all), reads(whole); top >= klass {
				t.Fatalf("the list's first page read %.1f RCU, the whole klass %.1f", top, klass)
			} else {
				t.Logf("the list's first page read %.1f RCU, the whole klass %.1f", top, klass)
			}
		}
	})
}
