// Package spa serves the built single-page app: real files as they are,
// every other path as index.html so client-side routes survive a reload.
// Without a build it serves a small page saying the API is up.
package spa

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Handler serves dir (the Vite build output).
func Handler(dir string) http.Handler {
	index := filepath.Join(dir, "index.html")
	files := http.FileServer(http.Dir(dir))
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
			if fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(clean))); err == nil && !fi.IsDir() {
				if strings.HasPrefix(clean, "/assets/") {
					// Vite fingerprints asset names, so they never change.
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				files.ServeHTTP(w, r)
				return
			}
			if path.Ext(clean) != "" && !strings.HasSuffix(clean, ".html") {
				http.NotFound(w, r)
				return
			}
		}
		serveIndex(w, r, index)
	})
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

// serveIndex sends index.html for any client route (ServeFile would refuse
// paths containing "..", which are merely routes here).
func serveIndex(w http.ResponseWriter, r *http.Request, index string) {
	f, err := os.Open(index)
	if err != nil {
		http.Error(w, "index.html missing", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.Error(w, "index.html unreadable", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "index.html", fi.ModTime(), f)
}
