package app_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// BenchmarkIndexPage: the request an index page of the SPA makes for its
// first rows (web/src/lib/couch.ts findPage: a klass, a sort, one extra row)
// over a Group holding 10,000 records of that klass, on both stores (issue
// 23: p50 ≤ 20 ms). "by-name" is the customers' default order, "newest" the
// default of the sets ordered by date.
func BenchmarkIndexPage(b *testing.B) {
	const records, perPage = 10_000, 25
	for _, backend := range apptest.Backends {
		b.Run(string(backend), func(b *testing.B) {
			e := apptest.New(b, backend)
			c := e.SignUp("index@example.com")
			db := e.Group(c, "Big list")
			for start := 0; start < records; start += 500 {
				docs := make([]any, 0, 500)
				for i := start; i < start+500; i++ {
					docs = append(docs, map[string]any{"klass": "Customer", "name": fmt.Sprintf("Customer %05d", (i*7919)%records),
						"email": fmt.Sprintf("c%d@example.com", i), "company_name": fmt.Sprintf("Company %d", i%97)})
				}
				c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs}).Expect(b, http.StatusCreated)
			}
			e.Drain()
			for _, order := range []struct{ name, field, dir, first string }{
				{"by-name", "name", "asc", "Customer 00000"},
				{"newest", "created_at", "desc", ""},
			} {
				b.Run(order.name, func(b *testing.B) {
					page := map[string]any{
						"selector": map[string]any{"klass": "Customer"},
						"sort":     []any{map[string]any{order.field: order.dir}},
						"limit":    perPage + 1,
						"skip":     0,
					}
					got := c.Do("POST", "/api/"+db+"/_find", page).Expect(b, http.StatusOK)
					rows, _ := got["docs"].([]any)
					if len(rows) != perPage+1 {
						b.Fatalf("%d rows", len(rows))
					}
					if first, _ := rows[0].(map[string]any)["name"].(string); order.first != "" && first != order.first {
						b.Fatalf("first row %q, want %q", first, order.first)
					}
					e.Measure(b, func() apptest.Response { return c.Do("POST", "/api/"+db+"/_find", page) })
				})
			}
		})
	}
}
