package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mango"
)

// UserService is the identity domain behind /api/_session and /api/_users
// (implemented by auth.Service).
type UserService interface {
	Login(ctx context.Context, in auth.LoginInput) (auth.Session, error)
	Logout(ctx context.Context, secret string) error
	Register(ctx context.Context, in auth.Registration) (auth.User, error)
	User(ctx context.Context, p *access.Principal, id string) (auth.User, error)
	UpdateUser(ctx context.Context, p *access.Principal, in auth.UserUpdate) (auth.UpdateResult, error)
	RequestConfirmation(ctx context.Context, email string) error
	Confirm(ctx context.Context, p *access.Principal, token string) (auth.User, error)
	RequestPasswordReset(ctx context.Context, email string) error
	ResetPassword(ctx context.Context, in auth.PasswordReset) (auth.User, error)
}

// userRoutes registers the session and user endpoints.
//
// GET and PUT /api/_users/{id} are not registered here: net/http's mux
// refuses "GET /api/_users/{id}" beside "GET /api/{db}/_security" (both
// match /api/_users/_security and neither is more specific), so getDoc and
// putDoc must first hand _users requests to userDoc:
//
//	if ok, err := s.userDoc(w, r); ok {
//		return err
//	}
func (s *Server) userRoutes() {
	if s.users == nil {
		return // document-API-only servers (tests) have no identity service
	}
	s.handle("GET /api/_session", s.getSession)
	s.handle("POST /api/_session", s.postSession)
	s.handle("DELETE /api/_session", s.deleteSession)

	s.handle("POST /api/_users", s.register)
	// Links: POST asks for a mail, PUT redeems the token it carried. Tokens
	// travel in bodies, not paths, so access logs never hold a live one.
	s.handle("POST /api/_users/_confirmation", s.requestConfirmation)
	s.handle("PUT /api/_users/_confirmation", s.confirm)
	s.handle("POST /api/_users/_password", s.requestPasswordReset)
	s.handle("PUT /api/_users/_password", s.resetPassword)
}

// userDoc serves GET and PUT /api/_users/{docid} for the generic document
// handlers, which call it first: handled is false for any other request.
func (s *Server) userDoc(w http.ResponseWriter, r *http.Request) (handled bool, err error) {
	if s.users == nil || r.PathValue("db") != ids.UsersDB {
		return false, nil
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return true, s.getUser(w, r)
	case http.MethodPut:
		return true, s.putUser(w, r)
	}
	return false, nil
}

// userIDParam is the {id} of a user route, or the {docid} when reached
// through the generic document routes.
func userIDParam(r *http.Request) string {
	if id := r.PathValue("id"); id != "" {
		return id
	}
	return r.PathValue("docid")
}

// register creates a user (SPEC.md §7) and mails the confirmation link. It
// does not sign in; the SPA logs in next.
//
//	POST /api/_users
//	{"_id":"usr-<32 hex>" (optional), "fullname", "unconfirmed_email" (or "email"),
//	 "password", "password_confirmation" (optional), "locale":"en"|"pt-BR"}
//	201 {"ok":true, "id":"usr-…", "rev":"1-…"}
//	400 "invalid user id" | wrong JSON types | malformed JSON;  415 not JSON
//	409 duplicate _id | {"fields":{"email":["has already been taken"]}}
//	422 {"fields":{"email":["can't be blank"|"is invalid"], "password":["is too short (minimum is 8 characters)"],
//	               "password_confirmation":["doesn't match"], "locale":["not in allowed list"]}}
func (s *Server) register(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		ID                   string  `json:"_id"`
		Fullname             string  `json:"fullname"`
		UnconfirmedEmail     string  `json:"unconfirmed_email"`
		Email                string  `json:"email"`
		Password             string  `json:"password"`
		PasswordConfirmation *string `json:"password_confirmation"`
		Locale               string  `json:"locale"`
	}
	if err := s.decodeJSON(w, r, &body); err != nil {
		return err
	}
	email := body.UnconfirmedEmail
	if strings.TrimSpace(email) == "" {
		email = body.Email
	}
	u, err := s.users.Register(r.Context(), auth.Registration{
		ID: body.ID, Fullname: body.Fullname, Email: email,
		Password: body.Password, PasswordConfirmation: body.PasswordConfirmation, Locale: body.Locale,
	})
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/_users/"+u.ID)
	writeJSON(w, http.StatusCreated, map[string]any{"ok": true, "id": u.ID, "rev": u.Rev})
	return nil
}

// getUser returns a user document without any private field; only the user
// and server admins may read it (others get 404, anonymous 401).
//
//	GET /api/_users/{id}?fields=fullname,email   (fields: comma-joined; _id and _rev always come)
//	200 {"_id","_rev","klass":"User","fullname","label","short_name","email","unconfirmed_email",
//	     "confirmed_at","confirmation_sent_at","newsletter","locale","gravatar_hash","roles",
//	     "created_at","updated_at","created_by","updated_by"}
func (s *Server) getUser(w http.ResponseWriter, r *http.Request) error {
	u, err := s.users.User(r.Context(), principalOf(r), userIDParam(r))
	if err != nil {
		return err
	}
	var out any = u
	fields, err := fieldsParam(r)
	if err != nil {
		return err
	}
	if fields != nil {
		b, err := json.Marshal(u)
		if err != nil {
			return fmt.Errorf("encode user: %w", err)
		}
		var full map[string]any
		if err := json.Unmarshal(b, &full); err != nil {
			return fmt.Errorf("encode user: %w", err)
		}
		out = mango.Project(full, fields)
	}
	w.Header().Set("ETag", `"`+u.Rev+`"`)
	writeJSON(w, http.StatusOK, out)
	return nil
}

// putUser edits the caller's own user: profile and/or password (SPEC.md §7).
//
//	PUT /api/_users/{id}?rev=<rev>     (or "_rev" in the body, or If-Match)
//	profile:  {"fullname", "unconfirmed_email", "current_password", "return_url"}
//	password: {"password", "password_confirmation", "current_password"}
//	also:     {"locale", "newsletter"} (no current_password needed)
//	201 {"ok":true, "id", "rev"}; a password change also sets new AuthSession
//	    and XSRF-TOKEN cookies (every other session has ended)
//	409 stale or missing rev | new e-mail taken;  403 via API token
//	422 {"fields":{"current_password":["can't be blank"|"is invalid"],
//	               "password_confirmation":["doesn't match"], "unconfirmed_email":["is invalid"], …}}
//
// A new e-mail stays in unconfirmed_email, and a link goes to it, until confirmed.
func (s *Server) putUser(w http.ResponseWriter, r *http.Request) error {
	p, err := requireUser(r)
	if err != nil {
		return err
	}
	var body struct {
		ID                   *string `json:"_id"`
		Rev                  string  `json:"_rev"`
		Fullname             *string `json:"fullname"`
		UnconfirmedEmail     *string `json:"unconfirmed_email"`
		Email                *string `json:"email"`
		Locale               *string `json:"locale"`
		Newsletter           *bool   `json:"newsletter"`
		Password             *string `json:"password"`
		PasswordConfirmation *string `json:"password_confirmation"`
		CurrentPassword      string  `json:"current_password"`
		ReturnURL            string  `json:"return_url"` // accepted; links always lead to the SPA's routes
	}
	if err := s.decodeJSON(w, r, &body); err != nil {
		return err
	}
	id := userIDParam(r)
	if body.ID != nil && *body.ID != id {
		return fault.New(fault.BadRequest, "Document id must match the id in the URL")
	}
	rev, err := requestRev(r, map[string]any{"_rev": body.Rev})
	if err != nil {
		return err
	}
	res, err := s.users.UpdateUser(r.Context(), p, auth.UserUpdate{
		ID: id, Rev: rev,
		Fullname: body.Fullname, UnconfirmedEmail: body.UnconfirmedEmail, Email: body.Email,
		Locale: body.Locale, Newsletter: body.Newsletter,
		Password: body.Password, PasswordConfirmation: body.PasswordConfirmation,
		CurrentPassword: body.CurrentPassword,
	})
	if err != nil {
		return err
	}
	if res.Session != nil {
		if err := s.setSessionCookies(w, r, *res.Session); err != nil {
			return err
		}
	}
	w.Header().Set("ETag", `"`+res.User.Rev+`"`)
	writeJSON(w, http.StatusCreated, map[string]any{"ok": true, "id": res.User.ID, "rev": res.User.Rev})
	return nil
}

// emailBody is {"email": "..."}.
func (s *Server) emailBody(w http.ResponseWriter, r *http.Request) (string, error) {
	var body struct {
		Email string `json:"email"`
	}
	if err := s.decodeJSON(w, r, &body); err != nil {
		return "", err
	}
	return body.Email, nil
}

// requestConfirmation (re)sends the confirmation link (screen confirm#new).
// The answer never tells whether the address is registered.
//
//	POST /api/_users/_confirmation {"email"}  →  202 {"ok":true}
//	422 {"fields":{"email":["can't be blank"|"is invalid"]}}
func (s *Server) requestConfirmation(w http.ResponseWriter, r *http.Request) error {
	email, err := s.emailBody(w, r)
	if err != nil {
		return err
	}
	if err := s.users.RequestConfirmation(r.Context(), email); err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"ok": true})
	return nil
}

// confirm follows the link <BaseURL>/user/confirm/<token> (screen
// confirm#show): the SPA sends the token. The address is confirmed (a
// pending new address becomes the login address). A new address is only
// confirmed in the signed-in browser of the user who asked for it.
//
//	PUT /api/_users/_confirmation {"token"}
//	200 the user document, as GET /api/_users/{id}
//	401 "You are not logged in." (a new address, nobody signed in; the link stays valid)
//	403 "Sign in as the user who asked for this change to confirm it" (someone else, or an API token)
//	404 "Token already used or expired, please request a new one"
//	409 {"fields":{"email":["has already been taken"]}} when the new address was taken meanwhile
func (s *Server) confirm(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Token string `json:"token"`
	}
	if err := s.decodeJSON(w, r, &body); err != nil {
		return err
	}
	u, err := s.users.Confirm(r.Context(), principalOf(r), body.Token)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, u)
	return nil
}

// requestPasswordReset mails a reset link (screen password#new). The
// answer never tells whether the address is registered.
//
//	POST /api/_users/_password {"email"}  →  202 {"ok":true}
//	422 {"fields":{"email":["can't be blank"|"is invalid"]}}
func (s *Server) requestPasswordReset(w http.ResponseWriter, r *http.Request) error {
	email, err := s.emailBody(w, r)
	if err != nil {
		return err
	}
	if err := s.users.RequestPasswordReset(r.Context(), email); err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]any{"ok": true})
	return nil
}

// resetPassword sets a new password from the link
// <BaseURL>/user/password/<token> (screen password#show). The link proves
// the mailbox, so it also confirms the e-mail, ends every session, revokes
// every API token and drops a pending change of address; it does not sign in.
//
//	PUT /api/_users/_password {"token", "password", "password_confirmation"}
//	200 {"ok":true, "id", "rev"}
//	404 "Token already used or expired, please request a new one"
//	422 {"fields":{"password":["can't be blank"|"is too short …"], "password_confirmation":["doesn't match"]}}
//	    (checked before the token is used, so a typo does not burn the link)
func (s *Server) resetPassword(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Token                string  `json:"token"`
		Password             string  `json:"password"`
		PasswordConfirmation *string `json:"password_confirmation"`
	}
	if err := s.decodeJSON(w, r, &body); err != nil {
		return err
	}
	u, err := s.users.ResetPassword(r.Context(), auth.PasswordReset{
		Token: body.Token, Password: body.Password, PasswordConfirmation: body.PasswordConfirmation,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "id": u.ID, "rev": u.Rev})
	return nil
}
