package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/openapi"
	"github.com/oficina/oficina/shared/schema"
)

// coreCall is one of the core's own calls in the API document.
type coreCall struct {
	Access module.Access
	Doc    module.Doc
}

// coreCalls documents the routes routes.go registers itself, by their
// module.OperationKey; TestCoreCallsDocumented fails when one is missing or
// names no route. The CouchDB calls are described briefly: CouchDB's own
// documentation and docs/api.md say the rest.
var coreCalls = map[string]coreCall{
	"GET /api/": {module.AccessPublic, module.Doc{Summary: "Greets CouchDB clients (server name and version)",
		Answer: map[string]any{"couchdb": "Welcome", "version": "3.3.3", "vendor": map[string]string{"name": "Oficina", "version": "dev"}}}},
	"GET /api/_labels": {module.AccessPublic, module.Doc{Summary: "What the modules declared for the timeline and History: each klass's and field's name in en and pt-BR, the internal fields, the system actors"}},
	"GET /api/_schema": {module.AccessPublic, module.Doc{Summary: "Each klass's field rules as every write route checks them (type, required, bounds, enum values, referenced klass, default) and the messages they refuse with: read-only, for clients that check before sending",
		Answer: schema.Serve([]schema.Klass{{Name: "Category", Fields: []schema.Field{
			{Name: "name", Type: schema.String, Required: true, Max: 100},
			{Name: "color", Type: schema.Color, Default: "#64748b"},
		}}})}},
	"GET /api/_live": {module.AccessPublic, module.Doc{Summary: "Live updates: a WebSocket (session cookie with ?xsrf=, or a bearer token); send {\"subscribe\": [db…]}, receive {db, seq, id, klass, deleted, rev} notices without bodies"}},
	"POST /api/_batch": {module.AccessPublic, module.Doc{Summary: "Several reads in one request (GET, or POST to _find and _all_docs; at most 20): each is served by its own route with this request's sign-in and answered with its own status; a read whose answer is not JSON comes back 406, those past 4 MB of answers 413",
		Body:   map[string]any{"requests": []any{map[string]any{"method": "GET", "path": "/api/acc-…/tik-…"}, map[string]any{"method": "POST", "path": "/api/acc-…/_find", "body": map[string]any{"selector": map[string]any{"klass": "Comment"}}}}},
		Answer: map[string]any{"responses": []any{map[string]any{"status": 200, "body": map[string]any{"_id": "tik-…"}}, map[string]any{"status": 200, "body": map[string]any{"docs": []any{}}}}}}},
	"GET /api/_openapi.json": {module.AccessPublic, module.Doc{Summary: "This document: every call, its access, parameters, bodies and answers (OpenAPI 3.1)"}},
	"GET /api/_session":      {module.AccessPublic, module.Doc{Summary: "Who is signed in (CouchDB's session answer, with the user's Groups)"}},
	"POST /api/_session": {module.AccessPublic, module.Doc{Summary: "Signs in with email and password; sets the session cookie",
		Body: map[string]any{"name": "ana@example.com", "password": "…"}}},
	"DELETE /api/_session":           {module.AccessPublic, module.Doc{Summary: "Signs out"}},
	"POST /api/_users":               {module.AccessPublic, module.Doc{Summary: "Registers a user and mails the confirmation link", Status: http.StatusCreated}},
	"POST /api/_users/_confirmation": {module.AccessPublic, module.Doc{Summary: "Mails a new confirmation link"}},
	"PUT /api/_users/_confirmation":  {module.AccessPublic, module.Doc{Summary: "Confirms the email with the link's token (in the body)"}},
	"POST /api/_users/_password":     {module.AccessPublic, module.Doc{Summary: "Mails a password reset link"}},
	"PUT /api/_users/_password":      {module.AccessPublic, module.Doc{Summary: "Sets a new password with the link's token (in the body)"}},
	"POST /api/accounts": {module.AccessSelf, module.Doc{Summary: "Creates a Group: its record, its database acc-<id> and the creator's membership",
		Body: map[string]any{"name": "Oficina da Ana"}, Status: http.StatusCreated}},
	"GET /api/{db}":                                     {module.AccessRead, module.Doc{Summary: "The database's information (doc_count, update_seq); GET /api/{db}/{docid} serves _users/{id} and accounts/{id} too"}},
	"PUT /api/{db}":                                     {module.AccessAdmin, module.Doc{Summary: "Answers CouchDB clients that create a database: Groups are made by POST /api/accounts"}},
	"POST /api/{db}":                                    {module.AccessWrite, module.Doc{Summary: "Creates a document (its klass's rules run; Prefer: return=representation adds the stored document)", Status: http.StatusCreated}},
	"GET /api/{db}/_security":                           {module.AccessRead, module.Doc{Summary: "The database's members and admins"}},
	"PUT /api/{db}/_security":                           {module.AccessAdmin, module.Doc{Summary: "Changes the database's members and admins"}},
	"POST /api/{db}/_bulk_docs":                         {module.AccessWrite, module.Doc{Summary: "Writes many documents, each through the same rules", Status: http.StatusCreated}},
	"GET /api/{db}/_all_docs":                           {module.AccessRead, module.Doc{Summary: "Lists documents by id, a page at a time (truncated: ask again after the last key)"}},
	"POST /api/{db}/_all_docs":                          {module.AccessRead, module.Doc{Summary: "Lists the documents of the given keys"}},
	"POST /api/{db}/_find":                              {module.AccessRead, module.Doc{Summary: "Finds documents with a Mango selector, sort, fields and bookmark"}},
	"GET /api/{db}/_changes":                            {module.AccessRead, module.Doc{Summary: "The changes feed (since, limit, include_docs, feed=longpoll)"}},
	"PUT /api/{db}/_design/{ddoc}":                      {module.AccessAdmin, module.Doc{Summary: "Refused: design documents are built in (the update handlers and views below)"}},
	"DELETE /api/{db}/_design/{ddoc}":                   {module.AccessAdmin, module.Doc{Summary: "Refused: design documents are built in"}},
	"GET /api/{db}/_design/{ddoc}/_view/{view}":         {module.AccessRead, module.Doc{Summary: "Serves a module's view (listed under its module)"}},
	"POST /api/{db}/_design/{ddoc}/_update/{fn}":        {module.AccessWrite, module.Doc{Summary: "Runs a module's update handler that takes no id (listed under its module)"}},
	"PUT /api/{db}/_design/{ddoc}/_update/{fn}/{docid}": {module.AccessWrite, module.Doc{Summary: "Runs a module's update handler on a document (listed under its module)"}},
	"GET /api/{db}/{docid}":                             {module.AccessRead, module.Doc{Summary: "Reads a document (ETag; If-None-Match; ?rev=, ?fields=)"}},
	"PUT /api/{db}/{docid}":                             {module.AccessWrite, module.Doc{Summary: "Creates or updates a document (revision in the body, ?rev= or If-Match; Prefer: return=representation adds the stored document)", Status: http.StatusCreated}},
	"DELETE /api/{db}/{docid}":                          {module.AccessWrite, module.Doc{Summary: "Deletes a document (?rev= or If-Match)"}},
}

// Operations lists every call the server answers, the core's (documented
// in coreCalls) and the modules' (the registry's), sorted by path and
// method. A call without a doc has a nil Doc.
func (s *Server) Operations() []module.Operation {
	ops := s.modules.Operations()
	registered := map[string]bool{}
	for _, op := range ops {
		registered[op.Key()] = true
	}
	for _, key := range s.patterns {
		if registered[key] {
			continue // a module's route
		}
		method, path, _ := strings.Cut(key, " ")
		op := module.Operation{Method: method, Path: path, Kind: module.KindRoute, Module: module.CoreModule}
		if c, ok := coreCalls[key]; ok {
			op.Access, op.Doc = c.Access, &c.Doc
		}
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(a, b module.Operation) int { return strings.Compare(a.Path+" "+a.Method, b.Path+" "+b.Method) })
	return ops
}

// apiDocument is the OpenAPI document, built on first use (the registry is
// read-only after wiring).
type apiDocument struct {
	once sync.Once
	body []byte
}

// openAPI answers GET /api/_openapi.json.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) error {
	s.apiDoc.once.Do(func() {
		d := openapi.Build(openapi.Info{
			Title:   "Oficina API",
			Version: s.cfg.Version,
			Description: "CouchDB's document API under /api, plus the calls the modules register on the seam. " +
				"Sign in with an API token (Authorization: Bearer oft_…) or the session cookie.",
		}, s.cfg.BaseURL, s.Operations())
		s.apiDoc.body, _ = json.Marshal(d) // plain maps, slices and strings: it cannot fail
	})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "max-age=300")
	_, _ = w.Write(s.apiDoc.body)
	return nil
}
