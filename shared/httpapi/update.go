package httpapi

import (
	"net/http"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
)

// update answers CouchDB's update handlers, built in as Go code by the
// modules (DESIGN.md §3): POST /api/{db}/_design/{ddoc}/_update/{fn}
// without a document id and PUT /api/{db}/_design/{ddoc}/_update/{fn}/{docid}
// with one. The handler registered for (ddoc, fn) on the module seam says
// what access it needs; the core checks it here, then hands over the body
// (size-limited) and answers {"ok":true,"id","rev"} plus the handler's extra
// members. Every handler writes through the document write path, so the
// klass rules run as on any other route.
func (s *Server) update(w http.ResponseWriter, r *http.Request) error {
	db := r.PathValue("db")
	if !ids.ValidDBName(db) {
		return fault.Newf(fault.BadRequest, "invalid database name %q", truncate(db, 80))
	}
	p, err := requireUser(r)
	if err != nil {
		return err
	}
	u, ok := s.modules.UpdateHandler(r.PathValue("ddoc"), r.PathValue("fn"))
	if !ok || u.WithID != (r.Method == http.MethodPut) {
		return fault.New(fault.NotFound, "missing")
	}
	if op, check := accessOp(u.Access); check {
		if _, _, err := s.dbAccess(r, op); err != nil {
			return err
		}
	}
	body, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	if len(body) > 0 {
		if err := requireJSON(r); err != nil {
			return err
		}
	}
	res, err := u.Handle(r.Context(), module.UpdateCall{
		DB: db, DocID: r.PathValue("docid"), Principal: p, Body: body, Query: r.URL.Query(),
	})
	if err != nil {
		return err
	}
	status := res.Status
	if status == 0 {
		status = http.StatusOK
	}
	answer := map[string]any{"ok": true, "id": res.Doc.ID, "rev": res.Doc.Rev}
	for k, v := range res.Extra {
		answer[k] = v
	}
	if res.Doc.Rev != "" {
		w.Header().Set("ETag", `"`+res.Doc.Rev+`"`)
	}
	writeJSON(w, status, answer)
	return nil
}

// accessOp maps a handler's declared access to the database operation the
// core checks; false when the core checks none (the handler decides, or the
// route is public).
func accessOp(a module.Access) (access.Op, bool) {
	switch a {
	case module.AccessRead:
		return access.Read, true
	case module.AccessWrite:
		return access.Write, true
	case module.AccessAdmin:
		return access.Admin, true
	}
	return 0, false
}

// moduleRoute wraps a module's route with the checks the core owns: sign-in
// and the access its declaration names on the {db} of its path, and the
// body limit.
func (s *Server) moduleRoute(rt module.Route) handlerFunc {
	lim := rt.Limit
	if lim == nil && rt.Access == module.AccessPublic {
		l := module.DefaultPublicLimit
		lim = &l
	}
	if lim != nil && lim.Name == "" {
		l := *lim
		l.Name = "route " + rt.Pattern
		lim = &l
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		if lim != nil {
			if err := s.Limiter.AllowRequest(r, *lim); err != nil {
				return err
			}
		}
		if rt.Access != module.AccessPublic {
			if _, err := requireUser(r); err != nil {
				return err
			}
		}
		if op, check := accessOp(rt.Access); check && r.PathValue("db") != "" {
			if _, _, err := s.dbAccess(r, op); err != nil {
				return err
			}
		}
		limit := s.maxBody
		if rt.MaxBody > 0 {
			limit = rt.MaxBody
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		return rt.Handle(w, r)
	}
}
