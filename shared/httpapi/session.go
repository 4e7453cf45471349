package httpapi

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/fault"
)

// postSession logs in, CouchDB style.
//
//	POST /api/_session
//	{"name"|"username"|"email": "...", "password": "...", "remember": true}  (JSON or form-encoded)
//	200 {"ok":true, "name":"usr-…", "roles":["usr-…", "acc-…", "_admin"]}
//	    Set-Cookie: AuthSession (HttpOnly) and XSRF-TOKEN, both new
//	400 "Please fill in e-mail and password"
//	401 "Email or password is incorrect" / "…, one more attempt before your account is locked"
//	429 "Your account is locked, please try again later" / "Too many requests" (Retry-After)
func (s *Server) postSession(w http.ResponseWriter, r *http.Request) error {
	body, err := s.decodeJSONOrForm(w, r)
	if err != nil {
		return err
	}
	var name string
	for _, k := range []string{"name", "username", "email"} {
		v, err := stringField(body, k)
		if err != nil {
			return err
		}
		if v != "" {
			name = v
			break
		}
	}
	password, err := stringField(body, "password")
	if err != nil {
		return err
	}
	remember, err := boolField(body, "remember")
	if err != nil {
		return err
	}
	sess, err := s.users.Login(r.Context(), auth.LoginInput{Name: name, Password: password, Remember: remember, IP: s.clientIP(r)})
	if err != nil {
		return err
	}
	// The session the browser had, if any, ends: one login, one session.
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
		if err := s.users.Logout(r.Context(), c.Value); err != nil {
			s.log.WarnContext(r.Context(), "login: end previous session", "err", err)
		}
	}
	if err := s.setSessionCookies(w, r, sess); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "name": sess.UserID, "roles": nonNil(sess.Roles)})
	return nil
}

// getSession reports who is signed in.
//
//	GET /api/_session
//	200 {"ok":true,
//	     "userCtx":{"name":"usr-…","roles":[…],"locale":"en"|"pt-BR"},
//	     "info":{"authenticated":"cookie"|"token","authentication_handlers":["cookie","default"],"locale":…}}
//	401 when nobody is signed in (the SPA relies on it).
//
// A client without an XSRF-TOKEN cookie gets one, signed in or not.
func (s *Server) getSession(w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(XSRFCookie); err != nil || c.Value == "" {
		if err := s.setXSRFCookie(w, r, 0); err != nil {
			return err
		}
	}
	p := principalOf(r)
	if p == nil {
		return fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	via := "cookie"
	if p.Via == access.ViaToken {
		via = "token"
	}
	var deadline any // null once the address is confirmed
	if !p.ConfirmBy.IsZero() {
		deadline = p.ConfirmBy.UTC().Format(time.RFC3339)
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"ok":                    true,
		"confirmation_deadline": deadline,
		"confirmation_expired":  p.ConfirmExpired,
		"userCtx":               map[string]any{"name": p.Name, "roles": nonNil(p.Roles), "locale": p.Locale},
		"info": map[string]any{
			"authenticated":           via,
			"authentication_handlers": []string{"cookie", "default"},
			"locale":                  p.Locale,
		},
	})
	return nil
}

// deleteSession logs out: the session record is deleted server-side (the
// old cookie no longer works anywhere) and both cookies are expired.
//
//	DELETE /api/_session  →  200 {"ok":true}, also when not signed in
func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
		if err := s.users.Logout(r.Context(), c.Value); err != nil {
			return err
		}
	}
	secure := s.secureCookies(r)
	for _, name := range []string{SessionCookie, XSRFCookie} {
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, HttpOnly: name == SessionCookie, SameSite: http.SameSiteLaxMode, Secure: secure})
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
	return nil
}

// setSessionCookies sets AuthSession and a fresh XSRF-TOKEN. Only a
// remembered session outlives the browser (Max-Age); a plain one is a
// browser-session cookie, its record expiring server-side after the TTL.
func (s *Server) setSessionCookies(w http.ResponseWriter, r *http.Request, sess auth.Session) error {
	maxAge := 0
	if sess.Remember {
		maxAge = int(sess.TTL.Seconds())
	}
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookie, Value: sess.Secret, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(r),
	})
	return s.setXSRFCookie(w, r, maxAge)
}

// setXSRFCookie sets a new double-submit token. It is readable by the SPA
// (not HttpOnly), which echoes it in the X-XSRF-TOKEN header.
func (s *Server) setXSRFCookie(w http.ResponseWriter, r *http.Request, maxAge int) error {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Errorf("xsrf token: %w", err)
	}
	http.SetCookie(w, &http.Cookie{
		Name: XSRFCookie, Value: base64.RawURLEncoding.EncodeToString(b[:]), Path: "/", MaxAge: maxAge,
		SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(r),
	})
	return nil
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}
