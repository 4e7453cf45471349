package httpapi

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ratelimit"
)

// Cookie and header names.
const (
	SessionCookie = "AuthSession"
	XSRFCookie    = "XSRF-TOKEN"
	XSRFHeader    = "X-XSRF-TOKEN"
)

// authenticate resolves the request's principal from a bearer token or the
// session cookie. A bearer token that is not valid is an error (the client
// chose it explicitly); an unknown cookie just means anonymous.
func (s *Server) authenticate(r *http.Request) (*access.Principal, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, token, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return nil, fault.New(fault.Unauthorized, "Authorization must be \"Bearer <token>\"")
		}
		p, err := s.auth.TokenPrincipal(r.Context(), strings.TrimSpace(token))
		if err != nil {
			return nil, err
		}
		if p == nil {
			return nil, fault.New(fault.Unauthorized, "Invalid or revoked token")
		}
		return p, nil
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	p, err := s.auth.SessionPrincipal(r.Context(), c.Value)
	if err != nil || p == nil {
		return nil, err
	}
	if (unsafeMethod(r.Method) || liveHandshake(r)) && !xsrfOK(r) {
		return nil, fault.New(fault.Forbidden, "Missing or invalid XSRF token")
	}
	return p, nil
}

func unsafeMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// xsrfOK checks the double-submit token: the header (on the live-updates
// handshake, else the query parameter) must equal the cookie.
func xsrfOK(r *http.Request) bool {
	c, err := r.Cookie(XSRFCookie)
	h := r.Header.Get(XSRFHeader)
	if h == "" && liveHandshake(r) {
		h = r.URL.Query().Get(LiveXSRFParam)
	}
	return err == nil && c.Value != "" && h != "" && subtle.ConstantTimeCompare([]byte(c.Value), []byte(h)) == 1
}

// requireUser returns the principal or a 401.
func requireUser(r *http.Request) (*access.Principal, error) {
	p := principalOf(r)
	if p == nil {
		return nil, fault.New(fault.Unauthorized, "You are not logged in.")
	}
	return p, nil
}

// secureCookies decides the Secure attribute: on unless the request is for
// localhost (plain-HTTP development), or as configured.
func (s *Server) secureCookies(r *http.Request) bool {
	switch s.cfg.CookieSecure {
	case "true":
		return true
	case "false":
		return false
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return false
	}
	return true
}

// clientIP is what login throttling counts per client: the one client
// address of a request (ratelimit.Edge.ClientAddress, the viewer's behind
// CloudFront), an IPv6 address by its /64 like every per-address limit.
func (s *Server) clientIP(r *http.Request) string {
	return ratelimit.AddressKey(s.Limiter.ClientAddress(r))
}
