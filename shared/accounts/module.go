package accounts

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// Name implements module.Module: the accounts package puts its update
// handlers on the seam like any module (its klass rules are on the write
// path from New, because Groups exist before any module).
func (s *Service) Name() string { return "accounts" }

// Register implements module.Module:
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
//	GET  /api/acc-<id>/_members → 200 {"people":[{user_id,name,email,admin,left}]} (people.go)
//	GET  /api/_public/invitations/{acc-…}/{mem-…}                        → 200 {"group","inviter","email"} of a pending invitation
//	     (the invitation mail's link carries both ids); 404 "Invitation not found"
//
// Each decides access itself (an invitee accepts in a Group db they cannot
// use yet). The body of accept, bookmark and revoke is ignored ({} is what
// the SPA sends).
func (s *Service) Register(r *module.Registry) error {
	s.RegisterWrites(r)
	r.Route(module.Route{Pattern: "GET /api/_public/invitations/{db}/{id}", Access: module.AccessPublic, Limit: &invitationPage, Handle: s.invitationPageHandler})
	doc := func(d store.Doc, err error) (module.UpdateResult, error) {
		return module.UpdateResult{Doc: d}, err
	}
	r.Update(module.Update{DDoc: "status", Fn: "accept", WithID: true, Access: module.AccessSelf, Klass: KlassMembership,
		Handle: func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
			return doc(s.Accept(ctx, c.Principal, c.DB, c.DocID))
		}})
	for _, on := range []bool{true, false} {
		r.Update(module.Update{DDoc: "bookmark", Fn: fmt.Sprint(on), WithID: true, Access: module.AccessSelf, Klass: KlassMembership,
			Handle: func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
				return doc(s.Bookmark(ctx, c.Principal, c.DB, c.DocID, on))
			}})
	}
	r.Update(module.Update{DDoc: "token", Fn: "create", Access: module.AccessSelf,
		Handle: func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
			var in TokenInput
			if err := c.Decode(&in); err != nil {
				return module.UpdateResult{}, err
			}
			d, secret, err := s.CreateToken(ctx, c.Principal, c.DB, in)
			return module.UpdateResult{Status: http.StatusCreated, Doc: d, Extra: map[string]any{"token": secret}}, err
		}})
	r.Update(module.Update{DDoc: "token", Fn: "revoke", WithID: true, Access: module.AccessSelf, Klass: KlassUserToken,
		Handle: func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
			return doc(s.RevokeToken(ctx, c.Principal, c.DB, c.DocID))
		}})
	r.Route(module.Route{Pattern: "GET /api/{db}/_members", Access: module.AccessRead, Handle: s.peopleRoute})
	return nil
}

// RegisterWrites implements module.WritePath: how people read the
// Groups' klasses (their rules are on the write path since New).
func (s *Service) RegisterWrites(r *module.Registry) {
	r.Labels(labels...)
}

// IsMember implements module.Groups: userID may use Group db (an accepted
// membership, or the parent Group's for a sub-group).
func (s *Service) IsMember(ctx context.Context, db, userID string) (bool, error) {
	u, ok, err := s.users.UserByID(ctx, userID)
	if err != nil || !ok {
		return false, err
	}
	sec, err := access.Effective(ctx, s.st, db)
	if err != nil {
		return false, err
	}
	p := &access.Principal{UserID: u.ID, Roles: u.Roles}
	return access.Decide(p, db, sec, access.Write) == nil, nil
}

// Setting implements module.Groups: the value of the Group's adjustment
// key (nil when unset). Default keys are found with one read.
func (s *Service) Setting(ctx context.Context, db, key string) (any, error) {
	_, body, err := s.get(ctx, db, adjustmentID(db, key))
	if err == nil {
		return body["value"], nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	q := store.ListQuery{Klass: KlassAdjustment, Limit: 200}
	for {
		page, err := s.st.List(ctx, db, q)
		if err != nil {
			return nil, fmt.Errorf("list adjustments of %s: %w", db, err)
		}
		for _, d := range page.Docs {
			b, err := docs.Decode(d.Body)
			if err != nil {
				return nil, fmt.Errorf("decode %s/%s: %w", db, d.ID, err)
			}
			if str(b["key"]) == key {
				return b["value"], nil
			}
		}
		if page.Next == "" {
			return nil, nil
		}
		q.After = page.Next
	}
}
