package dav_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
)

// The WebDAV benchmarks (figures in docs/figures.md, "WebDAV"):
//
//	go test -run '^$' -bench . -benchtime 1x ./shared/dav/
//
// BenchmarkPropfind: PROPFIND Depth 1 on a folder of 1,000 files (target:
// p50 ≤ 20 ms). BenchmarkTransfer: a 200 MB upload and download over
// loopback, ours next to `rclone serve webdav` on a local folder (target:
// ours ≥ 1× rclone's throughput). BenchmarkUploadMemory: the server's heap
// in use during a 1 GB chunked upload (target: < 64 MB of growth).

// payload is a reader of n deterministic bytes that holds 1 MB, whatever n.
type payload struct {
	block []byte
	left  int64
	off   int
}

func newPayload(n int64) *payload {
	block := make([]byte, 1<<20)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range block {
		block[i] = byte(r.Uint32())
	}
	return &payload{block: block, left: n}
}

func (p *payload) Read(b []byte) (int, error) {
	if p.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(b)) > p.left {
		b = b[:p.left]
	}
	n := copy(b, p.block[p.off:])
	p.off = (p.off + n) % len(p.block)
	p.left -= int64(n)
	return n, nil
}

func BenchmarkPropfind(b *testing.B) {
	// The servers' garbage-collector settings (app.TuneGC).
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	e := apptest.New(b, apptest.Bolt, bigDrive)
	d := newEnv(b, e)
	d.expect(d.do("MKCOL", "many", nil), http.StatusCreated)
	for i := range 1000 {
		d.expect(d.do("PUT", fmt.Sprintf("many/file-%04d.txt", i), strings.NewReader(fmt.Sprintf("file %d", i))), http.StatusCreated)
	}
	e.Drain()
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		a := d.do("PROPFIND", "many/", nil, "Depth", "1")
		took = append(took, time.Since(start))
		if a.code != http.StatusMultiStatus || strings.Count(a.body, "<D:response>") != 1001 {
			b.Fatalf("PROPFIND: %d, %d responses", a.code, strings.Count(a.body, "<D:response>"))
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}

const transferBytes = 200_000_000

func transfer(b *testing.B, put, get func() *http.Request) {
	b.Run("upload", func(b *testing.B) {
		b.SetBytes(transferBytes)
		for b.Loop() {
			res, err := http.DefaultClient.Do(put())
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusNoContent {
				b.Fatalf("PUT: %d", res.StatusCode)
			}
		}
	})
	b.Run("download", func(b *testing.B) {
		b.SetBytes(transferBytes)
		for b.Loop() {
			res, err := http.DefaultClient.Do(get())
			if err != nil {
				b.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK || n != transferBytes {
				b.Fatalf("GET: %d, %d bytes", res.StatusCode, n)
			}
		}
	})
}

func BenchmarkTransfer(b *testing.B) {
	b.Run("oficina", func(b *testing.B) {
		e := apptest.New(b, apptest.Bolt, bigDrive)
		d := newEnv(b, e)
		transfer(b, func() *http.Request {
			req, _ := http.NewRequest("PUT", d.url("big.bin"), newPayload(transferBytes))
			req.ContentLength = transferBytes
			req.SetBasicAuth("ana@example.com", d.token)
			return req
		}, func() *http.Request {
			req, _ := http.NewRequest("GET", d.url("big.bin"), nil)
			req.SetBasicAuth("ana@example.com", d.token)
			return req
		})
	})
	b.Run("rclone", func(b *testing.B) {
		rclone, err := exec.LookPath("rclone")
		if err != nil {
			b.Skip("rclone is not installed (apt-get install rclone): only our half ran")
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		cmd := exec.Command(rclone, "serve", "webdav", b.TempDir(), "--addr", addr, "--config", os.DevNull)
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				break
			}
			if time.Now().After(deadline) {
				b.Fatal("rclone serve webdav did not come up")
			}
		}
		transfer(b, func() *http.Request {
			req, _ := http.NewRequest("PUT", "http://"+addr+"/big.bin", newPayload(transferBytes))
			req.ContentLength = transferBytes
			return req
		}, func() *http.Request {
			req, _ := http.NewRequest("GET", "http://"+addr+"/big.bin", nil)
			return req
		})
	})
}

// heapGrowth runs fn while sampling the heap in use, and returns the
// largest growth over the heap before it.
func heapGrowth(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > base && ms.HeapInuse-base > peak.Load() {
				peak.Store(ms.HeapInuse - base)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak.Load()
}

// MaxHeapGrowth is the bound on the heap's growth during an upload.
const MaxHeapGrowth = 64 << 20

func BenchmarkUploadMemory(b *testing.B) {
	const size = 1_000_000_000
	e := apptest.New(b, apptest.Bolt, bigDrive)
	d := newEnv(b, e)
	for b.Loop() {
		growth := heapGrowth(func() {
			req, _ := http.NewRequest("PUT", d.url("huge.bin"), chunked{newPayload(size)})
			req.SetBasicAuth("ana@example.com", d.token)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusCreated {
				b.Fatalf("PUT: %d", res.StatusCode)
			}
		})
		b.ReportMetric(float64(growth)/1e6, "heap-growth-MB")
		if growth > MaxHeapGrowth {
			b.Fatalf("the heap grew by %d MB during a 1 GB upload", growth>>20)
		}
	}
}
