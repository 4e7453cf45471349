package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/module"
)

// TestCoreCallsDocumented: every route routes.go registers has an entry in
// coreCalls, and every entry names a route (the modules' calls are checked
// with the whole product in shared/app's TestAPIDocsMatchCalls).
func TestCoreCallsDocumented(t *testing.T) {
	g := newGroupEnv(t, nil)
	for _, op := range g.srv.Operations() {
		if op.Module == module.CoreModule && op.Doc == nil {
			t.Errorf("core route %s has no entry in coreCalls (shared/httpapi/apidoc.go)", op.Key())
		}
	}
	for key := range coreCalls {
		if !slices.Contains(g.srv.patterns, key) {
			t.Errorf("coreCalls documents %s, which routes.go does not register", key)
		}
	}
}

// TestOpenAPIServed: anyone may read the document; it is OpenAPI 3.1 with
// the core's calls marked as such.
func TestOpenAPIServed(t *testing.T) {
	g := newGroupEnv(t, nil)
	rec := httptest.NewRecorder()
	g.srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/_openapi.json", nil))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s", rec.Code, rec.Header())
	}
	var d struct {
		OpenAPI string
		Paths   map[string]map[string]struct {
			Access string `json:"x-oficina-access"`
			Core   bool   `json:"x-oficina-core"`
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", d.OpenAPI)
	}
	for path, method := range map[string]string{"/api/{db}/_find": "post", "/api/_openapi.json": "get", "/api/{db}/_design/bookmark/_update/true/{docid}": "put"} {
		op, ok := d.Paths[path][method]
		if !ok {
			t.Errorf("%s %s missing", method, path)
		}
		if core := !slices.Contains([]string{"/api/{db}/_design/bookmark/_update/true/{docid}"}, path); op.Core != core {
			t.Errorf("%s %s core %v", method, path, op.Core)
		}
	}
}
