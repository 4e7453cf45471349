package httpapi

import (
	"net/http"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
)

// update answers CouchDB's update handlers, built in as Go code (DESIGN.md
// §3): POST /api/{db}/_design/{ddoc}/_update/{fn} without a document id and
// PUT /api/{db}/_design/{ddoc}/_update/{fn}/{docid} with one. Each handler
// decides access itself through the accounts service (an invitee accepts
// in a Group db they cannot use yet).
//
//	PUT  /api/acc-<id>/_design/status/_update/accept/{membership_id}   → 200 {"ok","id","rev"}
//	     404 unless the signed-in user's login e-mail is the invitation's;
//	     403 "Please confirm your email first" | "You can create or be member of up to 5 free Groups"
//	PUT  /api/usr-<id>/_design/bookmark/_update/{true|false}/{membership_id} → 200 {"ok","id","rev"}
//	POST /api/usr-<id>/_design/token/_update/create {"description","permissions":"read"|"read-write","dbs"?:["acc-…"]}
//	     → 201 {"ok","id":"tok-…","rev","token":"oft_…"} (the secret, shown only here)
//	     403 with an API token (tokens cannot make tokens)
//	     422 {"fields":{"permissions":["can't be blank"|"not in allowed list"],"dbs":["is invalid"]}}
//	PUT  /api/usr-<id>/_design/token/_update/revoke/{tok id}            → 200 {"ok","id","rev"}
//
// The body of accept, bookmark and revoke is ignored ({} is what the SPA sends).
func (s *Server) update(w http.ResponseWriter, r *http.Request) error {
	db := r.PathValue("db")
	if !ids.ValidDBName(db) {
		return fault.Newf(fault.BadRequest, "invalid database name %q", truncate(db, 80))
	}
	p, err := requireUser(r)
	if err != nil {
		return err
	}
	if s.groups == nil {
		return fault.New(fault.NotFound, "missing")
	}
	ddoc, fn, docid := r.PathValue("ddoc"), r.PathValue("fn"), r.PathValue("docid")
	withID := r.Method == http.MethodPut
	ctx := r.Context()
	switch {
	case ddoc == "status" && fn == "accept" && withID:
		d, err := s.groups.Accept(ctx, p, db, docid)
		if err != nil {
			return err
		}
		return writeDocResult(w, http.StatusOK, d)
	case ddoc == "bookmark" && (fn == "true" || fn == "false") && withID:
		d, err := s.groups.Bookmark(ctx, p, db, docid, fn == "true")
		if err != nil {
			return err
		}
		return writeDocResult(w, http.StatusOK, d)
	case ddoc == "token" && fn == "create" && !withID:
		var body struct {
			Description string   `json:"description"`
			Permissions string   `json:"permissions"`
			DBs         []string `json:"dbs"`
		}
		if err := s.decodeJSON(w, r, &body); err != nil {
			return err
		}
		d, secret, err := s.groups.CreateToken(ctx, p, db, accounts.TokenInput{Description: body.Description, Permissions: body.Permissions, DBs: body.DBs})
		if err != nil {
			return err
		}
		w.Header().Set("ETag", `"`+d.Rev+`"`)
		writeJSON(w, http.StatusCreated, map[string]any{"ok": true, "id": d.ID, "rev": d.Rev, "token": secret})
		return nil
	case ddoc == "token" && fn == "revoke" && withID:
		d, err := s.groups.RevokeToken(ctx, p, db, docid)
		if err != nil {
			return err
		}
		return writeDocResult(w, http.StatusOK, d)
	}
	return fault.New(fault.NotFound, "missing")
}
