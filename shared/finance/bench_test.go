package finance_test

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

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

// BenchmarkImport imports a 10,000-row CSV statement (parse, detect, map
// with 3 rules, dedupe, write as imported records) into a wallet on the
// embedded store; each round a new file. Target (issue 11): ≤ 3 s. It also
// reports the peak heap in use during the import, which stays flat as files
// grow (rows stream from a spooled file; only the rows in flight are held).
//
//	go test -run '^$' -bench Import -benchtime 3x ./shared/finance/
func BenchmarkImport(b *testing.B) {
	e := apptest.New(b, apptest.Bolt)
	c := e.SignUp("books@example.com")
	db := e.Group(c, "Big books")
	wallet := c.Do("POST", "/api/"+db, map[string]any{"klass": "Wallet", "name": "Banco", "currency": "BRL"}).Expect(b, http.StatusCreated)["id"].(string)
	for i, word := range []string{"posto", "mercado", "pix"} {
		c.Do("POST", "/api/"+db, map[string]any{"klass": "Mapping", "description": word, "target": []string{"outgo", "outgo", "income"}[i], "field_to_watch": "description",
			"kind_of_watch": "contains", "text_to_match": word, "kind_of_change": "append", "field_to_change": "categories", "text_to_change": word}).Expect(b, http.StatusCreated)
	}
	const rows = 10_000
	var peak uint64
	for round := 0; b.Loop(); round++ {
		var f strings.Builder
		f.WriteString("Data;Histórico;Valor\n")
		for i := range rows {
			fmt.Fprintf(&f, "%02d/%02d/2026;%s %d-%d;%s%d,%02d\n", 1+i%28, 1+i%12, []string{"COMPRA POSTO", "MERCADO", "PIX RECEBIDO"}[i%3], round, i, []string{"-", "-", ""}[i%3], 1+i%900, i%100)
		}
		stop := sampleHeap(&peak)
		res := c.Do("POST", "/api/"+db+"/_finance/import?wallet_id="+wallet, f.String()).Expect(b, http.StatusOK)
		stop()
		if res["created"].(float64) != rows {
			b.Fatalf("import %v", res)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}

// sampleHeap records the largest HeapInuse until stop is called.
func sampleHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-finished }
}
