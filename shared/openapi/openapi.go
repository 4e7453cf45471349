// Package openapi builds the OpenAPI 3.1 document of the API (served at
// GET /api/_openapi.json) from the calls registered on the module seam and
// the core's own, each a module.Operation with its module.Doc, and writes
// the same calls as Markdown with a request example each
// (docs/api-routes.md, markdown.go).
//
// Schemas come from the docs' example values (schema.go): a handler's own
// request or answer type documents itself, a map by its keys.
package openapi

import (
	"bytes"
	"cmp"
	"encoding/json"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
)

// Version is the OpenAPI version of the document.
const Version = "3.1.0"

// Document is the subset of an OpenAPI 3.1 document the API needs.
type Document struct {
	OpenAPI    string              `json:"openapi"`
	Info       Info                `json:"info"`
	Servers    []Server            `json:"servers,omitempty"`
	Tags       []Tag               `json:"tags"`
	Paths      map[string]PathItem `json:"paths"`
	Components Components          `json:"components"`
}

// Info describes the API.
type Info struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
}

// Server is where the API is served (its paths start with /api).
type Server struct {
	URL string `json:"url"`
}

// Tag is a module: operations are tagged with the module that registered them.
type Tag struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// PathItem holds a path's operations by lower-case method.
type PathItem map[string]*Operation

// Operation is one call.
type Operation struct {
	Tags        []string            `json:"tags"`
	Summary     string              `json:"summary"`
	Description string              `json:"description,omitempty"`
	OperationID string              `json:"operationId"`
	Parameters  []Parameter         `json:"parameters,omitempty"`
	RequestBody *RequestBody        `json:"requestBody,omitempty"`
	Responses   map[string]Response `json:"responses"`
	// Security is empty for public calls, else a session or a token.
	Security []map[string][]string `json:"security"`
	// Access is what the core checks before the handler runs (module.Access).
	Access string `json:"x-oficina-access"`
	// Core marks the core's own calls (the CouchDB API, sessions, users).
	Core bool `json:"x-oficina-core,omitempty"`
}

// Parameter is a path or query parameter.
type Parameter struct {
	Name        string `json:"name"`
	In          string `json:"in"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
	Schema      Schema `json:"schema"`
	Example     string `json:"example,omitempty"`
}

// RequestBody is a call's body.
type RequestBody struct {
	Required bool                 `json:"required"`
	Content  map[string]MediaType `json:"content"`
}

// MediaType is a body of one media type.
type MediaType struct {
	Schema  Schema          `json:"schema"`
	Example json.RawMessage `json:"example,omitempty"`
}

// Response is one answer.
type Response struct {
	Description string               `json:"description"`
	Content     map[string]MediaType `json:"content,omitempty"`
}

// Components holds the shared error envelope and the security schemes.
type Components struct {
	Schemas         map[string]Schema         `json:"schemas"`
	SecuritySchemes map[string]SecurityScheme `json:"securitySchemes"`
}

// SecurityScheme is how a caller signs in.
type SecurityScheme struct {
	Type        string `json:"type"`
	Scheme      string `json:"scheme,omitempty"`
	In          string `json:"in,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// Access words, as the document and the Markdown show them.
var accessWords = map[module.Access]struct{ name, about string }{
	module.AccessRead:   {"read", "a member of the Group (or a token) with read access to {db}"},
	module.AccessWrite:  {"write", "a member of the Group (or a read-write token) with write access to {db}"},
	module.AccessAdmin:  {"admin", "an administrator of the Group {db}"},
	module.AccessSelf:   {"self", "anyone signed in; the call decides (the invitee, the token's owner)"},
	module.AccessPublic: {"public", "nobody signed in; rate-limited per client address"},
}

// AccessName is the word for a, as x-oficina-access says it.
func AccessName(a module.Access) string { return accessWords[a].name }

// Build makes the document of ops (from httpapi.Server.Operations). Calls
// without a doc are left out (shared/app's test fails on them).
func Build(info Info, serverURL string, ops []module.Operation) Document {
	d := Document{
		OpenAPI: Version, Info: info, Paths: map[string]PathItem{},
		Components: Components{
			Schemas: map[string]Schema{"Error": {
				"type": "object", "required": []string{"error", "reason"},
				"properties": map[string]Schema{
					"error":  {"type": "string", "description": "CouchDB's error name: bad_request, unauthorized, forbidden, not_found, conflict…"},
					"reason": {"type": "string", "description": "what went wrong, from the spec's error catalogue"},
					"fields": {"type": "object", "description": "422: messages per field", "additionalProperties": Schema{"type": "array", "items": Schema{"type": "string"}}},
				},
			}},
			SecuritySchemes: map[string]SecurityScheme{
				"token":   {Type: "http", Scheme: "bearer", Description: "an API token (oft_…), made in the profile; read or read-write, optionally bound to some Groups"},
				"session": {Type: "apiKey", In: "cookie", Name: "AuthSession", Description: "the SPA's session cookie (POST /api/_session); writes also send the XSRF-TOKEN cookie's value as X-XSRF-TOKEN"},
			},
		},
	}
	if serverURL != "" {
		d.Servers = []Server{{URL: serverURL}}
	}
	modules := map[string]bool{}
	for _, op := range ops {
		if op.Doc == nil {
			continue
		}
		modules[op.Module] = true
		item := d.Paths[op.Path]
		if item == nil {
			item = PathItem{}
			d.Paths[op.Path] = item
		}
		item[strings.ToLower(op.Method)] = operation(op)
	}
	for _, m := range slices.Sorted(maps.Keys(modules)) {
		t := Tag{Name: m}
		if m == module.CoreModule {
			t.Description = "the CouchDB document API, sessions, users and Groups"
		}
		d.Tags = append(d.Tags, t)
	}
	return d
}

func operation(op module.Operation) *Operation {
	doc := op.Doc
	o := &Operation{
		Tags: []string{op.Module}, Summary: doc.Summary, Description: doc.Notes,
		OperationID: OperationID(op), Access: AccessName(op.Access), Core: op.Module == module.CoreModule,
		Responses: map[string]Response{"default": {Description: "an error, in CouchDB's envelope", Content: map[string]MediaType{
			"application/json": {Schema: Schema{"$ref": "#/components/schemas/Error"}},
		}}},
		Security: []map[string][]string{{"token": {}}, {"session": {}}},
	}
	if op.Access == module.AccessPublic {
		o.Security = []map[string][]string{}
	}
	access := "Access: " + accessWords[op.Access].name + " — " + accessWords[op.Access].about + "."
	o.Description = strings.TrimSpace(doc.Notes + "\n\n" + access)
	for _, name := range PathParams(op.Path) {
		p := pathParam(op, name)
		o.Parameters = append(o.Parameters, Parameter{Name: name, In: "path", Required: true,
			Description: p.About, Schema: Schema{"type": "string"}, Example: p.Example})
	}
	for _, p := range doc.Query {
		o.Parameters = append(o.Parameters, Parameter{Name: p.Name, In: "query", Description: p.About, Required: p.Required,
			Schema: Schema{"type": "string"}, Example: p.Example})
	}
	if doc.Body != nil {
		o.RequestBody = &RequestBody{Required: true, Content: content(doc.Body)}
	}
	status := cmp.Or(doc.Status, http.StatusOK)
	answer := Response{Description: http.StatusText(status)}
	if doc.Answer != nil {
		answer.Content = content(doc.Answer)
	}
	o.Responses[strconv.Itoa(status)] = answer
	return o
}

// content is a body or answer by media type: a File's, or JSON with the
// example's schema.
func content(v any) map[string]MediaType {
	if f, ok := v.(module.File); ok {
		return map[string]MediaType{f.Type: {Schema: Schema{"description": f.About}}}
	}
	return map[string]MediaType{"application/json": {Schema: SchemaOf(v), Example: ExampleJSON(v)}}
}

// ExampleJSON is v as JSON (nil when it cannot be encoded: a doc's mistake
// the tests show, never a crash).
func ExampleJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // examples show HTML as people write it
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

var wildcard = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// PathParams are the wildcards of a path, in order.
func PathParams(path string) []string {
	var out []string
	for _, m := range wildcard.FindAllStringSubmatch(path, -1) {
		out = append(out, m[1])
	}
	return out
}

// pathParam describes a path wildcard of op: as its doc says, else the
// database, an id of the call's klass, a token.
func pathParam(op module.Operation, name string) module.Param {
	if op.Doc != nil {
		for _, p := range op.Doc.Path {
			if p.Name == name {
				return p
			}
		}
	}
	p := module.Param{Name: name, About: "the " + name, Example: name}
	switch {
	case name == "db":
		p.About, p.Example = "the database: a Group's acc-<32 hex>, or the caller's usr-<32 hex>", module.ExampleDB
	case name == "token":
		p.About, p.Example = "the secret token of a public page or mail link", "q7Xc2mB9vR4tL8wZ1kN6pH3sD5fJ0aYe"
	case op.Klass != "" && (name == "id" || name == "docid"):
		p.About = "the id of a " + op.Klass
		if prefix := ids.PrefixOf(op.Klass); prefix != "" {
			p.Example = module.ExampleID(prefix)
		}
	}
	return p
}

// OperationID names an operation uniquely: its method and path as words.
func OperationID(op module.Operation) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(op.Method))
	for _, part := range strings.FieldsFunc(op.Path, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) {
		if part == "api" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}
