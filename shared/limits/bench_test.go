package limits_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
)

// BenchmarkGuardedCreate: creating a record through the API in a free
// Group that holds 900 records, so the plan-limit guard reads the Group's
// counts on each write; compare with the ticket and finance create figures
// to see what the guard adds. On DynamoDB Local it also reports the read
// capacity and store calls per create.
func BenchmarkGuardedCreate(b *testing.B) {
	for _, kind := range apptest.Backends {
		b.Run(string(kind), func(b *testing.B) {
			e := apptest.New(b, kind)
			ana := e.SignUp("ana@example.com")
			db := e.Group(ana, "Oficina da Ana")
			for done := 0; done < 900; done += 300 {
				docs := make([]any, 300)
				for i := range docs {
					docs[i] = map[string]any{"_id": ids.New("cus"), "klass": "Customer", "name": fmt.Sprintf("Cliente %05d", done+i)}
				}
				ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs}).Expect(b, http.StatusCreated)
			}
			e.Drain()
			if got := ana.Do("GET", "/api/"+db+"/_limits", nil).Expect(b, http.StatusOK)["records"]; got != float64(900) {
				b.Fatalf("records = %v", got)
			}
			n := 0
			e.Measure(b, func() apptest.Response {
				n++
				r := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Customer", "name": fmt.Sprintf("Novo %d", n)})
				if r.Code == http.StatusCreated {
					r.Code = http.StatusOK
				}
				return r
			})
		})
	}
}
