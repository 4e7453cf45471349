package app_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/testproc"
)

// TestSchemaServesEveryKlass: GET /api/_schema answers anyone the rules of
// every klass a module registered, every field with its type, as the write
// path checks them; the SPA's forms check from it (issue 26 item 4).
func TestSchemaServesEveryKlass(t *testing.T) {
	a := openApp(t)
	srv := httptest.NewServer(a.API)
	t.Cleanup(srv.Close)
	res, err := http.Get(srv.URL + "/api/_schema")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var got schema.Served
	if err := json.Unmarshal(body, &got); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/_schema: %d %v", res.StatusCode, err)
	}
	want := schema.Serve(a.Modules.Schemas())
	if len(a.Modules.Schemas()) == 0 {
		t.Fatal("no klass registered")
	}
	for _, k := range a.Modules.Schemas() {
		served := map[string]schema.FieldRules{}
		for _, f := range got.Klasses[k.Name] {
			served[f.Name] = f
		}
		for _, f := range k.Fields {
			s, ok := served[f.Name]
			switch {
			case !ok:
				t.Errorf("%s.%s is not served", k.Name, f.Name)
			case s.Type != f.Type.String() || s.Required != f.Required || s.Ref != f.Ref || len(s.Enum) != len(f.Enum):
				t.Errorf("%s.%s served as %+v, registered as %+v", k.Name, f.Name, s, f)
			}
		}
	}
	for _, name := range []string{"blank", "too_long", "min", "not_in_list"} {
		if got.Messages[name] == "" || got.Messages[name] != want.Messages[name] {
			t.Errorf("message %s = %q", name, got.Messages[name])
		}
	}
	// The SPA's tests check against this very answer (web/src/test/schema.json).
	root, err := testproc.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", " "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	path := filepath.Join(root, "web", "src", "test", "schema.json")
	if *update {
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if have, err := os.ReadFile(path); err != nil || !bytes.Equal(have, pretty.Bytes()) {
		t.Errorf("web/src/test/schema.json is not what GET /api/_schema serves (err %v); rewrite it with:\n\tgo test ./shared/app -run 'TestSchemaServesEveryKlass|TestAPIRoutesDoc' -update", err)
	}
}
