// Package auth is identity: users in the _users database, argon2id
// passwords, cookie sessions, API-token verification, login throttling, and
// the e-mail confirmation and password-reset flows (DESIGN.md §6).
//
// Secrets never live in documents: password hashes and the token epoch sit
// in "credential" records, and sessions (in each user's "signin" record,
// signin.go) and one-time tokens are stored only as SHA-256 hashes, so no
// document endpoint can ever return them.
package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/store"
)

// Messages of the error catalogue (SPEC.md §8) that only auth raises.
const (
	MsgAccountLocked   = "Your account is locked, please try again later"
	MsgOneMoreAttempt  = "Email or password is incorrect, one more attempt before your account is locked"
	MsgTooManyRequests = "Too many requests"
	MsgInvalidUserID   = "invalid user id"
	MsgNotLoggedIn     = "You are not logged in."
	MsgEmailTaken      = "Email has already been taken"
	MsgMissing         = "missing"
)

// Record kinds this package owns.
const (
	kindCredential   = "credential"    // user id → credential
	kindEmail        = "email"         // lowercased login email → emailClaim (uniqueness)
	kindPendingEmail = "pending-email" // lowercased unconfirmed_email → user id (resend lookups)
	kindConfirm      = "confirm"       // sha256(token) → linkToken
	kindReset        = "reset"         // sha256(token) → linkToken
	kindLoginFail    = "login-fail"    // "email:<addr>" / "ip:<ip>" → Incr counter
	kindLoginLock    = "login-lock"    // same keys → lockRecord
	kindMailThrottle = "mail-throttle" // "<tag>:<addr>" → Incr counter

	// TokenRecordKind holds API tokens: sha256(token) → TokenRecord.
	TokenRecordKind = "token"
)

// Throttle bounds login guessing and mail sending.
type Throttle struct {
	AccountFailures int           // failed logins per account in AccountWindow that lock it
	AccountWindow   time.Duration //
	AccountLock     time.Duration // how long a locked account stays locked
	IPFailures      int           // failed logins per client IP in IPWindow that block it
	IPWindow        time.Duration //
	IPLock          time.Duration //
	MailsPerHour    int           // confirmation or reset mails per address per hour
}

// Config configures the Service. Zero values take the defaults.
type Config struct {
	// BaseURL is where the SPA lives; links in mails are BaseURL + SPA route.
	BaseURL string
	// ServerAdmins are e-mails whose (confirmed) users get the _admin role.
	ServerAdmins []string
	// SessionTTL is a plain session's life (24 h); RememberTTL a remembered one (30 days).
	SessionTTL  time.Duration
	RememberTTL time.Duration
	// LinkTTL is the validity of confirmation and reset links (24 h, SPEC.md §9).
	LinkTTL time.Duration
	// MinPasswordLen applies to new passwords (8).
	MinPasswordLen int
	Argon2         Argon2Params
	// HashConcurrency bounds the argon2 computations running at once (2).
	HashConcurrency int
	Throttle        Throttle
	// Now is the clock. Tests may advance it but must never set it before
	// the real time: stores expire records by their own clock.
	Now    func() time.Time
	Logger *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.SessionTTL <= 0 {
		c.SessionTTL = 24 * time.Hour
	}
	if c.RememberTTL <= 0 {
		c.RememberTTL = 30 * 24 * time.Hour
	}
	if c.LinkTTL <= 0 {
		c.LinkTTL = 24 * time.Hour
	}
	if c.MinPasswordLen <= 0 {
		c.MinPasswordLen = 8
	}
	if c.Argon2 == (Argon2Params{}) {
		c.Argon2 = DefaultArgon2()
	}
	if c.HashConcurrency <= 0 {
		c.HashConcurrency = 2
	}
	if c.Argon2.KeyLen == 0 {
		c.Argon2.KeyLen = 32
	}
	if c.Argon2.SaltLen == 0 {
		c.Argon2.SaltLen = 16
	}
	t := &c.Throttle
	if t.AccountFailures <= 0 {
		t.AccountFailures = 5
	}
	if t.AccountWindow <= 0 {
		t.AccountWindow = 15 * time.Minute
	}
	if t.AccountLock <= 0 {
		t.AccountLock = 15 * time.Minute
	}
	if t.IPFailures <= 0 {
		t.IPFailures = 20
	}
	if t.IPWindow <= 0 {
		t.IPWindow = 15 * time.Minute
	}
	if t.IPLock <= 0 {
		t.IPLock = 15 * time.Minute
	}
	if t.MailsPerHour <= 0 {
		t.MailsPerHour = 5
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	return c
}

// Service implements the API's Authenticator and UserService.
type Service struct {
	store  store.Store
	mail   mail.Sender
	tpl    *mail.Templates
	cfg    Config
	log    *slog.Logger
	admins map[string]bool
	hashes hashGate
	// sessions caches session principals; nil over a store shared by
	// several processes (sessioncache.go).
	sessions *sessionCache

	// dummyHash is verified against when the user is unknown, so that a
	// login for an unknown e-mail costs as much as one for a known one. It
	// is computed at the first such login, not at start: argon2 takes tens
	// of milliseconds, which a Lambda cold start should not pay.
	dummyOnce sync.Once
	dummyHash string

	dbsMu    sync.Mutex
	dbsReady bool

	hooksMu    sync.RWMutex
	emailHooks []EmailHook
	resetHooks []ResetHook
}

// New builds the service. It panics only on what cannot fail in a correct
// build: the embedded mail templates (covered by tests) and crypto/rand.
func New(st store.Store, sender mail.Sender, cfg Config) *Service {
	cfg = cfg.withDefaults()
	tpl, err := mail.LoadTemplates()
	if err != nil {
		panic(fmt.Sprintf("auth: %v", err))
	}
	admins := make(map[string]bool, len(cfg.ServerAdmins))
	for _, e := range cfg.ServerAdmins {
		if e = normEmail(e); e != "" {
			admins[e] = true
		}
	}
	return &Service{store: st, mail: sender, tpl: tpl, cfg: cfg, log: cfg.Logger, admins: admins, hashes: newHashGate(cfg.HashConcurrency),
		sessions: newSessionCache(st)}
}

func (s *Service) now() time.Time { return s.cfg.Now().UTC() }

// dummyPasswordHash returns the hash unknown-user logins are checked against.
func (s *Service) dummyPasswordHash() string {
	s.dummyOnce.Do(func() {
		h, err := hashPassword("not a password", s.cfg.Argon2)
		if err != nil {
			panic(fmt.Sprintf("auth: %v", err)) // crypto/rand failed
		}
		s.dummyHash = h
	})
	return s.dummyHash
}

// systemDBs are created at start with their _security: _users and accounts
// are closed to everyone but server admins (members = _admin keeps them from
// being "public" under access.Decide); prices is public to read.
func systemDBs() map[string]access.Security {
	adminOnly := access.Names{Roles: []string{access.ServerAdminRole}}
	return map[string]access.Security{
		ids.UsersDB:    {Admins: adminOnly, Members: adminOnly},
		ids.AccountsDB: {Admins: adminOnly, Members: adminOnly},
		ids.PricesDB:   {Admins: adminOnly},
	}
}

// EnsureSystemDBs creates _users, accounts and prices when missing. The
// server calls it at start; registration calls it too, so a fresh store works
// without it. An existing database keeps its _security.
func (s *Service) EnsureSystemDBs(ctx context.Context) error {
	s.dbsMu.Lock()
	defer s.dbsMu.Unlock()
	if s.dbsReady {
		return nil
	}
	// One read answers the common case (every start after the first), so a
	// Lambda cold start pays a single GetItem here.
	if _, err := s.store.GetRecord(ctx, systemKind, systemDBsReady); err == nil {
		s.dbsReady = true
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("auth: system dbs marker: %w", err)
	}
	for db, sec := range systemDBs() {
		if err := s.ensureDB(ctx, db, sec); err != nil {
			return err
		}
	}
	if err := s.store.PutRecord(ctx, store.Record{Kind: systemKind, Key: systemDBsReady, Value: []byte("1")}, false); err != nil {
		return fmt.Errorf("auth: system dbs marker: %w", err)
	}
	s.dbsReady = true
	return nil
}

// The record that says the system databases exist (bump the key when the
// set of system databases changes).
const (
	systemKind     = "system"
	systemDBsReady = "dbs-v1"
)

// ensureDB creates db with sec unless it exists.
func (s *Service) ensureDB(ctx context.Context, db string, sec access.Security) error {
	_, err := s.store.DBInfo(ctx, db)
	if err == nil {
		return nil
	}
	if !errors.Is(err, store.ErrDBNotFound) {
		return fmt.Errorf("auth: db %s: %w", db, err)
	}
	if err := access.CreateDB(ctx, s.store, db, sec); err != nil && !errors.Is(err, store.ErrDBExists) {
		return fmt.Errorf("auth: create %s: %w", db, err)
	}
	return nil
}

// ensurePersonalDB creates usr-<id> for a user. Registration creates it;
// login repeats the check so a registration that failed half-way heals.
func (s *Service) ensurePersonalDB(ctx context.Context, userID string) error {
	return s.ensureDB(ctx, userID, access.PersonalSecurity(userID))
}

// MsgConfirmAsRequester refuses a link to a new address followed by someone
// other than the user who asked for the change.
const MsgConfirmAsRequester = "Sign in as the user who asked for this change to confirm it"
