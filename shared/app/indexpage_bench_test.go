package app_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
)

// BenchmarkIndexPage: the request an index page of the SPA makes for its
// first rows (web/src/lib/couch.ts findPage: a klass, a sort, one extra row)
// over a Group holding 10,000 records of that klass, on both stores (issue
// 23: p50 ≤ 20 ms). "by-name" is the customers' default order, "newest" the
// default of the sets ordered by creation, "by-date" the expenses' (newest
// posted_at first), "by-number" the tickets' (newest number first; 300 of
// them open, the rest done on the day they came, 100 tickets every 5
// minutes: a window of time holds a few hundred).
func BenchmarkIndexPage(b *testing.B) {
	const records, perPage = 10_000, 25
	type order struct{ name, field, dir, first string }
	lists := []struct {
		klass  string
		record func(i int, wallet string) map[string]any
		orders []order
		// then, given a record as written, is the record it becomes (nil:
		// it stays as written).
		then func(i int, written map[string]any) map[string]any
	}{
		{"Customer", func(i int, _ string) map[string]any {
			return map[string]any{"klass": "Customer", "name": fmt.Sprintf("Customer %05d", (i*7919)%records),
				"email": fmt.Sprintf("c%d@example.com", i), "company_name": fmt.Sprintf("Company %d", i%97)}
		}, []order{{"by-name", "name", "asc", "Customer 00000"}, {"newest", "created_at", "desc", ""}}, nil},
		{"Outgo", func(i int, wallet string) map[string]any {
			day := (i * 7919) % 1000 // about three years of expenses
			return map[string]any{"klass": "Outgo", "description": fmt.Sprintf("Compra %d", i), "value": 100 + i%5000,
				"posted_at": fmt.Sprintf("%04d-%02d-%02d", 2024+day/336, 1+day%336/28, 1+day%28), "wallet_id": wallet}
		}, []order{{"by-date", "posted_at", "desc", ""}}, nil},
		{"Ticket", func(i int, _ string) map[string]any {
			return map[string]any{"klass": "Ticket", "status": "doing", "content": fmt.Sprintf("Ticket %d\nTela quebrada", i)}
		}, []order{{"by-number", "number", "desc", ""}}, func(i int, t map[string]any) map[string]any {
			if i%(records/300) == 0 {
				return nil
			}
			t["status"] = "done"
			return t
		}},
	}
	for _, backend := range apptest.Backends {
		b.Run(string(backend), func(b *testing.B) {
			e := apptest.New(b, backend)
			c := e.SignUp("index@example.com")
			db := e.Group(c, "Big list")
			wallet := c.Do("POST", "/api/"+db, map[string]any{"klass": "Wallet", "name": "Caixa", "currency": "BRL"}).Expect(b, http.StatusCreated)["id"].(string)
			for _, list := range lists {
				batch := 500
				if list.then != nil {
					batch = 100
				}
				for start := 0; start < records; start += batch {
					if list.then != nil {
						e.Clock.Advance(5 * time.Minute)
					}
					docs := make([]any, 0, batch)
					for i := start; i < start+batch; i++ {
						docs = append(docs, list.record(i, wallet))
					}
					made := c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs})
					made.Expect(b, http.StatusCreated)
					if list.then == nil {
						continue
					}
					var rows []map[string]any
					if err := json.Unmarshal(made.Body, &rows); err != nil {
						b.Fatal(err)
					}
					var next []any
					for j, row := range rows {
						d := docs[j].(map[string]any)
						d["_id"], d["_rev"] = row["id"], row["rev"]
						if n := list.then(start+j, d); n != nil {
							next = append(next, n)
						}
					}
					c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": next}).Expect(b, http.StatusCreated)
				}
			}
			e.Drain()
			for _, list := range lists {
				for _, o := range list.orders {
					b.Run(list.klass+"/"+o.name, func(b *testing.B) {
						page := map[string]any{
							"selector": map[string]any{"klass": list.klass},
							"sort":     []any{map[string]any{o.field: o.dir}},
							"limit":    perPage + 1,
							"skip":     0,
						}
						got := c.Do("POST", "/api/"+db+"/_find", page).Expect(b, http.StatusOK)
						rows, _ := got["docs"].([]any)
						if len(rows) != perPage+1 {
							b.Fatalf("%d rows", len(rows))
						}
						if first, _ := rows[0].(map[string]any)["name"].(string); o.first != "" && first != o.first {
							b.Fatalf("first row %q, want %q", first, o.first)
						}
						e.Measure(b, func() apptest.Response { return c.Do("POST", "/api/"+db+"/_find", page) })
					})
				}
			}
		})
	}
}
