package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/app/standalone"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/httpload"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// clients is how many concurrent HTTP clients the benchmarks run (issue 2:
// 16 concurrent clients on loopback).
const clients = 16

// benchEnv is the whole product (embedded store, real auth with a signed-in
// session cookie, background change stream) behind a real loopback listener.
type benchEnv struct {
	app    *app.App
	url    string
	client *http.Client
	xsrf   string
	db     string
}

func newBenchEnv(b *testing.B) *benchEnv {
	b.Helper()
	app.TuneGC(os.Getenv) // the runtime settings of the local server binary
	cfg, err := config.Load([]string{"--data", b.TempDir(), "--schedule", "off"}, func(string) string { return "" }, config.Local)
	if err != nil {
		b.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	a, err := standalone.Open(context.Background(), cfg, log)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.StartBackground(ctx)
	srv := httptest.NewServer(a.API)
	b.Cleanup(func() {
		srv.Close()
		cancel()
		a.Wait()
		a.Close()
	})
	jar, _ := cookiejar.New(nil)
	e := &benchEnv{app: a, url: srv.URL, client: &http.Client{Jar: jar, Transport: &http.Transport{MaxIdleConnsPerHost: clients * 2}}}
	user := ids.New("usr")
	e.must(b, "POST", "/api/_users", map[string]any{"_id": user, "unconfirmed_email": "bench@example.com", "password": "bench password 1"}, 201)
	e.must(b, "POST", "/api/_session", map[string]any{"name": "bench@example.com", "password": "bench password 1"}, 200)
	u, _ := url.Parse(srv.URL)
	for _, c := range jar.Cookies(u) {
		if c.Name == "XSRF-TOKEN" {
			e.xsrf = c.Value
		}
	}
	e.db = user
	return e
}

func (e *benchEnv) do(method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-XSRF-TOKEN", e.xsrf)
	res, err := e.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	return res.StatusCode, out, err
}

func (e *benchEnv) must(b *testing.B, method, path string, body any, status int) map[string]any {
	b.Helper()
	code, out, err := e.do(method, path, body)
	if err != nil || code != status {
		b.Fatalf("%s %s: %d %v %s", method, path, code, err, out)
	}
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	return m
}

// waitDrained waits until the change stream has consumed every write so
// far, so a benchmark times its own requests, not a seeding backlog (the
// consumer keeps running during the timing).
func (e *benchEnv) waitDrained(b *testing.B) {
	b.Helper()
	ob, ok := e.app.Store.(store.Outbox)
	if !ok {
		b.Fatal("the embedded store has no outbox")
	}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		entries, err := ob.ReadOutbox(context.Background(), 1)
		if err != nil {
			b.Fatal(err)
		}
		if len(entries) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.Fatal("the change stream did not catch up within 2 minutes")
}

// run spreads b.N operations over clients goroutines, timing each, and
// reports throughput and latency percentiles.
func run(b *testing.B, workers int, op func(worker, i int) error) {
	b.Helper()
	var next atomic.Int64
	lat := make([][]time.Duration, workers)
	var wg sync.WaitGroup
	var failed atomic.Value
	b.ResetTimer()
	start, cpu0 := time.Now(), httpload.ProcessCPU()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= b.N {
					return
				}
				t0 := time.Now()
				if err := op(w, i); err != nil {
					failed.Store(err)
					return
				}
				lat[w] = append(lat[w], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed, cpu := time.Since(start), httpload.ProcessCPU()-cpu0
	b.StopTimer()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	pct := func(p float64) float64 {
		return float64(all[min(len(all)-1, int(float64(len(all))*p))].Microseconds()) / 1000
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	// CPU time of the whole process (server and clients) per request, which
	// the machine's load distorts less than wall time.
	if cpu > 0 {
		b.ReportMetric(float64(cpu)/1e3/float64(b.N), "cpu-us/op")
	}
}

func customer(i int) map[string]any {
	return map[string]any{
		"klass": "Customer", "name": fmt.Sprintf("Customer %05d", i), "email": fmt.Sprintf("c%05d@example.com", i),
		"company_name": "Oficina Benchmarks Ltda", "site": "https://example.com/customers", "job_title": "Owner",
		"notes": string(bytes.Repeat([]byte("x"), 600)),
	}
}

// BenchmarkDocGet: GET of one ~1 KB document, cookie session, 16 clients.
func BenchmarkDocGet(b *testing.B) {
	e := newBenchEnv(b)
	id := ids.New("cus")
	e.must(b, "PUT", "/api/"+e.db+"/"+id, customer(1), 201)
	path := "/api/" + e.db + "/" + id
	run(b, clients, func(_, _ int) error {
		code, _, err := e.do("GET", path, nil)
		if err == nil && code != 200 {
			err = fmt.Errorf("GET: %d", code)
		}
		return err
	})
}

// BenchmarkDocPut: durable (fsync'd) updates, each client its own document.
func BenchmarkDocPut(b *testing.B) {
	e := newBenchEnv(b)
	docIDs := make([]string, clients)
	revs := make([]string, clients)
	for w := range clients {
		docIDs[w] = ids.New("cus")
		revs[w] = e.must(b, "PUT", "/api/"+e.db+"/"+docIDs[w], customer(w), 201)["rev"].(string)
	}
	run(b, clients, func(w, i int) error {
		body := customer(i)
		body["_rev"] = revs[w]
		code, out, err := e.do("PUT", "/api/"+e.db+"/"+docIDs[w], body)
		if err != nil {
			return err
		}
		if code != 201 {
			return fmt.Errorf("PUT: %d %s", code, out)
		}
		var res struct{ Rev string }
		if err := json.Unmarshal(out, &res); err != nil {
			return err
		}
		revs[w] = res.Rev
		return nil
	})
}

// BenchmarkFind10k: _find with a selector, a sort and limit 25 over 10,000
// documents of one klass, one client at a time (latency, not throughput).
func BenchmarkFind10k(b *testing.B) {
	e := newBenchEnv(b)
	for batch := 0; batch < 10; batch++ {
		docs := make([]any, 1000)
		for i := range docs {
			n := batch*1000 + i
			d := customer(n)
			d["active"] = n%4 != 0
			d["born_at"] = fmt.Sprintf("19%02d-01-01", n%100)
			docs[i] = d
		}
		code, out, err := e.do("POST", "/api/"+e.db+"/_bulk_docs", map[string]any{"docs": docs})
		if err != nil || code != 201 {
			b.Fatalf("seed: %d %v %.200s", code, err, out)
		}
	}
	e.waitDrained(b)
	query := map[string]any{
		"selector": map[string]any{"klass": "Customer", "active": true, "born_at": map[string]any{"$gte": "1950-01-01"}},
		"sort":     []any{map[string]any{"name": "desc"}},
		"limit":    25,
	}
	run(b, 1, func(_, _ int) error {
		code, out, err := e.do("POST", "/api/"+e.db+"/_find", query)
		if err == nil && (code != 200 || !bytes.Contains(out, []byte(`"Customer 09999"`))) {
			err = fmt.Errorf("_find: %d %.200s", code, out)
		}
		return err
	})
}
