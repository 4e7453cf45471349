package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/oficina/oficina/shared/fault"
)

// Reasons of the refusals made before a request is routed.
const (
	MsgNotThroughSite = "Requests must come through the site's address"
	MsgCrossSite      = "Cross-site request refused: it must come from the site's own pages"
	MsgUncleanPath    = "Invalid path: it must not contain empty, '.' or '..' segments"
)

// checkRequestSource refuses, before anything else is read:
//   - behind CloudFront (Config.OriginSecret set), a request without the
//     secret: a direct call to the API Gateway endpoint would otherwise pick
//     its own client address and skip the edge;
//   - a path with an empty, "." or ".." segment, which net/http's mux would
//     answer with a redirect to another URL (another database's);
//   - a write sent by a browser from another site (login CSRF, and defence
//     in depth behind the XSRF token for cookie sessions).
func (s *Server) checkRequestSource(r *http.Request) error {
	if s.Limiter.Edge().Required() && !s.Limiter.Edge().Verified(r) {
		return fault.New(fault.Forbidden, MsgNotThroughSite)
	}
	if !cleanPath(r.URL.Path) {
		return fault.New(fault.BadRequest, MsgUncleanPath)
	}
	return s.checkOrigin(r)
}

// cleanPath reports whether path has no empty (but a trailing), "." or
// ".." segment.
func cleanPath(path string) bool {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, seg := range segs {
		if seg == "." || seg == ".." || (seg == "" && i < len(segs)-1) {
			return false
		}
	}
	return true
}

// checkOrigin refuses an unsafe request (or a live-updates handshake, which
// carries the cookies as a write does) that a browser sent from another
// site. Requests with a bearer token carry no ambient credentials and are
// not checked; clients that send neither Sec-Fetch-Site nor Origin are not
// browsers (or are too old to be attacked this way) and pass.
//
// Fetch metadata decides when present: "same-origin" and "none" (typed or
// bookmarked by the user) pass, "same-site" and "cross-site" do not.
// Otherwise the Origin must be the site's (Config.BaseURL) or the
// request's own host.
func (s *Server) checkOrigin(r *http.Request) error {
	if (!unsafeMethod(r.Method) && !liveHandshake(r)) || r.Header.Get("Authorization") != "" {
		return nil
	}
	switch strings.ToLower(r.Header.Get("Sec-Fetch-Site")) {
	case "same-origin", "none":
		return nil
	case "":
	default:
		return fault.New(fault.Forbidden, MsgCrossSite)
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	if s.siteOrigin != "" && strings.EqualFold(origin, s.siteOrigin) {
		return nil
	}
	if u, err := url.Parse(origin); err == nil && u.Host != "" && strings.EqualFold(u.Host, r.Host) {
		return nil
	}
	return fault.New(fault.Forbidden, MsgCrossSite)
}

// originOf returns "scheme://host" of a base URL, "" when it has none.
func originOf(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}
