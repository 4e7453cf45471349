package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/store"
)

// AccountService is the Group domain behind /api/accounts (implemented by
// accounts.Service). Memberships, adjustments and token documents written
// through the document routes are checked by the rules it registers on the
// write path; its update handlers (accept, bookmark, tokens) are on the
// module seam.
type AccountService interface {
	CreateGroup(ctx context.Context, p *access.Principal, in accounts.NewGroup) (store.Doc, error)
	Account(ctx context.Context, p *access.Principal, id string) (store.Doc, map[string]any, error)
	UpdateAccount(ctx context.Context, p *access.Principal, id, rev string, in accounts.AccountUpdate) (store.Doc, error)
}

// accountRoutes registers the Group endpoints.
//
// GET and PUT /api/accounts/{id} cannot be mux patterns of their own (they
// would clash with /api/{db}/_security like /api/_users/{id} does), so
// getDoc and putDoc hand them to accountDoc first. Every other document
// route on the "accounts" db stays closed to all but server admins by its
// _security, and account records cannot be written through them at all.
func (s *Server) accountRoutes() {
	if s.groups == nil {
		return
	}
	s.handle("POST /api/accounts", s.createAccount)
}

// createAccount creates a Group (the spec shows no call for it; this is
// CouchDB's "POST /{db}" on the accounts db).
//
//	POST /api/accounts {"name", "parent-account-id" (optional: a sub-group of a corp Group)}
//	201 {"ok":true, "id":"acc-<32 hex>", "rev"}  Location: /api/accounts/{id}
//	    The creator can use db acc-<id> from the next request on (role acc-<id>).
//	403 "You can have only 1 free Group, please confirm email to unlock more"
//	    | "You can create or be member of up to 5 free Groups"
//	    | "Permission denied" (parent not a corp Group the caller administers)
//	422 {"fields":{"name":["can't be blank"]}}
func (s *Server) createAccount(w http.ResponseWriter, r *http.Request) error {
	p, err := requireUser(r)
	if err != nil {
		return err
	}
	var body map[string]any
	if err := s.decodeJSON(w, r, &body); err != nil {
		return err
	}
	if body == nil {
		return fault.New(fault.BadRequest, "the request body must be a JSON object")
	}
	name, err := stringField(body, "name")
	if err != nil {
		return err
	}
	parent, err := stringField(body, "parent-account-id")
	if err != nil {
		return err
	}
	d, err := s.groups.CreateGroup(r.Context(), p, accounts.NewGroup{Name: name, ParentID: parent})
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/accounts/"+d.ID)
	return writeDocResult(w, http.StatusCreated, d)
}

// accountDoc serves GET/HEAD and PUT /api/accounts/{id} for the generic
// document handlers; handled is false for any other request.
func (s *Server) accountDoc(w http.ResponseWriter, r *http.Request) (handled bool, err error) {
	if s.groups == nil || r.PathValue("db") != ids.AccountsDB {
		return false, nil
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return true, s.getAccount(w, r)
	case http.MethodPut:
		return true, s.putAccount(w, r)
	}
	return false, nil
}

// getAccount returns a Group's record to its members and server admins
// (others: 404, as if it did not exist). Members who are not admins do not
// see the payment details (billing_email, platform_*).
//
//	GET /api/accounts/{id}?fields=name,v7_plan   (_id and _rev always come)
//	200 {"_id","_rev","klass":"Account","name","billing_email","v7_plan","livemode",
//	     "admin_roles":[user ids],"created_by_id","parent-account-id"?, "created_at",…}
func (s *Server) getAccount(w http.ResponseWriter, r *http.Request) error {
	d, body, err := s.groups.Account(r.Context(), principalOf(r), r.PathValue("docid"))
	if err != nil {
		return err
	}
	body["_id"], body["_rev"] = d.ID, d.Rev
	var out any = body
	fields, err := fieldsParam(r)
	if err != nil {
		return err
	}
	if fields != nil {
		out = mango.Project(body, fields)
	}
	w.Header().Set("ETag", `"`+d.Rev+`"`)
	writeJSON(w, http.StatusOK, out)
	return nil
}

// putAccount edits a Group's name and billing e-mail (admins only). Absent
// fields stay; the name and billing-email adjustments follow.
//
//	PUT /api/accounts/{id}?rev=  {"name", "billing_email"}
//	201 {"ok":true, "id", "rev"}
//	403 "Permission denied" (members)   404 (anyone else)   409 stale rev
//	422 {"fields":{"name":["can't be blank"], "billing_email":["is invalid"]}}
func (s *Server) putAccount(w http.ResponseWriter, r *http.Request) error {
	p, err := requireUser(r)
	if err != nil {
		return err
	}
	var body map[string]json.RawMessage
	if err := s.decodeJSON(w, r, &body); err != nil {
		return err
	}
	var in accounts.AccountUpdate
	var bodyRev string
	for k, v := range body {
		var dst **string
		switch k {
		case "name":
			dst = &in.Name
		case "billing_email":
			dst = &in.BillingEmail
		case "_rev":
			if err := json.Unmarshal(v, &bodyRev); err != nil {
				return fault.New(fault.BadRequest, "_rev must be a string")
			}
			continue
		default:
			continue // the rest of the record is the server's; clients echo it back
		}
		var sv *string
		if err := json.Unmarshal(v, &sv); err != nil {
			return fault.Newf(fault.BadRequest, "field %q must be a string", k)
		}
		if sv == nil {
			sv = new(string)
		}
		*dst = sv
	}
	rev, err := requestRev(r, map[string]any{"_rev": bodyRev})
	if err != nil {
		return err
	}
	d, err := s.groups.UpdateAccount(r.Context(), p, r.PathValue("docid"), rev, in)
	if err != nil {
		return err
	}
	return writeDocResult(w, http.StatusCreated, d)
}
