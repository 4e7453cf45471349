package ticket_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// BenchmarkBoard times the board's data load (GET /_tickets/board through
// the API with a signed-in session) in a Group holding 5,000 tickets, 300 of
// them open, on each store. Targets: p50 ≤ 30 ms on the embedded store; on
// DynamoDB Local the read capacity of one load follows the open tickets
// shown (and the 30 latest closed), not the 5,000 (RCU/op is printed).
//
//	go test -run '^$' -bench Board -benchtime 50x ./shared/ticket/
func BenchmarkBoard(b *testing.B) {
	for _, backend := range apptest.Backends {
		b.Run(string(backend), func(b *testing.B) {
			e := apptest.New(b, backend)
			c := e.SignUp("board@example.com")
			const total, open = 5000, 300
			db := e.BigDesk(b, c, total, open)
			e.Drain()
			got := c.Do("GET", "/api/"+db+"/_tickets/board", nil).Expect(b, http.StatusOK)
			counts := got["counts"].(map[string]any)
			if n := len(got["tickets"].([]any)); n != open+30 || fmt.Sprint(counts["open"]) != fmt.Sprint(open) || fmt.Sprint(counts["done"]) != fmt.Sprint(total-open) {
				b.Fatalf("board: %d cards, counts %v", n, counts)
			}
			e.Measure(b, func() apptest.Response { return c.Do("GET", "/api/"+db+"/_tickets/board", nil) })
		})
	}
}
