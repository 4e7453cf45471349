package live_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/app/standalone"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/ids"
)

// benchConns is how many connections the benchmarks hold in one Group
// (issue 25: 1,000 local connections, p99 ≤ 100 ms on loopback).
const benchConns = 1000

// benchProduct is the local server as `make run` wires it: embedded store,
// the change stream draining the outbox in the background into the hub,
// a real loopback listener, one signed-in user with a Group.
type benchProduct struct {
	app    *app.App
	url    string
	client *http.Client
	cookie string
	xsrf   string
	db     string
}

func newBenchProduct(b *testing.B) *benchProduct {
	b.Helper()
	app.TuneGC(os.Getenv)
	cfg, err := config.Load([]string{"--data", b.TempDir(), "--schedule", "off", "--base-url", "http://127.0.0.1"}, func(string) string { return "" }, config.Local)
	if err != nil {
		b.Fatal(err)
	}
	a, err := standalone.Open(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.StartBackground(ctx)
	srv := httptest.NewServer(a.Handler)
	b.Cleanup(func() {
		a.Live.Close()
		srv.Close()
		cancel()
		a.Wait()
		a.Close()
	})
	jar, _ := cookiejar.New(nil)
	p := &benchProduct{app: a, url: srv.URL, client: &http.Client{Jar: jar}}
	user := ids.New("usr")
	p.must(b, "POST", "/api/_users", map[string]any{"_id": user, "unconfirmed_email": "bench@example.com", "password": "bench password 1"}, 201)
	p.must(b, "POST", "/api/_session", map[string]any{"name": "bench@example.com", "password": "bench password 1"}, 200)
	u, _ := url.Parse(srv.URL)
	var parts []string
	for _, c := range jar.Cookies(u) {
		parts = append(parts, c.Name+"="+c.Value)
		if c.Name == "XSRF-TOKEN" {
			p.xsrf = c.Value
		}
	}
	p.cookie = strings.Join(parts, "; ")
	p.db = p.must(b, "POST", "/api/accounts", map[string]any{"name": "Bench"}, 201)["id"].(string)
	return p
}

func (p *benchProduct) must(b *testing.B, method, path string, body any, status int) map[string]any {
	b.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, p.url+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-XSRF-TOKEN", p.xsrf)
	res, err := p.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != status {
		b.Fatalf("%s %s: %d %s", method, path, res.StatusCode, out)
	}
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	return m
}

func (p *benchProduct) liveURL() string {
	return "ws" + strings.TrimPrefix(p.url, "http") + "/api/_live?xsrf=" + url.QueryEscape(p.xsrf)
}

// BenchmarkFanOut: one write in a Group whose 1,000 connections follow it;
// the latency is from the write's request to each connection reading its
// notice (the API's commit, the outbox, history and counters, the hub).
func BenchmarkFanOut(b *testing.B) {
	p := newBenchProduct(b)
	// The clients share this process with the server, so they do as little
	// as they can: compare bytes, store one duration in their own slot.
	var (
		current atomic.Pointer[[]byte] // the id of the write in flight
		t0      atomic.Int64           // its start, Unix nanoseconds
		pending atomic.Int64
		done    = make(chan struct{}, 1)
		lat     = make([][]time.Duration, benchConns)
	)
	ctx := context.Background()
	h := http.Header{"Cookie": {p.cookie}, "Origin": {p.url}}
	sub, _ := json.Marshal(map[string]any{"subscribe": []string{p.db}})
	var ready sync.WaitGroup
	for i := range benchConns {
		ws, _, err := websocket.Dial(ctx, p.liveURL(), &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { ws.CloseNow() })
		if err := ws.Write(ctx, websocket.MessageText, sub); err != nil {
			b.Fatal(err)
		}
		ready.Add(1)
		go func() {
			_, _, err := ws.Read(ctx) // {"subscribed": …}
			ready.Done()
			for err == nil {
				var msg []byte
				_, msg, err = ws.Read(ctx)
				at := time.Now().UnixNano()
				if id := current.Load(); id != nil && bytes.Contains(msg, *id) {
					lat[i] = append(lat[i], time.Duration(at-t0.Load()))
					if pending.Add(-1) == 0 {
						done <- struct{}{}
					}
				}
			}
		}()
	}
	ready.Wait()
	if s := p.app.Live.Stats(); s.Connections != benchConns || s.Subscriptions != benchConns {
		b.Fatalf("hub holds %+v", s)
	}
	var putTook time.Duration
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		id := ids.New("cus")
		idb := []byte(`"` + id + `"`)
		pending.Store(benchConns)
		current.Store(&idb)
		start := time.Now()
		t0.Store(start.UnixNano())
		p.must(b, "PUT", "/api/"+p.db+"/"+id, map[string]any{"klass": "Customer", "name": fmt.Sprintf("Customer %d", i)}, 201)
		putTook += time.Since(start)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			b.Fatalf("write %d: %d connections did not hear of it", i, pending.Load())
		}
	}
	b.StopTimer()
	// CPU per write (server, stream and the 1,000 in-process clients): on a
	// busy machine the latency is mostly waiting for a core; this is not.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(time.Millisecond), "cpu-ms/write")
	all := slices.Concat(lat...)
	slices.Sort(all)
	q := func(f float64) float64 { return float64(all[int(f*float64(len(all)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(q(0), "min-ms")
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(q(1), "max-ms")
	b.ReportMetric(float64(putTook)/float64(b.N)/float64(time.Millisecond), "put-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkIdleConnection: the hub's memory per idle, subscribed
// connection (Go heap and stacks, server side: the clients are bare
// sockets that did the handshake and subscribed, with nothing running).
func BenchmarkIdleConnection(b *testing.B) {
	p := newBenchProduct(b)
	addr := strings.TrimPrefix(p.url, "http://")
	measure := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse + m.StackInuse
	}
	for range b.N {
		before := measure()
		var socks []net.Conn
		for range benchConns {
			socks = append(socks, rawSubscribe(b, addr, p))
		}
		for p.app.Live.Stats().Subscriptions < len(socks) {
			time.Sleep(10 * time.Millisecond)
		}
		after := measure()
		b.ReportMetric(float64(after-before)/benchConns/1024, "KiB/conn")
		for _, s := range socks {
			s.Close()
		}
		for p.app.Live.Stats().Connections > 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	b.ReportMetric(0, "ns/op")
}

// rawSubscribe opens a WebSocket by hand and subscribes to p's Group,
// leaving nothing running on the client side.
func rawSubscribe(b *testing.B, addr string, p *benchProduct) net.Conn {
	b.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	key := make([]byte, 16)
	_, _ = rand.Read(key)
	fmt.Fprintf(c, "GET /api/_live?xsrf=%s HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\nCookie: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: %s\r\n\r\n",
		url.QueryEscape(p.xsrf), addr, p.url, p.cookie, base64.StdEncoding.EncodeToString(key))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || res.StatusCode != http.StatusSwitchingProtocols {
		b.Fatalf("handshake: %v %v", res, err)
	}
	msg, _ := json.Marshal(map[string]any{"subscribe": []string{p.db}})
	// One masked text frame (a client must mask; a zero mask keeps the bytes).
	frame := append([]byte{0x81, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)
	if _, err := c.Write(frame); err != nil {
		b.Fatal(err)
	}
	return c
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
