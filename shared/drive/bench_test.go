package drive_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
)

// discard is a ResponseWriter that keeps the status and drops the body, so
// a benchmark times the server, not a recorder's buffer.
type discard struct {
	h    http.Header
	code int
	n    int64
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(p []byte) (int, error) { d.n += int64(len(p)); return len(p), nil }

// serve sends one request with a bearer token straight to the API.
func serve(e *apptest.Env, token, method, target string, body io.Reader) *discard {
	req := httptest.NewRequest(method, apptest.BaseURL+target, body)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/octet-stream")
	w := &discard{h: http.Header{}, code: http.StatusOK}
	e.App.API.ServeHTTP(w, req)
	return w
}

// BenchmarkContent streams a 64 MB file through the content routes on the
// embedded store with the filesystem blob store (fsync'd): upload (a new
// version each time, the oldest trimmed past three) and download, in MB/s.
//
//	go test -run '^$' -bench Content -benchtime 10x ./shared/drive/
func BenchmarkContent(b *testing.B) {
	const size = 64 << 20
	e := apptest.New(b, apptest.Bolt, func(c *config.Config) { c.DriveFreeLimit = 1_000_000_000_000 })
	d := newDrive(b, e)
	tok := e.Token(d.ana, "read-write", d.db)
	id := d.create("file", "big.bin", "")
	body := payload(1, size)
	path := d.api("/_drive/files/" + id + "/content")
	b.Run("upload", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if w := serve(e, tok, "PUT", path, bytes.NewReader(body)); w.code != http.StatusCreated {
				b.Fatalf("upload: %d", w.code)
			}
		}
	})
	b.Run("download", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if w := serve(e, tok, "GET", path, nil); w.code != http.StatusOK || w.n != size {
				b.Fatalf("download: %d, %d bytes", w.code, w.n)
			}
		}
	})
}

// BenchmarkList times the listing of a 1,000-file folder
// (GET /_drive/dirs/{id}, every entry in one answer) on each store; p50 in
// ms, and on DynamoDB Local the read capacity per listing.
//
//	go test -run '^$' -bench List -benchtime 50x ./shared/drive/
func BenchmarkList(b *testing.B) {
	for _, backend := range apptest.Backends {
		b.Run(string(backend), func(b *testing.B) {
			e := apptest.New(b, backend)
			d := newDrive(b, e)
			dir := d.mkdir("big", "")
			const files = 1000
			for start := 0; start < files; start += 250 {
				docs := make([]any, 0, 250)
				for i := start; i < start+250; i++ {
					docs = append(docs, map[string]any{"klass": "CloudFile", "kind": "file", "name": fmt.Sprintf("scan-%04d.pdf", i), "dir_id": dir,
						"description": "a scanned receipt"})
				}
				d.ana.Do("POST", "/api/"+d.db+"/_bulk_docs", map[string]any{"docs": docs}).Expect(b, http.StatusCreated)
			}
			r := d.ana.Do("GET", d.api("/_drive/dirs/"+dir), nil).Expect(b, http.StatusOK)
			if n := len(r["entries"].([]any)); n != files {
				b.Fatalf("the folder lists %d entries, want %d", n, files)
			}
			e.Measure(b, func() apptest.Response { return d.ana.Do("GET", d.api("/_drive/dirs/"+dir), nil) })
		})
	}
}
