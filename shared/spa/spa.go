// Package spa serves the built single-page app: real files as they are,
// every other path as index.html so client-side routes survive a reload.
// Without a build it serves a small page saying the API is up.
//
// The build leaves a brotli (.br) and a gzip (.gz) copy beside each text
// file (web/vite.config.ts). A request gets the copy its Accept-Encoding
// prefers, with Content-Encoding and Vary set; each copy has its own strong
// ETag (from its bytes), so conditional and range requests stay right.
package spa

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// encodings are the precompressed copies the build writes, best first.
var encodings = []struct{ name, ext string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// Handler serves dir (the Vite build output).
func Handler(dir string) http.Handler {
	s := &server{dir: dir, etags: map[string]etagEntry{}}
	index := filepath.Join(dir, "index.html")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		setSecurityHeaders(w.Header())
		if _, err := os.Stat(index); err != nil {
			placeholder(w)
			return
		}
		clean := path.Clean("/" + r.URL.Path)
		if clean != "/" {
			file := filepath.Join(dir, filepath.FromSlash(clean))
			if fi, err := os.Stat(file); err == nil && !fi.IsDir() {
				cacheControl := ""
				if strings.HasPrefix(clean, "/assets/") {
					// Vite fingerprints asset names, so they never change.
					cacheControl = "public, max-age=31536000, immutable"
				}
				s.serveFile(w, r, file, cacheControl)
				return
			}
			if path.Ext(clean) != "" && !strings.HasSuffix(clean, ".html") {
				http.NotFound(w, r)
				return
			}
		}
		// index.html for any client route (ServeFile would refuse paths
		// containing "..", which are merely routes here).
		s.serveFile(w, r, index, "no-cache")
	})
}

type server struct {
	dir   string
	mu    sync.Mutex
	etags map[string]etagEntry // by file path; recomputed when the file changes
}

type etagEntry struct {
	size    int64
	modTime time.Time
	etag    string
}

// serveFile sends file, or its precompressed copy the client prefers.
// http.ServeContent does the rest: HEAD, If-None-Match against the chosen
// copy's ETag, Range and If-Range over the bytes actually sent.
func (s *server) serveFile(w http.ResponseWriter, r *http.Request, file, cacheControl string) {
	h := w.Header()
	if cacheControl != "" {
		h.Set("Cache-Control", cacheControl)
	}
	served, encoding := file, ""
	var available []string
	for _, e := range encodings {
		if fi, err := os.Stat(file + e.ext); err == nil && fi.Mode().IsRegular() {
			available = append(available, e.name)
		}
	}
	if len(available) > 0 {
		// The answer depends on Accept-Encoding even when it is the plain file.
		h.Add("Vary", "Accept-Encoding")
		encoding = negotiate(r.Header.Get("Accept-Encoding"), available)
		for _, e := range encodings {
			if e.name == encoding {
				served = file + e.ext
			}
		}
	}
	f, err := os.Open(served)
	if err != nil {
		http.Error(w, "file unreadable", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.Error(w, "file unreadable", http.StatusInternalServerError)
		return
	}
	etag, err := s.etag(served, fi, f)
	if err != nil {
		http.Error(w, "file unreadable", http.StatusInternalServerError)
		return
	}
	h.Set("ETag", etag)
	if encoding != "" {
		// Set on the way out, not now: ServeContent leaves Content-Length out
		// when it sees a Content-Encoding (it expects a compressing writer).
		w = &encodedWriter{ResponseWriter: w, encoding: encoding}
	}
	// The original name gives the Content-Type (a .br copy is still JavaScript).
	http.ServeContent(w, r, filepath.Base(file), fi.ModTime(), f)
}

// encodedWriter adds Content-Encoding to an answer that carries the copy's
// bytes (200, 206), not to a 304 or an error.
type encodedWriter struct {
	http.ResponseWriter
	encoding    string
	wroteHeader bool
}

func (w *encodedWriter) WriteHeader(code int) {
	if !w.wroteHeader && (code == http.StatusOK || code == http.StatusPartialContent) {
		w.Header().Set("Content-Encoding", w.encoding)
	}
	w.wroteHeader = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *encodedWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *encodedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// etag is a strong validator from the file's bytes, kept until its size or
// modification time changes. The copies differ in bytes, so in ETag too.
func (s *server) etag(name string, fi os.FileInfo, f io.ReadSeeker) (string, error) {
	s.mu.Lock()
	e, ok := s.etags[name]
	s.mu.Unlock()
	if ok && e.size == fi.Size() && e.modTime.Equal(fi.ModTime()) {
		return e.etag, nil
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum.Sum(nil)[:18]) + `"`
	s.mu.Lock()
	s.etags[name] = etagEntry{size: fi.Size(), modTime: fi.ModTime(), etag: etag}
	s.mu.Unlock()
	return etag, nil
}

// negotiate picks, among the available content codings (in the server's
// order of preference), the one Accept-Encoding ranks highest; "" means the
// file as it is. A coding is acceptable when listed, or covered by "*",
// with q > 0 (RFC 9110 §12.5.3).
func negotiate(acceptEncoding string, available []string) string {
	weights := map[string]float64{}
	star := -1.0
	for _, part := range strings.Split(acceptEncoding, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				parsed, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || parsed < 0 || parsed > 1 {
					parsed = 0
				}
				q = parsed
			}
		}
		if name == "*" {
			star = q
		} else {
			weights[name] = q
		}
	}
	best, bestQ := "", 0.0
	for _, name := range available {
		q, listed := weights[name]
		if !listed {
			q = max(star, 0)
		}
		if q > bestQ {
			best, bestQ = name, q
		}
	}
	return best
}

func setSecurityHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	h.Set("X-Frame-Options", "DENY")
}

func placeholder(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write([]byte(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Oficina</title></head>
<body><h1>Oficina</h1><p>The API is up at <a href="/api/">/api/</a>. The web app has not been built yet.</p></body></html>
`))
}
