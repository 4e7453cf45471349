package httpapi

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/ratelimit"
)

// probe is a module that registers one of everything the API dispatches.
type probe struct{ d *docs.Service }

func (probe) Name() string { return "probe" }

func (m probe) Register(r *module.Registry) error {
	r.Update(module.Update{DDoc: "probe", Fn: "rename", WithID: true, Klass: "Customer",
		Handle: func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
			var in struct {
				Name string `json:"name"`
			}
			if err := c.Decode(&in); err != nil {
				return module.UpdateResult{}, err
			}
			cur, err := m.d.Store().Get(ctx, c.DB, c.DocID)
			if err != nil {
				return module.UpdateResult{}, err
			}
			body, _ := docs.Decode(cur.Body)
			body["name"] = in.Name
			d, err := m.d.Save(ctx, c.Principal, c.DB, c.DocID, cur.Rev, body)
			return module.UpdateResult{Doc: d, Extra: map[string]any{"renamed": true}}, err
		}})
	r.Update(module.Update{DDoc: "probe", Fn: "admin", Access: module.AccessAdmin,
		Handle: func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
			return module.UpdateResult{Status: http.StatusAccepted}, nil
		}})
	r.View(module.View{DDoc: "probe", Name: "echo", Serve: func(ctx context.Context, c module.ViewCall) (any, error) {
		return map[string]any{"rows": []module.ViewRow{{Key: c.Query.Get("key"), Value: c.DB}}}, nil
	}})
	r.Route(module.Route{Pattern: "GET /api/{db}/_probe/{id}", Access: module.AccessRead,
		Handle: func(w http.ResponseWriter, r *http.Request) error {
			if r.PathValue("id") == "boom" {
				return fault.New(fault.Conflict, "probe conflict")
			}
			writeJSON(w, http.StatusOK, map[string]any{"db": r.PathValue("db"), "user": module.Principal(r).UserID})
			return nil
		}})
	r.Route(module.Route{Pattern: "POST /api/_probe/public", Access: module.AccessPublic, MaxBody: 10,
		Handle: func(w http.ResponseWriter, r *http.Request) error {
			if _, err := io.ReadAll(r.Body); err != nil { // over MaxBody: the core answers 413
				return err
			}
			writeJSON(w, http.StatusOK, map[string]any{"anonymous": module.Principal(r) == nil})
			return nil
		}})
	return nil
}

// TestModuleSeam: the API dispatches update handlers, views and routes to
// what modules registered, with the access each declares checked by the
// core and errors written as the envelope.
func TestModuleSeam(t *testing.T) {
	e := newDocEnv(t, Config{})
	if err := e.reg.Add(probe{d: e.srv.docs}); err != nil {
		t.Fatal(err)
	}
	e.srv = New(Deps{Store: e.st, Docs: e.srv.docs, Auth: e.srv.auth, Modules: e.reg})
	db := e.groupDB
	r := e.do("alice", "POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "Ana"})
	e.expect(r, http.StatusCreated, "")
	cus := r.json(t)["id"].(string)

	// Update handler: write access checked, body decoded, write path used.
	r = e.do("alice", "PUT", "/api/"+db+"/_design/probe/_update/rename/"+cus, map[string]any{"name": "Bia"})
	e.expect(r, http.StatusOK, "")
	if m := r.json(t); m["renamed"] != true || m["id"] != cus || !strings.HasPrefix(m["rev"].(string), "2-") || r.Header.Get("ETag") == "" {
		t.Fatalf("update answer %v", m)
	}
	seq := e.updateSeq(db)
	for _, c := range []struct {
		user, method, path string
		body               any
		code               int
	}{
		{"bob", "PUT", "/api/" + db + "/_design/probe/_update/rename/" + cus, map[string]any{"name": "x"}, 403},
		{"alice-read", "PUT", "/api/" + db + "/_design/probe/_update/rename/" + cus, map[string]any{"name": "x"}, 403},
		{"", "PUT", "/api/" + db + "/_design/probe/_update/rename/" + cus, map[string]any{"name": "x"}, 401},
		{"alice", "PUT", "/api/" + db + "/_design/probe/_update/rename/" + cus, "{not json", 400},
		{"alice", "POST", "/api/" + db + "/_design/probe/_update/rename", map[string]any{}, 404}, // registered WithID
		{"alice", "PUT", "/api/" + db + "/_design/probe/_update/nope/" + cus, map[string]any{}, 404},
		{"alice", "PUT", "/api/" + db + "/_design/probe/_update/rename/" + ids.New("cus"), map[string]any{"name": "x"}, 404},
	} {
		e.expect(e.do(c.user, c.method, c.path, c.body), c.code, "")
	}
	if e.updateSeq(db) != seq {
		t.Fatal("a refused update handler call wrote")
	}
	// Admin access: alice administers the group db; a member who is not admin would get 403.
	e.expect(e.do("alice", "POST", "/api/"+db+"/_design/probe/_update/admin", nil), http.StatusAccepted, "")
	e.expect(e.do("bob", "POST", "/api/"+db+"/_design/probe/_update/admin", nil), http.StatusForbidden, "")

	// View.
	r = e.do("alice", "GET", "/api/"+db+"/_design/probe/_view/echo?key=k", nil)
	e.expect(r, http.StatusOK, "")
	if row := r.json(t)["rows"].([]any)[0].(map[string]any); row["key"] != "k" || row["value"] != db {
		t.Fatalf("view rows %v", r.json(t))
	}
	e.expect(e.do("bob", "GET", "/api/"+db+"/_design/probe/_view/echo", nil), http.StatusForbidden, "")
	e.expect(e.do("alice", "GET", "/api/"+db+"/_design/probe/_view/nope", nil), http.StatusNotFound, "missing_named_view")

	// Routes: db access from the {db} wildcard; errors as the envelope.
	r = e.do("alice-read", "GET", "/api/"+db+"/_probe/x", nil)
	e.expect(r, http.StatusOK, "")
	if m := r.json(t); m["db"] != db {
		t.Fatalf("route answer %v", m)
	}
	e.expect(e.do("bob", "GET", "/api/"+db+"/_probe/x", nil), http.StatusForbidden, "")
	e.expect(e.do("", "GET", "/api/"+db+"/_probe/x", nil), http.StatusUnauthorized, "")
	e.expect(e.do("alice", "GET", "/api/"+db+"/_probe/boom", nil), http.StatusConflict, "probe conflict")
	r = e.do("", "POST", "/api/_probe/public", "{}")
	e.expect(r, http.StatusOK, "")
	if m := r.json(t); m["anonymous"] != true {
		t.Fatalf("public route %v", m)
	}
	e.expect(e.do("", "POST", "/api/_probe/public", strings.Repeat("x", 100)), http.StatusRequestEntityTooLarge, "")
}

// TestRegistryRefusesAmbiguity: two handlers for one name, or a route
// that asks for db access without naming the db, fail at wiring time.
func TestRegistryRefusesAmbiguity(t *testing.T) {
	reg := module.NewRegistry(docs.New(nil, nil), nil)
	mustPanic := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Fatalf("%s did not panic", what)
			}
		}()
		f()
	}
	h := func(context.Context, module.UpdateCall) (module.UpdateResult, error) {
		return module.UpdateResult{}, nil
	}
	reg.Update(module.Update{DDoc: "a", Fn: "b", Handle: h})
	mustPanic("a second update handler", func() { reg.Update(module.Update{DDoc: "a", Fn: "b", Handle: h}) })
	mustPanic("the core's view again", func() {
		reg.View(module.View{DDoc: "count-by-klass", Name: "all", Serve: func(context.Context, module.ViewCall) (any, error) { return nil, nil }})
	})
	mustPanic("a route without {db}", func() {
		reg.Route(module.Route{Pattern: "GET /api/_x", Access: module.AccessRead, Handle: func(http.ResponseWriter, *http.Request) error { return nil }})
	})
	mustPanic("a job with a bad schedule", func() {
		reg.Job(module.Job{Name: "j", Schedule: "every day", Run: func(context.Context, module.JobEvent) error { return nil }})
	})
	if err := reg.Add(probe{}, probe{}); err == nil {
		t.Fatal("the same module twice was accepted")
	}
}

// TestPublicModuleRoutesAreRateLimited: a public route of a module is
// limited per client address by the core, from its declaration.
func TestPublicModuleRoutesAreRateLimited(t *testing.T) {
	e := newDocEnv(t, Config{})
	limit := ratelimit.Limit{Max: 3, Per: time.Minute}
	e.reg.Route(module.Route{Pattern: "GET /api/_probe/limited/{token}", Access: module.AccessPublic, Limit: &limit,
		Handle: func(w http.ResponseWriter, r *http.Request) error {
			writeJSON(w, http.StatusOK, map[string]any{"ok": true})
			return nil
		}})
	e.srv = New(Deps{Store: e.st, Docs: e.srv.docs, Auth: e.srv.auth, Modules: e.reg})
	for i := range 3 {
		e.expect(e.do("", "GET", fmt.Sprintf("/api/_probe/limited/t%d", i), nil), http.StatusOK, "")
	}
	r := e.do("", "GET", "/api/_probe/limited/t9", nil)
	e.expect(r, http.StatusTooManyRequests, "")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
}
