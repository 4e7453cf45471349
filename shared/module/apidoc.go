package module

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Doc describes one call for the API's OpenAPI document (GET
// /api/_openapi.json, built by shared/openapi) and docs/api-routes.md.
// Bodies and answers are example values: their Go types give the schema (a
// struct by its json tags, a map by its keys and values) and their JSON is
// the example, so a handler's own request and answer types document it.
type Doc struct {
	// Summary says in one line what the call does.
	Summary string
	// Notes adds what a caller must know beyond the summary (optional).
	Notes string
	// Query lists the query parameters.
	Query []Param
	// Path describes the path's other wildcards: {db} (the database) and
	// {id} or {docid} (an id of the call's Klass) need no entry.
	Path []Param
	// Body is an example request body: a JSON value, or a File.
	Body any
	// Answer is an example answer: a JSON value, or a File; nil when the
	// call answers nothing worth describing.
	Answer any
	// Status is the status of a successful answer (0 = 200).
	Status int
}

// Param is a query parameter of a call.
type Param struct {
	Name     string
	About    string
	Example  string // shown in the request example when set
	Required bool
}

// File is a body or an answer that is not JSON: a PDF, a bookmark file.
type File struct {
	Type  string // the media type, e.g. "application/pdf"
	About string
	Name  string // a file name for the request example ("bookmarks.html")
}

// Docs documents calls by operation, "METHOD /api/path":
//
//	"GET /api/{db}/_links/export.html"                        a route (its pattern)
//	"PUT /api/{db}/_design/status/_update/read/{docid}"       an update handler that takes an id
//	"POST /api/{db}/_design/token/_update/create"             one that does not
//	"GET /api/{db}/_design/reader/_view/feed"                 a view
type Docs map[string]Doc

// Documented is a module that documents its calls: Registry.Add collects
// its APIDocs. shared/app's TestAPIDocsMatchCalls fails when a registered
// call has no doc or a doc names no registered call.
type Documented interface {
	APIDocs() Docs
}

// Operation kinds.
const (
	KindRoute  = "route"
	KindUpdate = "update"
	KindView   = "view"
)

// Operation is one registered call as the API document shows it.
type Operation struct {
	Method string // "GET"
	Path   string // "/api/{db}/_links/export.html"
	Kind   string // KindRoute, KindUpdate or KindView
	Module string // the module that registered it; "core" for the registry's own
	Access Access
	// Klass is the klass of the ids the path's wildcards (other than {db})
	// take, when the call says.
	Klass string
	Doc   *Doc // nil when undocumented
}

// Key is the operation's key in Docs.
func (o Operation) Key() string { return o.Method + " " + o.Path }

// OperationKey turns a route pattern into its key in Docs: the method and
// the path with net/http's {$} and {name...} spelled as OpenAPI spells
// path parameters.
func OperationKey(pattern string) string {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		method, path = "GET", pattern
	}
	path = strings.TrimSuffix(path, "{$}")
	path = strings.ReplaceAll(path, "...}", "}")
	return method + " " + path
}

// CoreModule names what the core registers itself (the count-by-klass view).
const CoreModule = "core"

// Document adds docs to the registry's API document; a call documented
// twice panics (wiring-time error, like a route registered twice).
func (r *Registry) Document(docs Docs) {
	if r.apiDocs == nil {
		r.apiDocs = Docs{}
	}
	for k, d := range docs {
		if _, dup := r.apiDocs[k]; dup {
			panic("module: " + k + " documented twice")
		}
		r.apiDocs[k] = d
	}
}

// claim records name as the module of the calls that have none yet
// (Registry.Add calls it after each module's Register).
func (r *Registry) claim(name string) {
	if r.owner == nil {
		r.owner = map[string]string{}
	}
	for _, op := range r.operations() {
		if _, ok := r.owner[op.Key()]; !ok {
			r.owner[op.Key()] = name
		}
	}
}

// Operations lists every registered call, sorted by path and method, each
// with its module and its doc (nil when undocumented).
func (r *Registry) Operations() []Operation {
	ops := r.operations()
	for i := range ops {
		if m, ok := r.owner[ops[i].Key()]; ok {
			ops[i].Module = m
		}
		if d, ok := r.apiDocs[ops[i].Key()]; ok {
			ops[i].Doc = &d
		}
	}
	slices.SortFunc(ops, func(a, b Operation) int {
		return strings.Compare(a.Path+" "+a.Method, b.Path+" "+b.Method)
	})
	return ops
}

// StrayDocs lists the documented keys that name no registered call.
func (r *Registry) StrayDocs() []string {
	known := map[string]bool{}
	for _, op := range r.operations() {
		known[op.Key()] = true
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(r.apiDocs)) {
		if !known[k] {
			out = append(out, k)
		}
	}
	return out
}

func (r *Registry) operations() []Operation {
	var ops []Operation
	for _, rt := range r.routes {
		method, path, _ := strings.Cut(OperationKey(rt.Pattern), " ")
		ops = append(ops, Operation{Method: method, Path: path, Kind: KindRoute, Module: CoreModule, Access: rt.Access, Klass: rt.Klass})
	}
	for _, u := range r.updates {
		op := Operation{Method: "POST", Path: fmt.Sprintf("/api/{db}/_design/%s/_update/%s", u.DDoc, u.Fn), Kind: KindUpdate, Module: CoreModule, Access: u.Access, Klass: u.Klass}
		if u.WithID {
			op.Method, op.Path = "PUT", op.Path+"/{docid}"
		}
		ops = append(ops, op)
	}
	for _, v := range r.views {
		ops = append(ops, Operation{Method: "GET", Path: fmt.Sprintf("/api/{db}/_design/%s/_view/%s", v.DDoc, v.Name), Kind: KindView, Module: CoreModule, Access: AccessRead})
	}
	return ops
}

// countByKlassDoc documents the core's own view.
var countByKlassDoc = Docs{"GET /api/{db}/_design/count-by-klass/_view/all": {
	Summary: "Counts the Group's records per klass (kept exact by the change stream)",
	Query:   CounterViewParams,
	Answer:  map[string]any{"rows": []ViewRow{{Key: "Ticket", Value: 12}, {Key: "Customer", Value: 30}}},
}}

// CounterViewParams are the query parameters every counter view takes.
var CounterViewParams = []Param{
	{Name: "group_level", About: "0 (default): one row with the total; 1: a row per key", Example: "1"},
	{Name: "group", About: "true: as group_level=1"},
	{Name: "key", About: "only this key (JSON)"},
	{Name: "keys", About: "only these keys (a JSON array)"},
	{Name: "descending", About: "true: keys from last to first"},
	{Name: "skip", About: "rows to skip"},
	{Name: "limit", About: "at most this many rows"},
}

// UpdateAnswer is an update handler's example answer: {"ok", "id", "rev"}
// (UpdateResult's document) plus extra members.
func UpdateAnswer(id string, extra map[string]any) map[string]any {
	out := map[string]any{"ok": true, "id": id, "rev": "2-9f86d081884c7d659a2feaa0c55ad015"}
	maps.Copy(out, extra)
	return out
}

// ExampleDB is the Group database the examples use, and ExampleUserDB the
// caller's own.
const (
	ExampleDB     = "acc-5f2c9a4e8b7d41c3a0e6f1b2c3d4e5f6"
	ExampleUserDB = "usr-7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d"
)

// ExampleID is an example id of klass's prefix ("bkm" → "bkm-0b1c…").
func ExampleID(prefix string) string { return prefix + "-0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e" }
