package httpload_test

// BenchmarkPeers is issue 23's side-by-side run: the same wrk-like load
// (16 keep-alive connections, 8 s rounds) against several servers in one
// invocation, each started fresh on an empty data directory, so the first
// round includes every warm-up cost. `make bench` prepares the servers
// (build/bench/: pouchdb-server 4.2 from npm, the local server built from
// an older commit and from the working tree) and names them here:
//
//	OFICINA_BENCH_POUCHDB=build/bench/pouchdb-server/node_modules/.bin/pouchdb-server \
//	OFICINA_BENCH_BUILDS=7b6c642=build/bench/oficina-7b6c642,current=build/bench/oficina-current \
//	go test -run '^$' -bench Peers -benchtime 1x ./shared/httpload/
//
// OFICINA_BENCH_BARE names the ceiling (internal/bare, built by `make
// bench-peers`): net/http with a map for a store and nothing else, which
// shows how far any Go handler can go on the machine with this generator.
//
// OFICINA_BENCH_ROUNDS (default 3) is the PUT rounds per server,
// OFICINA_BENCH_SECONDS (default 8) the length of a round,
// OFICINA_BENCH_REPEAT (default 1) runs the whole comparison again with
// the servers in another order, to see the spread.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/oficina/oficina/shared/httpload"
)

const (
	peerConnections = 16
	// ticketBytes is the body size of each PUT (issue 23: a new 150-byte Ticket).
	ticketBytes = 150
)

// peer is one server under test.
type peer struct {
	name string
	// start runs the server on addr with its data in dir and returns how
	// to stop it; ready when start returns.
	start func(b *testing.B, addr, dir string) (stop func())
	// session prepares a database to write to: the path prefix of its
	// documents ("/api/usr-…/") and the headers every request carries.
	session func(b *testing.B, addr string) (prefix string, headers []string)
}

func BenchmarkPeers(b *testing.B) {
	peers := peersFromEnv(b)
	rounds := envInt(b, "OFICINA_BENCH_ROUNDS", 3)
	round := time.Duration(envInt(b, "OFICINA_BENCH_SECONDS", 8)) * time.Second
	repeat := envInt(b, "OFICINA_BENCH_REPEAT", 1)
	type row struct {
		peer, phase string
		res         httpload.Result
	}
	var rows []row
	for rep := range repeat {
		// Later repeats rotate the order, so no server always runs first.
		order := append(peers[rep%len(peers):], peers[:rep%len(peers)]...)
		for _, p := range order {
			b.Run(p.name, func(b *testing.B) {
				addr := freeAddr(b)
				stop := p.start(b, addr, b.TempDir())
				defer stop()
				prefix, headers := p.session(b, addr)
				putHeaders := append([]string{"Content-Type: application/json"}, headers...)
				run := fmt.Sprintf("%08x", time.Now().UnixNano()&0xffffffff)
				docID := func(conn, seq int) string { return fmt.Sprintf("tik-%s%08x%016x", run, conn, seq) }
				for r := 1; r <= rounds; r++ {
					phase := fmt.Sprintf("put-%d", r)
					b.Run(phase, func(b *testing.B) {
						res := load(b, addr, round, func(conn, seq int) []byte {
							// Each round writes new documents: seq restarts, the round does not.
							id := docID(conn, r<<40|seq)
							return httpload.Format("PUT", addr, prefix+id, putHeaders, ticket(id))
						})
						rows = append(rows, row{p.name, phase, res})
					})
				}
				getPath := prefix + docID(0, 1<<40)
				req := httpload.Format("GET", addr, getPath, headers, nil)
				b.Run("get", func(b *testing.B) {
					res := load(b, addr, round, func(int, int) []byte { return req })
					rows = append(rows, row{p.name, "get", res})
				})
			})
		}
	}
	// The summary: every figure, then each target's ratio (first rounds).
	var out bytes.Buffer
	tw := tabwriter.NewWriter(&out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "server\tphase\treq/s\tp50 ms\tp99 ms\t")
	best := map[string]float64{}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.2f\t%.2f\t\n", r.peer, r.phase, r.res.PerSecond(), ms(r.res.Percentile(0.5)), ms(r.res.Percentile(0.99)))
		best[r.peer+"/"+r.phase] = max(best[r.peer+"/"+r.phase], r.res.PerSecond())
	}
	tw.Flush()
	ratio := func(a, b string) string {
		if best[b] == 0 || best[a] == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f×", best[a]/best[b])
	}
	last := peers[len(peers)-1].name
	for _, p := range peers[:len(peers)-1] {
		fmt.Fprintf(&out, "%s vs %s: PUT round 1 %s", last, p.name, ratio(last+"/put-1", p.name+"/put-1"))
		for round := 2; round <= rounds; round++ {
			fmt.Fprintf(&out, ", round %d %s", round, ratio(last+"/put-"+strconv.Itoa(round), p.name+"/put-"+strconv.Itoa(round)))
		}
		fmt.Fprintf(&out, "; GET %s\n", ratio(last+"/get", p.name+"/get"))
	}
	if best[bareName+"/get"] > 0 && best["pouchdb-server/get"] > 0 {
		fmt.Fprintf(&out, "the ceiling (%s) vs pouchdb-server: PUT round 1 %s; GET %s\n", bareName,
			ratio(bareName+"/put-1", "pouchdb-server/put-1"), ratio(bareName+"/get", "pouchdb-server/get"))
	}
	fmt.Print(out.String())
}

// load runs one round and reports it as the sub-benchmark's metrics.
func load(b *testing.B, addr string, d time.Duration, req httpload.Request) httpload.Result {
	res, err := httpload.Run(context.Background(), httpload.Options{
		Addr: addr, Connections: peerConnections, Duration: d, Request: req,
	})
	if err != nil {
		b.Fatal(err)
	}
	if res.Failures > 0 {
		b.Fatalf("%d of %d requests failed: %v", res.Failures, res.Requests, res.Status)
	}
	b.ReportMetric(res.PerSecond(), "req/s")
	b.ReportMetric(ms(res.Percentile(0.5)), "p50-ms")
	b.ReportMetric(ms(res.Percentile(0.99)), "p99-ms")
	return res
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// ticket is a new Ticket's body of ticketBytes bytes.
func ticket(id string) []byte {
	head := `{"klass":"Ticket","priority":"medium","content":"Printer jams after ten pages, ` + id[len(id)-8:]
	const tail = `"}`
	return []byte(head + strings.Repeat(".", max(0, ticketBytes-len(head)-len(tail))) + tail)
}

// peersFromEnv reads the servers: pouchdb-server first, the ceiling, then the builds
// in the order given (the last is the one the ratios are about).
func peersFromEnv(b *testing.B) []peer {
	var peers []peer
	if bin := os.Getenv("OFICINA_BENCH_POUCHDB"); bin != "" {
		peers = append(peers, pouchdbPeer(absPath(b, bin)))
	}
	if bin := os.Getenv("OFICINA_BENCH_BARE"); bin != "" {
		peers = append(peers, barePeer(absPath(b, bin)))
	}
	for _, spec := range strings.Split(os.Getenv("OFICINA_BENCH_BUILDS"), ",") {
		if spec == "" {
			continue
		}
		name, bin, ok := strings.Cut(spec, "=")
		if !ok {
			b.Fatalf("OFICINA_BENCH_BUILDS: %q is not name=path", spec)
		}
		peers = append(peers, oficinaPeer(name, absPath(b, bin)))
	}
	if len(peers) < 2 {
		b.Fatal("BenchmarkPeers compares servers that `make bench` prepares: set OFICINA_BENCH_POUCHDB and OFICINA_BENCH_BUILDS (see the comment at the top of peers_test.go)")
	}
	return peers
}

// absPath resolves a path given relative to the repository root (make's
// working directory), since go test runs in the package directory.
func absPath(b *testing.B, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	abs, err := filepath.Abs(filepath.Join("..", "..", p))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		b.Fatal(err)
	}
	return abs
}

func envInt(b *testing.B, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		b.Fatalf("%s=%q: a positive integer", name, v)
	}
	return n
}

// oficinaPeer is a build of the local server (`make run`'s binary) with
// its defaults, signed in through a cookie session, writing into the
// user's own database.
func oficinaPeer(name, bin string) peer {
	return peer{
		name: name,
		start: func(b *testing.B, addr, dir string) func() {
			return startProcess(b, dir, "http://"+addr+"/api/", bin,
				"--addr", addr, "--data", filepath.Join(dir, "data"), "--web", filepath.Join(dir, "no-web"))
		},
		session: func(b *testing.B, addr string) (string, []string) {
			user := "usr-" + randomHex(b, 16)
			base := "http://" + addr + "/api/"
			mustDo(b, "POST", base+"_users", "", map[string]any{"_id": user, "unconfirmed_email": "bench@example.com", "password": "bench password 1"}, http.StatusCreated)
			res := mustDo(b, "POST", base+"_session", "", map[string]any{"name": "bench@example.com", "password": "bench password 1"}, http.StatusOK)
			var cookies []string
			xsrf := ""
			for _, c := range res.Cookies() {
				cookies = append(cookies, c.Name+"="+c.Value)
				if c.Name == "XSRF-TOKEN" {
					xsrf = c.Value
				}
			}
			return "/api/" + user + "/", []string{"Cookie: " + strings.Join(cookies, "; "), "X-XSRF-TOKEN: " + xsrf}
		},
	}
}

// bareName is the ceiling's name in the results.
const bareName = "net/http alone"

// barePeer is the ceiling (internal/bare). Its requests carry headers of
// the size the local server's session needs, so the parsing is the same.
func barePeer(bin string) peer {
	return peer{
		name: bareName,
		start: func(b *testing.B, addr, dir string) func() {
			return startProcess(b, dir, "http://"+addr+"/", bin, "--addr", addr)
		},
		session: func(b *testing.B, addr string) (string, []string) {
			return "/api/usr-" + randomHex(b, 16) + "/", []string{
				"Cookie: AuthSession=" + randomHex(b, 48) + "; XSRF-TOKEN=" + randomHex(b, 22),
				"X-XSRF-TOKEN: " + randomHex(b, 22)}
		},
	}
}

// pouchdbPeer is pouchdb-server (LevelDB, no fsync), in admin party.
func pouchdbPeer(bin string) peer {
	return peer{
		name: "pouchdb-server",
		start: func(b *testing.B, addr, dir string) func() {
			host, port, _ := net.SplitHostPort(addr)
			return startProcess(b, dir, "http://"+addr+"/", "node", bin,
				"--host", host, "--port", port, "--dir", dir, "--config", filepath.Join(dir, "config.json"), "--no-stdout-logs")
		},
		session: func(b *testing.B, addr string) (string, []string) {
			mustDo(b, "PUT", "http://"+addr+"/bench", "", nil, http.StatusCreated)
			return "/bench/", nil
		},
	}
}

// startProcess runs a server in dir, its output in dir/server.log, and
// waits until ready answers 200.
func startProcess(b *testing.B, dir, ready, name string, args ...string) func() {
	b.Helper()
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	stop := func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		logFile.Close()
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(ready)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return stop
			}
		}
		if time.Now().After(deadline) {
			stop()
			tail, _ := os.ReadFile(logFile.Name())
			b.Fatalf("%s did not answer %s within 60 s: %v\n%s", name, ready, err, tail[max(0, len(tail)-2000):])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func mustDo(b *testing.B, method, url, cookie string, body any, want int) *http.Response {
	b.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	out, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != want {
		b.Fatalf("%s %s: %d %s", method, url, res.StatusCode, out)
	}
	return res
}

func freeAddr(b *testing.B) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func randomHex(b *testing.B, n int) string {
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		b.Fatal(err)
	}
	return hex.EncodeToString(buf)
}
