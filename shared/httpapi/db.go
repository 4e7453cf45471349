package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
)

// getRoot answers GET /api/ like CouchDB's welcome, with our vendor.
func (s *Server) getRoot(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]any{
		"couchdb":  "Welcome",
		"version":  "3.3.3",
		"features": []string{},
		"vendor":   map[string]string{"name": "Oficina", "version": s.cfg.Version},
	})
	return nil
}

// getLabels serves the modules' labels (module.Vocabulary): the names of
// klasses and fields in each language, the internal fields and the system
// actors, which the timeline and History use to speak in plain words. They
// change only with a deploy, so browsers may keep them a while.
func (s *Server) getLabels(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeJSON(w, http.StatusOK, s.modules.Vocabulary())
	return nil
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) error {
	return fault.New(fault.NotFound, "missing")
}

// dbAccess validates the db name in the path and decides op for the
// request's principal: the one gate every database route passes.
func (s *Server) dbAccess(r *http.Request, op access.Op) (string, *access.Principal, error) {
	db := r.PathValue("db")
	if !ids.ValidDBName(db) {
		return "", nil, fault.Newf(fault.BadRequest, "invalid database name %q", truncate(db, 80))
	}
	p := principalOf(r)
	if db == ids.UsersDB && !p.IsServerAdmin() {
		// User documents hold private fields; they are reached through /api/_users only.
		if p == nil {
			return "", nil, fault.New(fault.Unauthorized, "You are not logged in.")
		}
		return "", nil, fault.New(fault.Forbidden, access.MsgNotAllowed)
	}
	if err := s.security.Check(r.Context(), s.store, p, db, op); err != nil {
		return "", nil, err
	}
	return db, p, nil
}

// getDB answers GET /api/{db}.
func (s *Server) getDB(w http.ResponseWriter, r *http.Request) error {
	db, _, err := s.dbAccess(r, access.Read)
	if err != nil {
		return err
	}
	info, err := s.store.DBInfo(r.Context(), db)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"db_name":             info.Name,
		"doc_count":           info.DocCount,
		"doc_del_count":       info.DelCount,
		"update_seq":          info.UpdateSeq,
		"purge_seq":           0,
		"compact_running":     false,
		"disk_format_version": 8,
		"instance_start_time": "0",
		"sizes":               map[string]int{"active": 0, "external": 0, "file": 0},
		"props":               map[string]any{},
	})
	return nil
}

// putDB creates a database; only server admins may (Groups create theirs
// through their own endpoint).
func (s *Server) putDB(w http.ResponseWriter, r *http.Request) error {
	db := r.PathValue("db")
	p, err := requireUser(r)
	if err != nil {
		return err
	}
	if !p.IsServerAdmin() {
		return fault.New(fault.Forbidden, "You are not a server admin.")
	}
	sec := access.Security{Admins: access.Names{Roles: []string{access.ServerAdminRole}}, Members: access.Names{Roles: []string{access.ServerAdminRole}}}
	if err := access.CreateDB(r.Context(), s.store, db, sec); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, map[string]bool{"ok": true})
	return nil
}

func (s *Server) getSecurity(w http.ResponseWriter, r *http.Request) error {
	db, _, err := s.dbAccess(r, access.Read)
	if err != nil {
		return err
	}
	if _, err := s.store.DBInfo(r.Context(), db); err != nil {
		return err
	}
	// As access decides it: a Group's admin_roles and parent included.
	sec, err := access.Effective(r.Context(), s.store, db)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sec)
	return nil
}

// msgSecurityShape is the refusal of a _security body of the wrong shape.
const msgSecurityShape = `_security must be {"admins": {"names": [strings], "roles": [strings]}, "members": {"names": [strings], "roles": [strings]}}`

// putSecurity replaces a database's _security, CouchDB style, once the new
// document has the right shape and access.CheckSecurityChange accepts it.
//
//	PUT /api/{db}/_security {"admins": {"names": [], "roles": []}, "members": {"names": [], "roles": []}}
//	200 {"ok":true}
//	400 wrong shape | "members must name at least one user or role: …" | the owner, the Group's
//	    role or an admin left out (the reason says which)
func (s *Server) putSecurity(w http.ResponseWriter, r *http.Request) error {
	db, _, err := s.dbAccess(r, access.Admin)
	if err != nil {
		return err
	}
	if _, err := s.store.DBInfo(r.Context(), db); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := s.decodeJSON(w, r, &raw); err != nil {
		return err
	}
	var sec access.Security
	for k := range raw {
		if k != "admins" && k != "members" {
			return fault.Newf(fault.BadRequest, "unknown _security member %q", truncate(k, 40))
		}
	}
	for k, target := range map[string]*access.Names{"admins": &sec.Admins, "members": &sec.Members} {
		v, ok := raw[k]
		if !ok || string(v) == "null" {
			return fault.New(fault.BadRequest, msgSecurityShape)
		}
		if err := unmarshalStrict(v, target); err != nil || !target.ValidEntries() {
			return fault.New(fault.BadRequest, msgSecurityShape)
		}
	}
	old, err := access.LoadSecurity(r.Context(), s.store, db)
	if err != nil {
		return err
	}
	if err := access.CheckSecurityChange(db, old, sec); err != nil {
		return err
	}
	if err := access.SaveSecurity(r.Context(), s.store, db, sec); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
