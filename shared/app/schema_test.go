package app_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
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
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", " "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	webFixture(t, "schema.json", pretty.Bytes(), "what GET /api/_schema serves")
}

// webFixture keeps got in web/src/test/name for the SPA's tests: written
// with -update, else compared.
func webFixture(t *testing.T, name string, got []byte, what string) {
	t.Helper()
	root, err := testproc.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "web", "src", "test", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if have, err := os.ReadFile(path); err != nil || !bytes.Equal(have, got) {
		t.Errorf("web/src/test/%s is not %s (err %v); rewrite it with:\n\tgo test ./shared/app -run 'TestSchema|TestAPIRoutesDoc' -update", name, what, err)
	}
}

// probe is one value tried against one field, and the field errors the
// write path answers for it (only the field's own keys: "f", "f[i].g").
type probe struct {
	Klass string          `json:"klass"`
	Field string          `json:"field"`
	Value json.RawMessage `json:"value,omitempty"`
	// A long string is kept as Prefix followed by Repeat "x"s.
	Prefix string              `json:"prefix,omitempty"`
	Repeat int                 `json:"repeat,omitempty"`
	Errors map[string][]string `json:"errors"`
}

// probeValues are the values tried against a field of its served rules:
// blank, the bounds and one past them, and shapes the type refuses. A
// reference, member or currency is tried blank only: whether one exists or
// is a known code is the server's to say.
func probeValues(f schema.FieldRules) []any {
	vals := []any{"", nil, "   "}
	long := func(n int) string { return strings.Repeat("x", n) }
	switch f.Type {
	case "string", "text":
		vals = append(vals, "ok", long(f.Max), long(f.Max+1), "a\u0001b", "two\nlines")
	case "url":
		vals = append(vals, "https://example.com/a", "ftp://example.com", "not a web address", "https://"+long(f.Max))
	case "email":
		vals = append(vals, "ana@example.com", "nope", "ana@")
	case "int", "money":
		vals = append(vals, 0, 7, -1, 1.5, "abc", "12", true)
		if f.Min != nil {
			vals = append(vals, *f.Min, *f.Min-1)
		}
		if f.MaxValue != nil {
			vals = append(vals, *f.MaxValue, *f.MaxValue+1)
		}
	case "number":
		vals = append(vals, 1.5, "abc")
	case "bool":
		vals = append(vals, true, false, "yes")
	case "date":
		vals = append(vals, "2026-02-28", "2026-02-30", "28/02/2026")
	case "datetime":
		vals = append(vals, "2026-02-28T10:00:00Z", "yesterday")
	case "enum":
		vals = append(vals, "not-in-the-list")
		if len(f.Enum) > 0 {
			vals = append(vals, f.Enum[0])
		}
	case "color":
		vals = append(vals, "#AABBCC", "red", "#abc")
	case "tags":
		many := make([]any, f.Max+1)
		for i := range many {
			many[i] = fmt.Sprint("t", i)
		}
		vals = append(vals, []any{"a", "b"}, many)
	case "items":
		one := map[string]any{}
		for _, sf := range f.Items {
			if sf.Type == "string" || sf.Type == "text" {
				one[sf.Name] = "x"
			}
		}
		many := make([]any, f.Max+1)
		for i := range many {
			many[i] = one
		}
		vals = append(vals, []any{}, []any{map[string]any{}}, []any{one}, []any{map[string]any{"no_such_field": "x"}}, many)
	case "object":
		vals = append(vals, map[string]any{"a": 1}, "text")
	case "list":
		vals = append(vals, []any{1}, "text")
	}
	return vals
}

// TestSchemaProbes answers every probe value of every served field with the
// write path's own rule (the klass's every declaration) and keeps the
// answers in web/src/test/schema-probes.json: the SPA's form kit runs its
// checks on the same values and must answer the same (issue 26 item 4).
func TestSchemaProbes(t *testing.T) {
	a := openApp(t)
	klasses := a.Modules.Schemas()
	served := schema.Serve(klasses)
	var probes []probe
	for _, name := range slices.Sorted(maps.Keys(served.Klasses)) {
		for _, f := range served.Klasses[name] {
			if f.ReadOnly {
				continue
			}
			for _, v := range probeValues(f) {
				raw, err := json.Marshal(map[string]any{f.Name: v})
				if err != nil {
					t.Fatal(err)
				}
				var doc map[string]any
				dec := json.NewDecoder(bytes.NewReader(raw))
				dec.UseNumber()
				if err := dec.Decode(&doc); err != nil {
					t.Fatal(err)
				}
				errs := map[string][]string{}
				for _, k := range klasses {
					if k.Name != name {
						continue
					}
					err := k.Rule(nil)(t.Context(), &docs.Write{DB: "probe", Klass: name, New: doc})
					var fe *fault.Error
					if errors.As(err, &fe) {
						for key, msgs := range fe.Fields {
							if key == f.Name || strings.HasPrefix(key, f.Name+"[") {
								errs[key] = append(errs[key], msgs...)
							}
						}
					} else if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
				}
				p := probe{Klass: name, Field: f.Name, Errors: errs}
				if s, ok := v.(string); ok && len(s) > 64 {
					p.Prefix = strings.TrimRight(s, "x")
					p.Repeat = len(s) - len(p.Prefix)
				} else {
					p.Value, _ = json.Marshal(v)
				}
				probes = append(probes, p)
			}
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(probes); err != nil {
		t.Fatal(err)
	}
	webFixture(t, "schema-probes.json", out.Bytes(), "what the write path answers")
}
