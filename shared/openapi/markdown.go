package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/oficina/oficina/shared/module"
)

// Markdown writes ops as a reference page (docs/api-routes.md): the core's
// calls in one table, then per module each call with its access, query
// parameters, a request example (curl) and an example answer.
func Markdown(ops []module.Operation) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# API routes\n\n")
	p("<!-- Generated from the calls registered on the module seam by\n     go test ./shared/app -run TestAPIRoutesDoc -update\n     Do not edit by hand. -->\n\n")
	p("Every call below is also in the OpenAPI %s document the server serves at `GET /api/_openapi.json`.\n", Version)
	p("The examples read the server's address and an API token (made in the profile) from the shell:\n\n")
	p("```sh\nexport OFICINA_URL=https://oficina.example OFICINA_TOKEN=oft_…\n```\n\n")
	p("The core checks the access a call declares before the call runs:\n\n| access | who may call |\n|---|---|\n")
	for _, a := range []module.Access{module.AccessRead, module.AccessWrite, module.AccessAdmin, module.AccessSelf, module.AccessPublic} {
		p("| %s | %s |\n", accessWords[a].name, accessWords[a].about)
	}
	p("\nErrors are CouchDB's envelope, `{\"error\": name, \"reason\": text}`; a 422 adds `fields`, the messages per field.\n")

	byModule := map[string][]module.Operation{}
	for _, op := range ops {
		if op.Doc != nil {
			byModule[op.Module] = append(byModule[op.Module], op)
		}
	}
	modules := slices.DeleteFunc(slices.Sorted(maps.Keys(byModule)), func(m string) bool { return m == module.CoreModule })
	p("\n| module | calls |\n|---|---|\n| [core](#core) | %d |\n", len(byModule[module.CoreModule]))
	for _, m := range modules {
		p("| [%s](#%s) | %d |\n", m, m, len(byModule[m]))
	}

	p("\n## core\n\nThe CouchDB document API, sessions, users and Groups (see api.md):\n\n| call | access | what |\n|---|---|---|\n")
	for _, op := range byModule[module.CoreModule] {
		p("| `%s` | %s | %s |\n", op.Key(), accessWords[op.Access].name, strings.ReplaceAll(op.Doc.Summary, "|", `\|`))
	}
	for _, m := range modules {
		p("\n## %s\n", m)
		for _, op := range byModule[m] {
			writeOperation(&b, op)
		}
	}
	return b.String()
}

func writeOperation(b *strings.Builder, op module.Operation) {
	p := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	doc := op.Doc
	p("\n### `%s`\n\n%s.", op.Key(), strings.TrimSuffix(doc.Summary, "."))
	if doc.Notes != "" {
		p(" %s", doc.Notes)
	}
	p("\n\nAccess: **%s**", accessWords[op.Access].name)
	if op.Klass != "" {
		p(" · ids: %s", op.Klass)
	}
	p("\n")
	if len(doc.Query) > 0 {
		p("\n| query | |\n|---|---|\n")
		for _, q := range doc.Query {
			req := ""
			if q.Required {
				req = " (required)"
			}
			p("| `%s`%s | %s |\n", q.Name, req, strings.ReplaceAll(q.About, "|", `\|`))
		}
	}
	p("\n```sh\n%s\n```\n", Curl(op))
	status := doc.Status
	if status == 0 {
		status = http.StatusOK
	}
	switch a := doc.Answer.(type) {
	case nil:
		p("\nAnswer: `%d`.\n", status)
	case module.File:
		p("\nAnswer: `%d`, `%s`: %s.\n", status, a.Type, a.About)
	default:
		p("\nAnswer: `%d`\n\n```json\n%s\n```\n", status, indentJSON(ExampleJSON(a)))
	}
}

// Curl is the request example of op: its path with example wildcards and
// query, the token (unless public) and the body.
func Curl(op module.Operation) string {
	doc := op.Doc
	path := wildcard.ReplaceAllStringFunc(op.Path, func(w string) string {
		return pathParam(op, strings.Trim(w, "{}")).Example
	})
	var query []string
	for _, q := range doc.Query {
		if q.Example != "" {
			query = append(query, url.QueryEscape(q.Name)+"="+url.QueryEscape(q.Example))
		}
	}
	if len(query) > 0 {
		path += "?" + strings.Join(query, "&")
	}
	lines := []string{"curl"}
	if op.Method != http.MethodGet {
		lines[0] += " -X " + op.Method
	}
	lines[0] += ` "$OFICINA_URL` + path + `"`
	if op.Access != module.AccessPublic {
		lines = append(lines, `-H "Authorization: Bearer $OFICINA_TOKEN"`)
	}
	switch body := doc.Body.(type) {
	case nil:
	case module.File:
		lines = append(lines, "-H 'Content-Type: "+body.Type+"'", "--data-binary @"+body.Name)
	default:
		lines = append(lines, "-H 'Content-Type: application/json'", "-d '"+strings.ReplaceAll(string(ExampleJSON(body)), "'", `'\''`)+"'")
	}
	if f, ok := doc.Answer.(module.File); ok && f.Name != "" {
		lines = append(lines, "-o "+f.Name)
	}
	return strings.Join(lines, " \\\n  ")
}

func indentJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}
