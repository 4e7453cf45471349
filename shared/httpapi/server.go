// Package httpapi is the JSON API: a CouchDB-flavoured document API plus the
// session, user and product endpoints, served by one net/http mux under /api.
// The same handler runs in the local server and in the Lambda function.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/budget"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store"
)

// Authenticator turns credentials into a principal. It returns a nil
// principal and nil error when the credentials are unknown or expired, so
// the request proceeds anonymously (and is refused where sign-in is needed).
type Authenticator interface {
	SessionPrincipal(ctx context.Context, secret string) (*access.Principal, error)
	TokenPrincipal(ctx context.Context, token string) (*access.Principal, error)
}

// Config holds the API's settings.
type Config struct {
	// MaxBodyBytes bounds every request body (413 beyond it).
	MaxBodyBytes int64
	// CookieSecure: "auto" (Secure unless the request is for localhost or
	// 127.0.0.1), "true" or "false".
	CookieSecure string
	// Version is reported by GET /api/.
	Version string
	// LongpollMax caps _changes?feed=longpoll&timeout=. A request whose
	// context has a deadline (a Lambda invocation) is answered before it
	// in any case.
	LongpollMax time.Duration
	// BaseURL is the site's public URL; an unsafe request from a browser
	// must come from its origin (or the request's own host).
	BaseURL string
	// OriginSecret, when set, is what CloudFront sends in
	// ratelimit.OriginSecretHeader: requests without it are refused, and
	// with it the viewer address CloudFront reports is the client address.
	OriginSecret string
	// PageMaxRows and PageMaxBytes cap the rows of one _changes or
	// _all_docs answer (pages.go).
	PageMaxRows  int
	PageMaxBytes int
	// GroupBudget is how many requests one Group may make per minute to
	// this process (shared/budget); 0 = no budget.
	GroupBudget int
}

// ConfigOf takes the API's settings from the product's configuration;
// version is the build's (app.Version).
func ConfigOf(cfg config.Config, version string) Config {
	return Config{
		MaxBodyBytes: cfg.MaxBodyBytes,
		CookieSecure: cfg.CookieSecure,
		Version:      version,
		BaseURL:      cfg.BaseURL,
		OriginSecret: cfg.OriginSecret,
		LongpollMax:  cfg.LongpollMax,
		PageMaxRows:  cfg.PageMaxRows,
		PageMaxBytes: cfg.PageMaxBytes,
		GroupBudget:  cfg.GroupBudget,
	}
}

// Deps are the adapters and domain services the API is built from.
type Deps struct {
	Store store.Store
	// Docs is the document write path; nil builds one over Store.
	Docs  *docs.Service
	Auth  Authenticator
	Users UserService
	// Accounts serves Groups (accounts.go); nil leaves those routes out.
	Accounts AccountService
	// Modules holds what the modules registered on the seam: update
	// handlers, views and extra routes. nil serves the core alone.
	Modules *module.Registry
	Log     *slog.Logger
	Config  Config
	// Now is the clock of the rate limits (nil: time.Now).
	Now func() time.Time
	// Live serves the live-updates WebSocket (shared/live) once the core
	// has authenticated the handshake; nil answers 404.
	Live func(w http.ResponseWriter, r *http.Request) error
}

// Server is the API handler.
type Server struct {
	store   store.Store
	docs    *docs.Service
	auth    Authenticator
	users   UserService
	groups  AccountService
	modules *module.Registry
	log     *slog.Logger
	cfg     Config
	maxBody int64
	// siteOrigin is Config.BaseURL's "scheme://host", for checkOrigin.
	siteOrigin string
	mux        *http.ServeMux
	// security caches the databases' _security for dbAccess (nil on a
	// store shared by several processes: access.SecurityCache).
	security  *access.SecurityCache
	liveRoute func(w http.ResponseWriter, r *http.Request) error
	// Limiter counts requests per client address; handlers of public
	// routes use it (see limits.go), and it knows the client address.
	Limiter *ratelimit.Limiter
	// budget spends each Group's requests (routes with {db}).
	budget *budget.Budget
	// stopping is closed when the server begins shutting down.
	stopping     chan struct{}
	stoppingOnce sync.Once
	// patterns are the mux's patterns as module.OperationKey spells them,
	// and apiDoc the OpenAPI document built from them (apidoc.go).
	patterns []string
	apiDoc   apiDocument
}

// BeginShutdown makes waiting requests (long polls) answer at once.
func (s *Server) BeginShutdown() { s.stoppingOnce.Do(func() { close(s.stopping) }) }

// New builds the API. Every route lives under /api.
func New(d Deps) *Server {
	cfg := d.Config
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.CookieSecure == "" {
		cfg.CookieSecure = "auto"
	}
	if cfg.LongpollMax <= 0 {
		cfg.LongpollMax = 60 * time.Second
	}
	if cfg.PageMaxRows <= 0 {
		cfg.PageMaxRows = 1000
	}
	if cfg.PageMaxBytes <= 0 {
		cfg.PageMaxBytes = 4 << 20
	}
	log := d.Log
	if log == nil {
		log = slog.Default()
	}
	if d.Docs == nil {
		d.Docs = docs.New(d.Store, nil)
	}
	if d.Modules == nil {
		d.Modules = module.NewRegistry(d.Docs, nil)
	}
	s := &Server{store: d.Store, docs: d.Docs, auth: d.Auth, users: d.Users, groups: d.Accounts, modules: d.Modules, log: log, cfg: cfg, maxBody: cfg.MaxBodyBytes, mux: http.NewServeMux(), stopping: make(chan struct{}), liveRoute: d.Live}
	s.siteOrigin = originOf(cfg.BaseURL)
	s.security = access.NewSecurityCache(d.Store)
	s.Limiter = ratelimit.New(d.Store, ratelimit.Edge{OriginSecret: cfg.OriginSecret}, d.Now)
	s.budget = budget.New(cfg.GroupBudget, d.Now)
	s.routes() // GET patterns also answer HEAD
	return s
}

// handlerFunc is the one handler shape: errors are returned, not written.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle registers pattern with the error-writing wrapper and the route's
// per-address limit, if limits.go gives it one.
func (s *Server) handle(pattern string, h handlerFunc) {
	if strings.Contains(pattern, " ") { // the /api/ catch-all has no method and no doc
		s.patterns = append(s.patterns, module.OperationKey(pattern))
	}
	h = s.limited(pattern, h)
	if strings.Contains(pattern, "{db}") {
		h = s.budgeted(h)
	}
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeError(w, r, s.log, err)
		}
	})
}

// budgeted spends one request of the budget of the Group a route's {db}
// names, refusing it with 429 and Retry-After once the budget is spent.
func (s *Server) budgeted(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if db := r.PathValue("db"); isGroupDB(db) {
			if ok, wait := s.budget.Take(db); !ok {
				return &fault.Error{Kind: fault.TooManyRequests, Reason: ratelimit.MsgTooManyRequests, RetryAfter: budget.Seconds(wait)}
			}
		}
		return h(w, r)
	}
}

// isGroupDB reports a Group's database, acc-<id>.
func isGroupDB(db string) bool {
	p, ok := ids.Parse(db)
	return ok && p == "acc"
}

// ServeHTTP checks where the request comes from (the CloudFront origin
// secret, clean paths, the origin of browser writes), authenticates it,
// enforces XSRF for cookie sessions, recovers from panics and dispatches.
// Every answer, the modules' routes and the errors included, is marked
// nosniff here, once: a browser must never read a JSON answer (which may
// echo user text) as HTML or script.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	defer func() {
		if v := recover(); v != nil {
			s.log.ErrorContext(r.Context(), "panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			writeJSON(w, http.StatusInternalServerError, errorBody{Error: "unknown_error", Reason: "Undefined error"})
		}
	}()
	if err := s.checkRequestSource(r); err != nil {
		writeError(w, r, s.log, err)
		return
	}
	p, err := s.authenticate(r)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	if p != nil && p.ConfirmExpired && !reachableUnconfirmed(r.URL.Path) {
		writeError(w, r, s.log, fault.New(fault.Forbidden, MsgConfirmExpired))
		return
	}
	r = r.WithContext(access.WithPrincipal(r.Context(), p))
	s.mux.ServeHTTP(w, r)
}

// MsgConfirmExpired refuses a user whose days to confirm the login address
// are over (SPEC.md §9), on everything but the session, their user record
// and the confirmation: signing in still works and the SPA shows the
// confirm screen.
const MsgConfirmExpired = access.MsgConfirmExpired

// reachableUnconfirmed lists what a user past the confirmation deadline
// may still call.
func reachableUnconfirmed(path string) bool {
	switch {
	case path == "/api" || path == "/api/", path == "/api/_session",
		path == "/api/_users" || strings.HasPrefix(path, "/api/_users/"):
		return true
	}
	return false
}

// principalOf returns the request's principal, nil when anonymous.
func principalOf(r *http.Request) *access.Principal { return access.PrincipalFrom(r.Context()) }
