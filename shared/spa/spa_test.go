package spa

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
