package httpapi

import (
	"net/http"

	"github.com/oficina/oficina/shared/fault"
)

// LivePath is the live-updates WebSocket (shared/live serves it). Browsers
// cannot set headers on a WebSocket, so a cookie session's handshake
// carries its XSRF token as the query parameter LiveXSRFParam; and since
// the handshake carries the cookies as a write does, its origin is checked
// as a write's is (checkOrigin).
const (
	LivePath      = "/api/_live"
	LiveXSRFParam = "xsrf"
)

// liveHandshake reports whether r opens the live-updates WebSocket.
func liveHandshake(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Path == LivePath
}

// live answers GET /api/_live for signed-in callers: the core has checked
// the origin, the XSRF token and the credentials; Deps.Live upgrades the
// connection (locally) or records it (API Gateway's $connect).
func (s *Server) live(w http.ResponseWriter, r *http.Request) error {
	if s.liveRoute == nil {
		return fault.New(fault.NotFound, "missing")
	}
	if _, err := requireUser(r); err != nil {
		return err
	}
	return s.liveRoute(w, r)
}
