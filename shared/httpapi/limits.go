package httpapi

import (
	"net/http"
	"time"

	"github.com/oficina/oficina/shared/ratelimit"
)

// Per-client-address limits of the routes anyone may call without signing
// in. The address is ratelimit.Edge.ClientAddress: the viewer's behind
// CloudFront. Module routes that are public (a ticket status page, an
// estimate approval link) are limited by the core from their declaration
// on the seam (module.Route.Limit, module.DefaultPublicLimit).
var (
	// Each registration costs an argon2 hash (19 MiB, tens of ms).
	registrationLimit = ratelimit.Limit{Name: "register", Max: 20, Per: time.Hour}
	// _find by anonymous callers (the public prices db).
	anonymousFindLimit = ratelimit.Limit{Name: "find", Max: 60, Per: time.Minute}
	// (Anonymous _changes?feed=longpoll is refused outright: changes.go.)
)

// limited wraps the handler of pattern with its per-address limit, if it has one.
func (s *Server) limited(pattern string, h handlerFunc) handlerFunc {
	var applies func(r *http.Request) bool
	var lim ratelimit.Limit
	switch pattern {
	case "POST /api/_users":
		lim, applies = registrationLimit, func(*http.Request) bool { return true }
	case "POST /api/{db}/_find":
		lim, applies = anonymousFindLimit, anonymous
	default:
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		if applies(r) {
			if err := s.Limiter.AllowRequest(r, lim); err != nil {
				return err
			}
		}
		return h(w, r)
	}
}

func anonymous(r *http.Request) bool { return principalOf(r) == nil }
