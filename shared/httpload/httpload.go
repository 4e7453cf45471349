// Package httpload is a closed-loop HTTP/1.1 load generator in the manner
// of wrk: a fixed number of keep-alive connections, each sending its next
// request as soon as the answer to the previous one has been read, for a
// fixed duration. It reports throughput, latency percentiles and the
// status codes seen.
//
// Requests are written as prebuilt bytes on a plain net.Conn and answers
// read with http.ReadResponse, so the generator spends a few microseconds
// per request — little next to the server on a shared 2-core machine, as
// wrk does — instead of net/http's client (two goroutines per connection
// and a hand-off per request).
package httpload

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Request builds the raw bytes of the next request of one connection (the
// conn-th, 0-based); seq counts that connection's requests from 0. It is
// called from that connection's goroutine only.
type Request func(conn, seq int) []byte

// Options is one run.
type Options struct {
	Addr        string        // host:port
	Connections int           // concurrent keep-alive connections (wrk -c)
	Duration    time.Duration // how long requests are sent (wrk -d)
	Request     Request
	// OK reports whether a status counts as a success (nil: 2xx and 304).
	OK func(status int) bool
}

// Result is what a run measured.
type Result struct {
	Requests int             // answered requests within Duration
	Failures int             // answers whose status OK refused
	Elapsed  time.Duration   // from the first request to the last answer
	Status   map[int]int     // answers per status code
	Latency  []time.Duration // sorted
}

// PerSecond is the answered requests per second.
func (r Result) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// Percentile returns the latency at p (0–1), or 0 without answers.
func (r Result) Percentile(p float64) time.Duration {
	if len(r.Latency) == 0 {
		return 0
	}
	return r.Latency[min(len(r.Latency)-1, int(float64(len(r.Latency))*p))]
}

// Run opens the connections and sends requests on them until Duration is
// over. A connection that breaks is an error: servers under test keep
// connections alive.
func Run(ctx context.Context, o Options) (Result, error) {
	if o.Connections <= 0 || o.Duration <= 0 || o.Request == nil {
		return Result{}, errors.New("httpload: connections, duration and request are required")
	}
	ok := o.OK
	if ok == nil {
		ok = func(s int) bool { return s/100 == 2 || s == http.StatusNotModified }
	}
	conns := make([]net.Conn, o.Connections)
	var d net.Dialer
	for i := range conns {
		c, err := d.DialContext(ctx, "tcp", o.Addr)
		if err != nil {
			for _, c := range conns[:i] {
				c.Close()
			}
			return Result{}, fmt.Errorf("httpload: dial %s: %w", o.Addr, err)
		}
		conns[i] = c
	}
	type connResult struct {
		status  map[int]int
		latency []time.Duration
		err     error
	}
	results := make([]connResult, len(conns))
	start := time.Now()
	deadline := start.Add(o.Duration)
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Close()
			res := connResult{status: map[int]int{}, latency: make([]time.Duration, 0, 1<<14)}
			rd := bufio.NewReaderSize(c, 16<<10)
			for seq := 0; ; seq++ {
				t0 := time.Now()
				if !t0.Before(deadline) || ctx.Err() != nil {
					break
				}
				status, err := roundTrip(c, rd, o.Request(i, seq))
				if err != nil {
					res.err = fmt.Errorf("httpload: connection %d, request %d: %w", i, seq, err)
					break
				}
				res.status[status]++
				res.latency = append(res.latency, time.Since(t0))
			}
			results[i] = res
		}()
	}
	wg.Wait()
	out := Result{Elapsed: time.Since(start), Status: map[int]int{}}
	var errs []error
	for _, r := range results {
		errs = append(errs, r.err)
		for s, n := range r.status {
			out.Status[s] += n
			out.Requests += n
			if !ok(s) {
				out.Failures += n
			}
		}
		out.Latency = append(out.Latency, r.latency...)
	}
	slices.Sort(out.Latency)
	return out, errors.Join(errs...)
}

// roundTrip writes one request and reads its whole answer.
func roundTrip(c net.Conn, rd *bufio.Reader, req []byte) (int, error) {
	if _, err := c.Write(req); err != nil {
		return 0, err
	}
	res, err := http.ReadResponse(rd, nil)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err != nil {
		return 0, err
	}
	if res.Close {
		return res.StatusCode, errors.New("the server closed the connection")
	}
	return res.StatusCode, nil
}

// Format builds the raw bytes of an HTTP/1.1 request with a body (nil for
// none); headers are "Name: value" lines without line ends.
func Format(method, host, path string, headers []string, body []byte) []byte {
	var b bytes.Buffer
	b.Grow(256 + len(body))
	b.WriteString(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n")
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if body != nil {
		b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}
