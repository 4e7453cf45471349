package apptest_test

import (
	"net/http"
	"os"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ticket"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// TestHarness: the wired product on both stores, through the API as a
// signed-in browser would use it; the stream's counters equal a recount,
// and a shuffled replay of every change moves nothing.
func TestHarness(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		bia := e.SignUp("bia@example.com")
		e.Join(ana, bia, db, false)

		for _, p := range []string{"high", "high", "low"} {
			bia.Do("POST", "/api/"+db, map[string]any{"klass": "Ticket", "content": "Tela quebrada", "priority": p, "status": "open"}).Expect(t, http.StatusCreated)
		}
		res := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "Cida"}).Expect(t, http.StatusCreated)
		e.Unchanged(db, func() {
			bia.Do("PUT", "/api/"+db+"/"+res["id"].(string), map[string]any{"name": "x"}).ExpectError(t, http.StatusConflict, "")
		})
		counts := e.CheckCounts(db)
		if got := counts.Tally(ticket.TallyOpenByPriority); got["high"] != 2 || got["low"] != 1 {
			t.Fatalf("open tickets by priority %v", got)
		}
		view := bia.Do("GET", "/api/"+db+"/_design/count-by-open-ticket-priority/_view/all?group_level=0", nil).Expect(t, http.StatusOK)
		if rows := view["rows"].([]any); len(rows) != 1 || rows[0].(map[string]any)["value"] != float64(3) {
			t.Fatalf("open-ticket view %v", view)
		}
		before := e.Counts(db)
		e.Replay(7)
		e.CheckCounts(db)
		if after := e.Counts(db); after.Tally(ticket.TallyOpenByPriority)["high"] != before.Tally(ticket.TallyOpenByPriority)["high"] {
			t.Fatal("a replay moved the counters")
		}

		// Tokens: a read token reads, cannot write.
		tok := e.WithToken(e.Token(ana, "read", db))
		tok.Do("GET", "/api/"+db, nil).Expect(t, http.StatusOK)
		e.Unchanged(db, func() {
			tok.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "x"}).ExpectError(t, http.StatusForbidden, "")
		})
		if len(e.MailsTo("bia@example.com", "")) == 0 {
			t.Fatal("no mail to bia (confirmation, invitation)")
		}
	})
}
