package finance_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// BenchmarkBalances reads the balances panel's view (by-currency, 5 wallets)
// in a Group holding 10,000 money records, on each store: the read follows
// the wallets, not the records (the counts are kept by the stream).
//
//	go test -run '^$' -bench Balances -benchtime 100x ./shared/finance/
func BenchmarkBalances(b *testing.B) {
	for _, backend := range apptest.Backends {
		b.Run(string(backend), func(b *testing.B) {
			e := apptest.New(b, backend)
			c := e.SignUp("books@example.com")
			db := e.Group(c, "Big books")
			var wallets []string
			for i := range 5 {
				wallets = append(wallets, c.Do("POST", "/api/"+db, map[string]any{"klass": "Wallet", "name": fmt.Sprint("W", i), "currency": []string{"BRL", "USD"}[i%2]}).Expect(b, http.StatusCreated)["id"].(string))
			}
			const total = 10_000
			for start := 0; start < total; start += 500 {
				docs := make([]any, 0, 500)
				for i := start; i < start+500; i++ {
					docs = append(docs, map[string]any{"klass": []string{"Income", "Outgo"}[i%2], "description": "R", "value": 100 + i, "wallet_id": wallets[i%5], "confirmed": i%3 != 0})
				}
				c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs}).Expect(b, http.StatusCreated)
			}
			e.Drain()
			e.Measure(b, func() apptest.Response {
				return c.Do("GET", "/api/"+db+"/_design/wallet-balances/_view/by-currency?group_level=1&reduce=true", nil)
			})
		})
	}
}
