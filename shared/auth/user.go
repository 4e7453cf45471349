package auth

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// TimeLayout is how user timestamps are written: fixed width, so that string
// order is time order (the klass index sorts on created_at).
const TimeLayout = "2006-01-02T15:04:05.000Z"

func fmtTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// Stamp is the {_id, label} reference of created_by / updated_by.
type Stamp struct {
	ID    string `json:"_id"`
	Label string `json:"label"`
}

// User is the public user document (SPEC.md §3 User). It has no field for a
// password or session state, so nothing built from it can leak them.
type User struct {
	ID                 string   `json:"_id"`
	Rev                string   `json:"_rev,omitempty"`
	Klass              string   `json:"klass"`
	Fullname           string   `json:"fullname"`
	Label              string   `json:"label"`
	ShortName          string   `json:"short_name"`
	Email              string   `json:"email"`
	UnconfirmedEmail   *string  `json:"unconfirmed_email"`
	ConfirmedAt        *string  `json:"confirmed_at"`
	ConfirmationSentAt *string  `json:"confirmation_sent_at"`
	Newsletter         bool     `json:"newsletter"`
	Locale             string   `json:"locale"`
	GravatarHash       string   `json:"gravatar_hash"`
	Roles              []string `json:"roles"`
	CreatedAt          string   `json:"created_at"`
	UpdatedAt          string   `json:"updated_at"`
	CreatedBy          Stamp    `json:"created_by"`
	UpdatedBy          Stamp    `json:"updated_by"`
}

// Confirmed reports whether the login e-mail has been confirmed.
func (u User) Confirmed() bool { return u.ConfirmedAt != nil }

// Pending is the unconfirmed new e-mail, "" when none.
func (u User) Pending() string {
	if u.UnconfirmedEmail == nil {
		return ""
	}
	return *u.UnconfirmedEmail
}

// derive recomputes the fields that follow from others.
func (u *User) derive() {
	u.Klass = "User"
	u.Fullname = strings.TrimSpace(u.Fullname)
	u.Label = u.Fullname
	if u.Label == "" {
		u.Label = u.Email
	}
	if f := strings.Fields(u.Fullname); len(f) > 0 {
		u.ShortName = f[0]
	} else {
		u.ShortName, _, _ = strings.Cut(u.Email, "@")
	}
	sum := md5.Sum([]byte(strings.ToLower(strings.TrimSpace(u.Email))))
	u.GravatarHash = hex.EncodeToString(sum[:])
	if u.Roles == nil {
		u.Roles = []string{}
	}
	if p := u.Pending(); p == "" {
		u.UnconfirmedEmail = nil
	}
}

// greeting is how mails address the user.
func (u User) greeting() string {
	if u.Fullname != "" {
		return u.Fullname
	}
	local, _, _ := strings.Cut(u.Email, "@")
	return local
}

// credential is the private part of a user, never part of a document.
type credential struct {
	PasswordHash string `json:"password_hash,omitempty"`
	// SessionEpoch ends sessions: a session is valid only while it carries
	// the current epoch. Counting instead of comparing timestamps keeps the
	// rule exact whatever the clocks of the servers say.
	SessionEpoch      int64  `json:"session_epoch"`
	PasswordChangedAt string `json:"password_changed_at,omitempty"`
	// TokenEpoch ends API tokens the same way: a token works only while it
	// carries the current value. A password reset through the mailbox
	// moves it (a password change by the signed-in user does not).
	TokenEpoch int64 `json:"token_epoch,omitempty"`
}

// errNoUser: the user does not exist (never written, deleted, or no _users db yet).
var errNoUser = errors.New("no such user")

func isUserID(id string) bool {
	p, ok := ids.Parse(id)
	return ok && p == "usr"
}

// loadUser reads a user document.
func (s *Service) loadUser(ctx context.Context, id string) (User, error) {
	if !isUserID(id) {
		return User{}, errNoUser
	}
	doc, err := s.store.Get(ctx, ids.UsersDB, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) || errors.Is(err, store.ErrDBNotFound) {
		return User{}, errNoUser
	}
	if err != nil {
		return User{}, fmt.Errorf("load user %s: %w", id, err)
	}
	var u User
	if err := json.Unmarshal(doc.Body, &u); err != nil {
		return User{}, fmt.Errorf("decode user %s: %w", id, err)
	}
	u.ID, u.Rev = doc.ID, doc.Rev
	return u, nil
}

// saveUser writes u if u.Rev is still current ("" creates) and returns it
// with its new revision. Fields other code added to the document (such as
// membership bookkeeping) are kept.
func (s *Service) saveUser(ctx context.Context, u User) (User, error) {
	u.derive()
	var prev []byte
	if u.Rev != "" {
		doc, err := s.store.Get(ctx, ids.UsersDB, u.ID)
		if err != nil && !errors.Is(err, store.ErrDeleted) {
			return User{}, fmt.Errorf("save user %s: %w", u.ID, err)
		}
		if doc.Rev != u.Rev {
			return User{}, fmt.Errorf("save user %s: %w", u.ID, store.ErrConflict)
		}
		prev = doc.Body
	}
	body, err := encodeUser(u, prev)
	if err != nil {
		return User{}, err
	}
	// The sign-in copy is made no more permissive than either version
	// before the document changes, and follows it after (signin.go).
	step1, err := s.copyBeforeWrite(ctx, u)
	if err != nil {
		return User{}, fmt.Errorf("save user %s: %w", u.ID, err)
	}
	doc, err := s.store.Put(ctx, ids.UsersDB, store.Doc{ID: u.ID, Rev: u.Rev, Klass: "User", SortKey: u.CreatedAt, Body: body})
	if err != nil {
		return User{}, fmt.Errorf("save user %s: %w", u.ID, err)
	}
	u.Rev = doc.Rev
	s.copyAfterWrite(ctx, u, step1)
	return u, nil
}

// encodeUser lays u's fields over prev's, dropping reserved members.
func encodeUser(u User, prev []byte) ([]byte, error) {
	m := map[string]json.RawMessage{}
	if len(prev) > 0 {
		if err := json.Unmarshal(prev, &m); err != nil {
			return nil, fmt.Errorf("decode stored user: %w", err)
		}
	}
	b, err := json.Marshal(u)
	if err != nil {
		return nil, fmt.Errorf("encode user: %w", err)
	}
	var known map[string]json.RawMessage
	if err := json.Unmarshal(b, &known); err != nil {
		return nil, fmt.Errorf("encode user: %w", err)
	}
	for k, v := range known {
		m[k] = v
	}
	for k := range m {
		if strings.HasPrefix(k, "_") {
			delete(m, k)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode user: %w", err)
	}
	return out, nil
}

// updateUser applies change to the current document, retrying when someone
// else wrote in between; for server-side changes with no client revision.
func (s *Service) updateUser(ctx context.Context, id string, change func(*User) error) (User, error) {
	for attempt := 0; ; attempt++ {
		u, err := s.loadUser(ctx, id)
		if err != nil {
			return User{}, err
		}
		if err := change(&u); err != nil {
			return User{}, err
		}
		saved, err := s.saveUser(ctx, u)
		if errors.Is(err, store.ErrConflict) && attempt < 4 {
			continue
		}
		return saved, err
	}
}

func (s *Service) loadCredential(ctx context.Context, userID string) (credential, error) {
	rec, err := s.store.GetRecord(ctx, kindCredential, userID)
	if errors.Is(err, store.ErrNotFound) {
		return credential{}, nil
	}
	if err != nil {
		return credential{}, fmt.Errorf("load credential: %w", err)
	}
	var c credential
	if err := json.Unmarshal(rec.Value, &c); err != nil {
		return credential{}, fmt.Errorf("decode credential: %w", err)
	}
	return c, nil
}

func (s *Service) saveCredential(ctx context.Context, userID string, c credential) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode credential: %w", err)
	}
	if err := s.store.PutRecord(ctx, store.Record{Kind: kindCredential, Key: userID, Value: b}, false); err != nil {
		return fmt.Errorf("save credential: %w", err)
	}
	return nil
}

// principal builds the request principal from the current user document:
// the personal role, the Group roles memberships maintain, and _admin for a
// confirmed server-admin e-mail (unconfirmed would let anyone who registers
// an admin's address before them become admin).
func (s *Service) principal(u User, via access.Via) *access.Principal {
	roles := []string{u.ID}
	for _, r := range u.Roles {
		if p, ok := ids.Parse(r); ok && p == "acc" && !containsString(roles, r) {
			roles = append(roles, r)
		}
	}
	if u.Confirmed() && s.admins[normEmail(u.Email)] {
		roles = append(roles, access.ServerAdminRole)
	}
	p := &access.Principal{UserID: u.ID, Email: u.Email, EmailConfirmed: u.Confirmed(), Name: u.ID, Label: u.Label, Roles: roles, Locale: u.Locale, Via: via}
	if by, ok := u.ConfirmBy(); ok {
		p.ConfirmBy = by
		p.ConfirmExpired = !s.now().Before(by)
	}
	return p
}

// ConfirmDays is how long a new address has to be confirmed (SPEC.md §9):
// counted from confirmation_sent_at (resending the mail does not move it).
const ConfirmDays = 30

// ConfirmBy is when u's login address must be confirmed by; false once it
// is confirmed.
func (u User) ConfirmBy() (time.Time, bool) {
	if u.Confirmed() {
		return time.Time{}, false
	}
	from := u.CreatedAt
	if u.ConfirmationSentAt != nil && *u.ConfirmationSentAt != "" {
		from = *u.ConfirmationSentAt
	}
	t, err := time.Parse(TimeLayout, from)
	if err != nil {
		if t, err = time.Parse(time.RFC3339Nano, from); err != nil {
			return time.Time{}, false // an unreadable stamp never locks anyone out
		}
	}
	return t.Add(ConfirmDays * 24 * time.Hour), true
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// normEmail trims and lowercases: e-mails are unique and compared
// case-insensitively, and stored the same way.
func normEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// validEmail is a pragmatic check: one @, a dotted domain, no spaces or
// specials, and net/mail agrees it is a bare address.
func validEmail(s string) bool {
	if len(s) > 254 || strings.ContainsAny(s, " \t\r\n<>()[]\\,;:\"") {
		return false
	}
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || domain == "" || strings.Contains(domain, "@") {
		return false
	}
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return false
	}
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s
}

// normLocale returns the canonical locale, "en" for empty, or false.
func normLocale(s string) (string, bool) {
	switch {
	case s == "" || strings.EqualFold(s, "en"):
		return "en", true
	case strings.EqualFold(s, "pt-BR") || strings.EqualFold(s, "pt_BR"):
		return "pt-BR", true
	}
	return "", false
}

const (
	maxFullname    = 200
	maxPasswordLen = 1024 // bounds hashing work and storage
)

// checkNewPassword adds the field errors of a new password.
func (s *Service) checkNewPassword(fields map[string][]string, password string, confirmation *string) {
	switch {
	case password == "":
	case len([]rune(password)) < s.cfg.MinPasswordLen:
		fields["password"] = append(fields["password"], fmt.Sprintf("is too short (minimum is %d characters)", s.cfg.MinPasswordLen))
	case len(password) > maxPasswordLen:
		fields["password"] = append(fields["password"], fmt.Sprintf("is too long (maximum is %d characters)", maxPasswordLen))
	}
	if confirmation != nil && *confirmation != password {
		fields["password_confirmation"] = append(fields["password_confirmation"], fault.DoesNotMatch)
	}
}

// randomSecret is 32 random bytes, base64url: session ids and mail tokens.
func randomSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("random secret: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// hashSecret is the storage key of a secret: hex SHA-256. Secrets carry 256
// random bits, so an unsalted fast hash is enough to make a leaked table useless.
func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// notFound is the reply for a user the caller may not see or that does not exist.
func notFound() error { return fault.New(fault.NotFound, MsgMissing) }
