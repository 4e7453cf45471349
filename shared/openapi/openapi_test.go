package openapi_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/openapi"
)

type inner struct {
	N int `json:"n"`
}

type sample struct {
	Name    string            `json:"name"`
	Skipped string            `json:"-"`
	Maybe   *int64            `json:"maybe,omitempty"`
	When    time.Time         `json:"when"`
	Raw     json.RawMessage   `json:"raw"`
	Tags    []string          `json:"tags"`
	Counts  map[string]int    `json:"counts"`
	Quoted  int               `json:"quoted,string"`
	Untag   bool              // encoded under its Go name
	Items   []inner           `json:"items"`
	Any     any               `json:"any"`
	Extra   map[string]string `json:"extra,omitempty"`
	inner
}

func TestSchemaOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, `{}`},
		{"string", "x", `{"type":"string"}`},
		{"number", 1.5, `{"type":"number"}`},
		{"bytes", []byte("x"), `{"contentEncoding":"base64","type":"string"}`},
		{"map by its keys", map[string]any{"ok": true, "n": 2, "rows": []any{map[string]any{"id": "x"}}},
			`{"properties":{"n":{"type":"integer"},"ok":{"type":"boolean"},"rows":{"items":{"properties":{"id":{"type":"string"}},"type":"object"},"type":"array"}},"type":"object"}`},
		{"empty map by its value type", map[string]int64{}, `{"additionalProperties":{"type":"integer"},"type":"object"}`},
		{"struct by its json tags", sample{},
			`{"properties":{"Untag":{"type":"boolean"},"any":{},"counts":{"additionalProperties":{"type":"integer"},"type":"object"},` +
				`"extra":{"additionalProperties":{"type":"string"},"type":"object"},"items":{"items":{"properties":{"n":{"type":"integer"}},"type":"object"},"type":"array"},` +
				`"maybe":{"type":"integer"},"n":{"type":"integer"},"name":{"type":"string"},"quoted":{"type":"string"},"raw":{},` +
				`"tags":{"items":{"type":"string"},"type":"array"},"when":{"format":"date-time","type":"string"}},"type":"object"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(openapi.SchemaOf(tc.v))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestOperationKey(t *testing.T) {
	for pattern, want := range map[string]string{
		"GET /api/{db}/_links/export.html": "GET /api/{db}/_links/export.html",
		"GET /api/{$}":                     "GET /api/",
		"GET /api/files/{path...}":         "GET /api/files/{path}",
		"/api/x":                           "GET /api/x",
	} {
		if got := module.OperationKey(pattern); got != want {
			t.Errorf("OperationKey(%q) = %q, want %q", pattern, got, want)
		}
	}
}

func TestCurl(t *testing.T) {
	op := func(method, path string, a module.Access, d module.Doc) module.Operation {
		return module.Operation{Method: method, Path: path, Access: a, Klass: "Bookmark", Doc: &d}
	}
	for _, tc := range []struct {
		name string
		op   module.Operation
		want string
	}{
		{"get with a query and an id of the klass", op("GET", "/api/{db}/_x/{id}", module.AccessRead, module.Doc{Query: []module.Param{{Name: "q", Example: "a b"}, {Name: "unset"}}}),
			`curl "$OFICINA_URL/api/` + module.ExampleDB + `/_x/bkm-0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e?q=a+b" \` + "\n" + `  -H "Authorization: Bearer $OFICINA_TOKEN"`},
		{"public post with JSON (quotes escaped for the shell)", op("POST", "/api/_public/{token}", module.AccessPublic, module.Doc{Body: map[string]string{"note": "it's <b>"}}),
			`curl -X POST "$OFICINA_URL/api/_public/q7Xc2mB9vR4tL8wZ1kN6pH3sD5fJ0aYe" \` + "\n" + `  -H 'Content-Type: application/json' \` + "\n" + `  -d '{"note":"it'\''s <b>"}'`},
		{"a file up, a file down, a wildcard the doc names", op("PUT", "/api/{db}/_x/{part}", module.AccessWrite, module.Doc{
			Path: []module.Param{{Name: "part", Example: "p1"}}, Body: module.File{Type: "text/html", Name: "in.html"}, Answer: module.File{Type: "application/pdf", Name: "out.pdf"}}),
			`curl -X PUT "$OFICINA_URL/api/` + module.ExampleDB + `/_x/p1" \` + "\n" + `  -H "Authorization: Bearer $OFICINA_TOKEN" \` + "\n" +
				`  -H 'Content-Type: text/html' \` + "\n" + `  --data-binary @in.html \` + "\n" + `  -o out.pdf`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := openapi.Curl(tc.op); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestBuild: an operation's access, parameters, body and answer, and the
// public one's empty security; undocumented calls are left out.
func TestBuild(t *testing.T) {
	ops := []module.Operation{
		{Method: "POST", Path: "/api/{db}/_links/title", Module: "links", Access: module.AccessWrite,
			Doc: &module.Doc{Summary: "Reads a title", Query: []module.Param{{Name: "v", Required: true}}, Body: map[string]string{"url": "https://x"}, Answer: map[string]string{"title": "X"}}},
		{Method: "GET", Path: "/api/_public/{token}", Module: "servicedocs", Access: module.AccessPublic, Doc: &module.Doc{Summary: "A page", Status: 202}},
		{Method: "GET", Path: "/api/{db}/_undocumented", Module: "x"},
		{Method: "GET", Path: "/api/", Module: module.CoreModule, Access: module.AccessPublic, Doc: &module.Doc{Summary: "Hello"}},
	}
	raw, err := json.Marshal(openapi.Build(openapi.Info{Title: "T", Version: "1"}, "https://app.example", ops))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, want := range []string{
		`"openapi":"3.1.0"`, `"servers":[{"url":"https://app.example"}]`,
		`"tags":[{"name":"core","description":"the CouchDB document API, sessions, users and Groups"},{"name":"links"},{"name":"servicedocs"}]`,
		`"operationId":"postDbLinksTitle"`, `"x-oficina-access":"write"`, `"security":[{"token":[]},{"session":[]}]`,
		`{"name":"db","in":"path","description":"the database: a Group's acc-\u003c32 hex\u003e, or the caller's usr-\u003c32 hex\u003e","required":true,"schema":{"type":"string"},"example":"` + module.ExampleDB + `"}`,
		`{"name":"v","in":"query","required":true,"schema":{"type":"string"}}`,
		`"requestBody":{"required":true,"content":{"application/json":{"schema":{"properties":{"url":{"type":"string"}},"type":"object"},"example":{"url":"https://x"}}}}`,
		`"200":{"description":"OK","content":{"application/json":{"schema":{"properties":{"title":{"type":"string"}},"type":"object"},"example":{"title":"X"}}}}`,
		`"202":{"description":"Accepted"}`, `"security":[],"x-oficina-access":"public"`, `"x-oficina-core":true`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the document lacks %s", want)
		}
	}
	if strings.Contains(doc, "_undocumented") {
		t.Error("an undocumented call is in the document")
	}
}
