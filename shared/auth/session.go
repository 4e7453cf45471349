package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// Session is a signed-in browser session as the HTTP layer needs it.
type Session struct {
	// Secret is the AuthSession cookie value ("<user id>:<secret>"). Only
	// the secret's hash is stored (signin.go).
	Secret   string
	UserID   string
	Roles    []string
	Remember bool
	// TTL is the session's life; with Remember it is the cookie's Max-Age.
	TTL time.Duration
}

// LoginInput is a login attempt. Name is an e-mail (or a user id, for
// CouchDB clients that log in with userCtx.name).
type LoginInput struct {
	Name     string
	Password string
	Remember bool
	IP       string // client address, for per-IP throttling
}

// lockRecord is a login lock on an account or IP.
type lockRecord struct {
	Until time.Time `json:"until"`
}

// Login checks the credentials, throttled per account and per client IP,
// and opens a new session (a fresh id every time, so a fixed session id is
// never reused).
func (s *Service) Login(ctx context.Context, in LoginInput) (Session, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" || in.Password == "" {
		return Session{}, fault.New(fault.BadRequest, fault.MsgFillEmailPassword)
	}
	ipKey := ""
	if in.IP != "" {
		ipKey = "ip:" + in.IP
		if err := s.checkLock(ctx, ipKey, MsgTooManyRequests); err != nil {
			return Session{}, err
		}
	}
	u, found, err := s.findLoginUser(ctx, name)
	if err != nil {
		return Session{}, err
	}
	acctKey := "email:" + normEmail(name)
	if found {
		acctKey = "email:" + normEmail(u.Email)
	}
	if err := s.checkLock(ctx, acctKey, MsgAccountLocked); err != nil {
		return Session{}, err
	}

	var cred credential
	ok := false
	if found {
		if cred, err = s.loadCredential(ctx, u.ID); err != nil {
			return Session{}, err
		}
	}
	if found && cred.PasswordHash != "" {
		if ok, err = s.verify(ctx, in.Password, cred.PasswordHash); err != nil {
			return Session{}, fmt.Errorf("login %s: %w", u.ID, err)
		}
	} else if _, err := s.verify(ctx, in.Password, s.dummyPasswordHash()); err != nil { // same cost as a real check
		return Session{}, err
	}
	if !ok {
		return Session{}, s.loginFailed(ctx, acctKey, ipKey)
	}

	if err := s.store.DeleteRecord(ctx, kindLoginFail, acctKey); err != nil {
		return Session{}, fmt.Errorf("reset login throttle: %w", err)
	}
	if err := s.ensurePersonalDB(ctx, u.ID); err != nil {
		return Session{}, err
	}
	sess, err := s.newSession(ctx, u, in.Remember)
	if err != nil {
		return Session{}, err
	}
	sess.Roles = s.principal(u, access.ViaSession).Roles
	return sess, nil
}

// findLoginUser resolves an e-mail or a user id.
func (s *Service) findLoginUser(ctx context.Context, name string) (User, bool, error) {
	if isUserID(name) {
		u, err := s.loadUser(ctx, name)
		if errors.Is(err, errNoUser) {
			return User{}, false, nil
		}
		return u, err == nil, err
	}
	return s.userByEmail(ctx, normEmail(name))
}

// loginFailed counts a failure and says how it went: the account is locked
// at AccountFailures, the failure before says one attempt is left, and an IP
// over IPFailures is refused whatever account it tries.
func (s *Service) loginFailed(ctx context.Context, acctKey, ipKey string) error {
	t := s.cfg.Throttle
	n, err := s.countFailure(ctx, acctKey, t.AccountWindow)
	if err != nil {
		return err
	}
	var ipN int64
	if ipKey != "" {
		if ipN, err = s.countFailure(ctx, ipKey, t.IPWindow); err != nil {
			return err
		}
	}
	switch {
	case n >= int64(t.AccountFailures):
		if err := s.lock(ctx, acctKey, t.AccountLock); err != nil {
			return err
		}
		s.log.WarnContext(ctx, "account locked after failed logins", "key", acctKey)
		return &fault.Error{Kind: fault.TooManyRequests, Reason: MsgAccountLocked, RetryAfter: seconds(t.AccountLock)}
	case ipKey != "" && ipN >= int64(t.IPFailures):
		if err := s.lock(ctx, ipKey, t.IPLock); err != nil {
			return err
		}
		s.log.WarnContext(ctx, "client blocked after failed logins", "key", ipKey)
		return &fault.Error{Kind: fault.TooManyRequests, Reason: MsgTooManyRequests, RetryAfter: seconds(t.IPLock)}
	case n == int64(t.AccountFailures-1):
		return fault.New(fault.Unauthorized, MsgOneMoreAttempt)
	}
	return fault.New(fault.Unauthorized, fault.MsgBadCredentials)
}

// countFailure adds one to the fixed window of key. A window whose end the
// service clock has passed is dropped first (the store expires by its own clock).
func (s *Service) countFailure(ctx context.Context, key string, window time.Duration) (int64, error) {
	rec, err := s.store.GetRecord(ctx, kindLoginFail, key)
	if err == nil && !rec.ExpiresAt.IsZero() && !s.now().Before(rec.ExpiresAt) {
		if err := s.store.DeleteRecord(ctx, kindLoginFail, key); err != nil {
			return 0, fmt.Errorf("login throttle: %w", err)
		}
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		return 0, fmt.Errorf("login throttle: %w", err)
	}
	n, err := s.store.Incr(ctx, kindLoginFail, key, 1, window)
	if err != nil {
		return 0, fmt.Errorf("login throttle: %w", err)
	}
	return n, nil
}

func (s *Service) lock(ctx context.Context, key string, d time.Duration) error {
	until := s.now().Add(d)
	b, err := json.Marshal(lockRecord{Until: until})
	if err != nil {
		return fmt.Errorf("login lock: %w", err)
	}
	if err := s.store.PutRecord(ctx, store.Record{Kind: kindLoginLock, Key: key, Value: b, ExpiresAt: until}, false); err != nil {
		return fmt.Errorf("login lock: %w", err)
	}
	// The next window starts clean once the lock ends.
	if err := s.store.DeleteRecord(ctx, kindLoginFail, key); err != nil {
		return fmt.Errorf("login lock: %w", err)
	}
	return nil
}

// checkLock refuses with reason (429, Retry-After) while key is locked.
func (s *Service) checkLock(ctx context.Context, key, reason string) error {
	rec, err := s.store.GetRecord(ctx, kindLoginLock, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("login lock: %w", err)
	}
	var l lockRecord
	if err := json.Unmarshal(rec.Value, &l); err != nil {
		return fmt.Errorf("login lock: %w", err)
	}
	left := l.Until.Sub(s.now())
	if left <= 0 {
		return nil
	}
	return &fault.Error{Kind: fault.TooManyRequests, Reason: reason, RetryAfter: seconds(left)}
}

// unlock clears an account's throttle, e.g. after a password reset proved
// the user owns the mailbox.
func (s *Service) unlock(ctx context.Context, email string) error {
	key := "email:" + normEmail(email)
	if err := s.store.DeleteRecord(ctx, kindLoginLock, key); err != nil {
		return fmt.Errorf("unlock: %w", err)
	}
	if err := s.store.DeleteRecord(ctx, kindLoginFail, key); err != nil {
		return fmt.Errorf("unlock: %w", err)
	}
	return nil
}

func seconds(d time.Duration) int { return int(math.Ceil(d.Seconds())) }

// newSession opens a fresh session for u (as its document reads now) in
// u's sign-in record.
func (s *Service) newSession(ctx context.Context, u User, remember bool) (Session, error) {
	secret, err := randomSecret()
	if err != nil {
		return Session{}, err
	}
	ttl := s.cfg.SessionTTL
	if remember {
		ttl = s.cfg.RememberTTL
	}
	if err := s.addSession(ctx, u, sessionHash(secret), s.now().Add(ttl), remember); err != nil {
		return Session{}, fmt.Errorf("save session: %w", err)
	}
	return Session{Secret: cookieValue(u.ID, secret), UserID: u.ID, Remember: remember, TTL: ttl}, nil
}

// Logout ends the session whose cookie value is secret; an unknown one is fine.
func (s *Service) Logout(ctx context.Context, secret string) error {
	userID, sec, ok := parseCookie(secret)
	if !ok {
		return nil
	}
	h := sessionHash(sec)
	if _, err := s.endSessions(ctx, userID, func(x signinSession) bool { return x.Hash != h }); err != nil {
		return fmt.Errorf("logout: %w", err)
	}
	return nil
}

// maxSecretLen bounds what is hashed and looked up for a cookie or token.
const maxSecretLen = 256

// SessionPrincipal resolves an AuthSession cookie with one read, the
// user's sign-in record (signin.go): the session must be in it and not
// expired, and the principal comes from its copy of the user document,
// which is never more permissive than the document, so role and address
// changes apply at once and an ended session is refused at once. On the
// embedded store the principal is also kept in a cache that any change to
// sign-in records or user documents empties (sessioncache.go).
func (s *Service) SessionPrincipal(ctx context.Context, secret string) (*access.Principal, error) {
	if secret == "" || len(secret) > maxSecretLen {
		return nil, nil
	}
	userID, sec, ok := parseCookie(secret)
	if !ok {
		return nil, nil
	}
	return s.sessionPrincipal(ctx, userID, sessionHash(sec))
}

// SessionKeyPrincipal is SessionPrincipal by "<user id>:<session hash>"
// (Principal.Name and Principal.SessionKey): live-update connections ask
// again who they serve without keeping the secret.
func (s *Service) SessionKeyPrincipal(ctx context.Context, key string) (*access.Principal, error) {
	userID, h, ok := strings.Cut(key, ":")
	if !ok || !isUserID(userID) || h == "" {
		return nil, nil
	}
	return s.sessionPrincipal(ctx, userID, h)
}

func (s *Service) sessionPrincipal(ctx context.Context, userID, h string) (*access.Principal, error) {
	key := userID + ":" + h
	var ver sessionVersions
	if s.sessions != nil {
		if p, ok := s.sessions.get(key, s.now()); ok {
			return p, nil
		}
		ver = s.sessions.versions()
	}
	si, raw, err := s.loadSignin(ctx, userID)
	if err != nil || raw == nil {
		return nil, err
	}
	now := s.now()
	i := slices.IndexFunc(si.Sessions, func(x signinSession) bool { return x.Hash == h && now.Before(x.Expires) })
	if i < 0 || si.User.ID != userID {
		return nil, nil
	}
	p := s.principal(si.User, access.ViaSession)
	p.SessionKey = h
	if s.sessions != nil {
		s.sessions.put(key, p, si.Sessions[i].Expires, ver)
	}
	return p, nil
}

// TokenPrefix starts every API token, so leaked tokens are recognisable
// (secret scanners) and never confused with session ids.
const TokenPrefix = "oft_"

// TokenRecord is the stored form of an API token, under HashToken(token).
type TokenRecord struct {
	TokenID     string   `json:"token_id"`    // the UserToken document id (tok-…)
	UserID      string   `json:"user_id"`     //
	Permissions string   `json:"permissions"` // access.PermRead or access.PermReadWrite
	DBs         []string `json:"dbs"`         // empty = every db the user may use
	Active      bool     `json:"active"`
	// Epoch is the user's token epoch when the token was made (see
	// TokenEpoch); a password reset moves the user's on, ending the token.
	Epoch int64 `json:"epoch,omitempty"`
}

// HashToken is the record key of an API token.
func HashToken(token string) string { return hashSecret(token) }

// NewAPIToken returns a fresh token "oft_<43 base64url chars>".
func NewAPIToken() (string, error) {
	secret, err := randomSecret()
	if err != nil {
		return "", err
	}
	return TokenPrefix + secret, nil
}

// TokenPrincipal resolves a bearer token. Unknown, malformed and inactive
// tokens give a nil principal (the API answers 401).
func (s *Service) TokenPrincipal(ctx context.Context, token string) (*access.Principal, error) {
	if !strings.HasPrefix(token, TokenPrefix) || len(token) > maxSecretLen {
		return nil, nil
	}
	return s.TokenKeyPrincipal(ctx, HashToken(token))
}

// TokenKeyPrincipal is TokenPrincipal by the token's key (HashToken, kept
// in Principal.TokenKey), for the same reason as SessionKeyPrincipal.
func (s *Service) TokenKeyPrincipal(ctx context.Context, key string) (*access.Principal, error) {
	rec, err := s.store.GetRecord(ctx, TokenRecordKind, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load token: %w", err)
	}
	var tr TokenRecord
	if err := json.Unmarshal(rec.Value, &tr); err != nil {
		return nil, fmt.Errorf("decode token: %w", err)
	}
	if !tr.Active {
		return nil, nil
	}
	u, err := s.loadUser(ctx, tr.UserID)
	if errors.Is(err, errNoUser) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	cred, err := s.loadCredential(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	if tr.Epoch != cred.TokenEpoch {
		return nil, nil // made before the user's last password reset
	}
	p := s.principal(u, access.ViaToken)
	p.TokenPerm = access.PermRead // anything unknown is the weaker permission
	if tr.Permissions == access.PermReadWrite {
		p.TokenPerm = access.PermReadWrite
	}
	p.TokenDBs = append([]string(nil), tr.DBs...)
	p.TokenKey = key
	return p, nil
}

// TokenEpoch is the epoch a new API token of userID must carry
// (TokenRecord.Epoch) to work.
func (s *Service) TokenEpoch(ctx context.Context, userID string) (int64, error) {
	cred, err := s.loadCredential(ctx, userID)
	if err != nil {
		return 0, err
	}
	return cred.TokenEpoch, nil
}
