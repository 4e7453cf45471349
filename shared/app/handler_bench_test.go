package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/oficina/oficina/shared/httpload"
	"github.com/oficina/oficina/shared/ids"
)

// BenchmarkDocHandler times the API handler alone on the requests of
// BenchmarkDocGet and BenchmarkDocPut, called in process with the signed-in
// session's cookies: no sockets, no client, one request at a time. Its
// cpu-us/op is the process's CPU per request (the change stream's work on
// each write included), the part of a request's server CPU the code above
// net/http decides, with much less noise than the loopback benchmarks.
func BenchmarkDocHandler(b *testing.B) {
	e := newBenchEnv(b)
	u, _ := url.Parse(e.url)
	cookies := e.client.Jar.Cookies(u)
	request := func(method, path string, body []byte) *http.Request {
		r := httptest.NewRequest(method, path, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-XSRF-TOKEN", e.xsrf)
		for _, c := range cookies {
			r.AddCookie(c)
		}
		return r
	}
	id := ids.New("cus")
	path := "/api/" + e.db + "/" + id
	rev := e.must(b, "PUT", path, customer(1), 201)["rev"].(string)
	e.waitDrained(b)
	measure := func(b *testing.B, op func(i int) error, settle func()) {
		b.ReportAllocs()
		cpu0 := httpload.ProcessCPU()
		i := 0
		for b.Loop() {
			if err := op(i); err != nil {
				b.Fatal(err)
			}
			i++
		}
		settle()
		if cpu := httpload.ProcessCPU() - cpu0; cpu > 0 {
			b.ReportMetric(float64(cpu)/1e3/float64(i), "cpu-us/op")
		}
	}
	b.Run("GET", func(b *testing.B) {
		measure(b, func(int) error {
			w := httptest.NewRecorder()
			e.app.API.ServeHTTP(w, request("GET", path, nil))
			if w.Code != 200 {
				return fmt.Errorf("GET: %d %s", w.Code, w.Body)
			}
			return nil
		}, func() {})
	})
	b.Run("PUT", func(b *testing.B) {
		measure(b, func(i int) error {
			body := customer(i)
			body["_rev"] = rev
			raw, _ := json.Marshal(body)
			w := httptest.NewRecorder()
			e.app.API.ServeHTTP(w, request("PUT", path, raw))
			if w.Code != 201 {
				return fmt.Errorf("PUT: %d %s", w.Code, w.Body)
			}
			var res struct{ Rev string }
			if err := json.Unmarshal(w.Body.Bytes(), &res); err != nil {
				return err
			}
			rev = res.Rev
			return nil
		}, func() { e.waitDrained(b) }) // the stream's work on these writes counts too
	})
}
