package spa

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	return rec
}

func TestPlaceholderWithoutBuild(t *testing.T) {
	rec := get(t, Handler(t.TempDir()), "/")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "The API is up") {
		t.Fatalf("got %d %q", rec.Code, rec.Body.String())
	}
}

func TestServesFilesAndFallsBackToIndex(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<html>app</html>"), 0o644))
	must(t, os.MkdirAll(filepath.Join(dir, "assets"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "assets", "app-1234.js"), []byte("console.log(1)"), 0o644))
	h := Handler(dir)

	tests := []struct {
		path, want string
		code       int
	}{
		{"/", "app", 200},
		{"/account/acc-1/admin", "app", 200},           // client route
		{"/assets/app-1234.js", "console.log(1)", 200}, // asset
		{"/assets/missing.js", "", 404},                // missing asset is not the app
		{"/../../etc/passwd", "app", 200},              // cleaned, never escapes dir
	}
	for _, tt := range tests {
		rec := get(t, h, tt.path)
		if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.want) {
			t.Errorf("%s: got %d %q", tt.path, rec.Code, rec.Body.String())
		}
	}
	if cc := get(t, h, "/assets/app-1234.js").Header().Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Errorf("asset cache-control %q", cc)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestNegotiate(t *testing.T) {
	both := []string{"br", "gzip"}
	tests := []struct {
		accept    string
		available []string
		want      string
	}{
		{"gzip, deflate, br, zstd", both, "br"}, // Chromium
		{"gzip, deflate", both, "gzip"},
		{"", both, ""},
		{"identity", both, ""},
		{"BR", both, "br"},
		{"br;q=0, gzip", both, "gzip"},
		{"gzip;q=0.5, br;q=0.4", both, "gzip"},
		{"gzip; q=1.0, br ;q=0.9", both, "gzip"},
		{"*", both, "br"},
		{"*;q=0, gzip", both, "gzip"},
		{"*;q=0.3, br;q=0", both, "gzip"},
		{"br;q=nonsense", both, ""},
		{"br;q=2", both, ""},
		{"br", []string{"gzip"}, ""},
		{"gzip, br", []string{"gzip"}, "gzip"},
		{"gzip, br", nil, ""},
	}
	for _, tt := range tests {
		if got := negotiate(tt.accept, tt.available); got != tt.want {
			t.Errorf("negotiate(%q, %v) = %q, want %q", tt.accept, tt.available, got, tt.want)
		}
	}
}

// precompressedDir is a build with an asset and index.html each beside its
// .br and .gz copies (stand-in bytes: the server never decodes them), and an
// asset without copies.
func precompressedDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "assets"), 0o755))
	files := map[string]string{
		"index.html":               "<html>app</html>",
		"index.html.br":            "BR-index",
		"index.html.gz":            "GZ-index",
		"assets/app-1234.js":       "console.log('identity')",
		"assets/app-1234.js.br":    "BR-0123456789",
		"assets/app-1234.js.gz":    "GZ-0123456789abcdef",
		"assets/tiny-1234.js":      "1",
		"assets/style-1234.css":    "body{}",
		"assets/style-1234.css.br": "BR-css",
	}
	for name, body := range files {
		must(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(body), 0o644))
	}
	return dir
}

func request(t *testing.T, h http.Handler, method, target string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestServesThePrecompressedCopyAcceptEncodingPrefers(t *testing.T) {
	h := Handler(precompressedDir(t))
	tests := []struct {
		name, target, accept       string
		body, encoding, typePrefix string
		vary                       bool
	}{
		{"brotli first", "/assets/app-1234.js", "gzip, deflate, br, zstd", "BR-0123456789", "br", "text/javascript", true},
		{"gzip", "/assets/app-1234.js", "gzip", "GZ-0123456789abcdef", "gzip", "text/javascript", true},
		{"gzip ranked higher", "/assets/app-1234.js", "br;q=0.5, gzip", "GZ-0123456789abcdef", "gzip", "text/javascript", true},
		{"identity", "/assets/app-1234.js", "", "console.log('identity')", "", "text/javascript", true},
		{"only a .br copy", "/assets/style-1234.css", "gzip", "body{}", "", "text/css", true},
		{"no copies", "/assets/tiny-1234.js", "br, gzip", "1", "", "text/javascript", false},
		{"index.html", "/", "br", "BR-index", "br", "text/html", true},
		{"a client route", "/account/acc-1/admin", "gzip", "GZ-index", "gzip", "text/html", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := request(t, h, http.MethodGet, tt.target, map[string]string{"Accept-Encoding": tt.accept})
			if rec.Code != 200 || rec.Body.String() != tt.body {
				t.Fatalf("got %d %q, want 200 %q", rec.Code, rec.Body.String(), tt.body)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.encoding {
				t.Errorf("Content-Encoding %q, want %q", got, tt.encoding)
			}
			if got := rec.Header().Get("Content-Type"); !strings.HasPrefix(got, tt.typePrefix) {
				t.Errorf("Content-Type %q, want %s", got, tt.typePrefix)
			}
			if got := rec.Header().Get("Vary"); (got == "Accept-Encoding") != tt.vary {
				t.Errorf("Vary %q (want Accept-Encoding: %v)", got, tt.vary)
			}
			if got := rec.Header().Get("Content-Length"); got != strconv.Itoa(len(tt.body)) {
				t.Errorf("Content-Length %q, want %d", got, len(tt.body))
			}
			if !strings.HasPrefix(rec.Header().Get("ETag"), `"`) {
				t.Errorf("no strong ETag: %q", rec.Header().Get("ETag"))
			}
		})
	}
}

func TestETagsAndRangesFollowTheCopySent(t *testing.T) {
	dir := precompressedDir(t)
	h := Handler(dir)
	const asset = "/assets/app-1234.js"
	etag := func(accept string) string {
		return request(t, h, http.MethodGet, asset, map[string]string{"Accept-Encoding": accept}).Header().Get("ETag")
	}
	br, gz, plain := etag("br"), etag("gzip"), etag("")
	if br == gz || br == plain || gz == plain {
		t.Fatalf("each copy needs its own ETag: br %s, gzip %s, identity %s", br, gz, plain)
	}
	if etag("br") != br {
		t.Fatal("the ETag must be stable")
	}

	tests := []struct {
		name   string
		header map[string]string
		code   int
		body   string
		enc    string
	}{
		{"same copy revalidates", map[string]string{"Accept-Encoding": "br", "If-None-Match": br}, 304, "", ""},
		{"another copy's ETag does not match", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": br}, 200, "GZ-0123456789abcdef", "gzip"},
		{"a range of the brotli bytes", map[string]string{"Accept-Encoding": "br", "Range": "bytes=3-6"}, 206, "0123", "br"},
		{"a range of the plain file", map[string]string{"Range": "bytes=0-6"}, 206, "console", ""},
		{"If-Range with this copy's ETag", map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=0-1", "If-Range": gz}, 206, "GZ", "gzip"},
		{"If-Range with another copy's ETag sends it whole", map[string]string{"Accept-Encoding": "br", "Range": "bytes=0-1", "If-Range": plain}, 200, "BR-0123456789", "br"},
		{"an unsatisfiable range", map[string]string{"Accept-Encoding": "br", "Range": "bytes=500-"}, 416, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := request(t, h, http.MethodGet, asset, tt.header)
			if rec.Code != tt.code {
				t.Fatalf("got %d, want %d", rec.Code, tt.code)
			}
			if tt.code != 416 && rec.Body.String() != tt.body {
				t.Errorf("body %q, want %q", rec.Body.String(), tt.body)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.enc {
				t.Errorf("Content-Encoding %q, want %q", got, tt.enc)
			}
			if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
				t.Errorf("Vary %q", got)
			}
		})
	}

	t.Run("HEAD sends the headers of the chosen copy", func(t *testing.T) {
		rec := request(t, h, http.MethodHead, asset, map[string]string{"Accept-Encoding": "br"})
		if rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != "13" || rec.Header().Get("ETag") != br {
			t.Fatalf("got %d, %d bytes, headers %v", rec.Code, rec.Body.Len(), rec.Header())
		}
	})

	t.Run("a rebuilt file gets a new ETag", func(t *testing.T) {
		must(t, os.WriteFile(filepath.Join(dir, "assets", "app-1234.js.br"), []byte("BR-rebuilt-and-longer"), 0o644))
		if etag("br") == br {
			t.Fatal("the ETag did not change with the file")
		}
	})
}
