package auth

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
)

// cheapArgon2 keeps tests fast; production uses DefaultArgon2.
var cheapArgon2 = Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1, KeyLen: 32, SaltLen: 16}

// clock is a test clock that starts at the real time (stores expire records
// by their own clock) and only moves forward.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now()} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// mailbox records what the service sends; it stands in for the mail port only.
type mailbox struct {
	mu   sync.Mutex
	msgs []mail.Message
}

func (m *mailbox) Send(_ context.Context, msg mail.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
	return nil
}

func (m *mailbox) last(t *testing.T) mail.Message {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.msgs) == 0 {
		t.Fatal("no mail sent")
	}
	return m.msgs[len(m.msgs)-1]
}

func (m *mailbox) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.msgs)
}

var linkRE = regexp.MustCompile(`/user/(?:confirm|password)/([A-Za-z0-9_-]{43})`)

func tokenOf(t *testing.T, msg mail.Message) string {
	t.Helper()
	m := linkRE.FindStringSubmatch(msg.Text)
	if m == nil {
		t.Fatalf("no link in mail:\n%s", msg.Text)
	}
	return m[1]
}

type env struct {
	st    store.Store
	svc   *Service
	clock *clock
	mail  *mailbox
}

func newEnv(t *testing.T, admins ...string) *env {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "auth.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c, mb := newClock(), &mailbox{}
	svc := New(st, mb, Config{BaseURL: "https://oficina.test/", ServerAdmins: admins, Argon2: cheapArgon2, Now: c.Now, Logger: slog.New(slog.DiscardHandler)})
	if err := svc.EnsureSystemDBs(context.Background()); err != nil {
		t.Fatal(err)
	}
	return &env{st: st, svc: svc, clock: c, mail: mb}
}

func (e *env) register(t *testing.T, email, password string) User {
	t.Helper()
	u, err := e.svc.Register(context.Background(), Registration{Email: email, Password: password, Fullname: "Test User"})
	if err != nil {
		t.Fatalf("register %s: %v", email, err)
	}
	return u
}

func wantFault(t *testing.T, err error, kind fault.Kind, reason string) *fault.Error {
	t.Helper()
	fe, ok := fault.As(err)
	if !ok {
		t.Fatalf("want fault %v %q, got %v", kind, reason, err)
	}
	if fe.Kind != kind || (reason != "" && fe.Reason != reason) {
		t.Fatalf("want fault %v %q, got %v %q", kind, reason, fe.Kind, fe.Reason)
	}
	return fe
}

func TestPasswordHashing(t *testing.T) {
	h, err := hashPassword("correct horse", cheapArgon2)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Errorf("encoding %q", h)
	}
	h2, _ := hashPassword("correct horse", cheapArgon2)
	if h == h2 {
		t.Error("two hashes of one password are equal: salt not random")
	}
	for _, c := range []struct {
		pw   string
		want bool
	}{{"correct horse", true}, {"correct horsE", false}, {"", false}} {
		ok, err := verifyPassword(c.pw, h)
		if err != nil || ok != c.want {
			t.Errorf("verify %q = %v, %v", c.pw, ok, err)
		}
	}
	// Parameters come from the hash, so a hash made with the defaults still verifies.
	hd, _ := hashPassword("pw", DefaultArgon2())
	if !strings.Contains(hd, "$m=19456,t=2,p=1$") {
		t.Errorf("default params %q", hd)
	}
	if ok, err := verifyPassword("pw", hd); !ok || err != nil {
		t.Errorf("default-params hash does not verify: %v %v", ok, err)
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=64,t=0,p=1$c2FsdA$a2V5", "$argon2id$v=19$m=64,t=1,p=1$!!$a2V5"} {
		if _, err := verifyPassword("x", bad); err == nil {
			t.Errorf("malformed hash %q accepted", bad)
		}
	}
}

func TestValidEmail(t *testing.T) {
	for s, want := range map[string]bool{
		"ana@example.com": true, "a.b+tag@sub.example.com.br": true,
		"": false, "ana": false, "ana@": false, "@example.com": false, "ana@example": false,
		"ana@@example.com": false, "ana example@x.com": false, "Ana <ana@example.com>": false,
		"ana@example..com": false, "ana@.example.com": false,
	} {
		if got := validEmail(s); got != want {
			t.Errorf("validEmail(%q) = %v", s, got)
		}
	}
}

func TestRegisterStoresNoSecretInTheDocument(t *testing.T) {
	e := newEnv(t)
	u := e.register(t, "Ana@Example.com ", "s3cret-pass")
	if u.Email != "ana@example.com" || u.Locale != "en" || u.Confirmed() || u.ConfirmationSentAt == nil {
		t.Errorf("user %+v", u)
	}
	doc, err := e.st.Get(context.Background(), ids.UsersDB, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	body := string(doc.Body)
	for _, secret := range []string{"s3cret", "argon2", "password", "epoch"} {
		if strings.Contains(body, secret) {
			t.Errorf("user document holds %q: %s", secret, body)
		}
	}
	if doc.Klass != "User" || doc.SortKey != u.CreatedAt {
		t.Errorf("klass %q sort %q", doc.Klass, doc.SortKey)
	}
	sec, err := access.LoadSecurity(context.Background(), e.st, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.DBInfo(context.Background(), u.ID); err != nil {
		t.Errorf("personal db: %v", err)
	}
	if access.Decide(&access.Principal{UserID: u.ID, Roles: []string{u.ID}}, u.ID, sec, access.Write) != nil ||
		access.Decide(&access.Principal{UserID: "usr-other", Roles: []string{"usr-other"}}, u.ID, sec, access.Read) == nil {
		t.Errorf("personal db security %+v", sec)
	}
}

func TestServerAdminNeedsConfirmedEmail(t *testing.T) {
	e := newEnv(t, "Boss@Example.com")
	ctx := context.Background()
	u := e.register(t, "boss@example.com", "password1")
	sess, err := e.svc.Login(ctx, LoginInput{Name: "boss@example.com", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := e.svc.SessionPrincipal(ctx, sess.Secret)
	if p == nil || p.IsServerAdmin() {
		t.Fatalf("unconfirmed admin e-mail gave %+v", p)
	}
	if _, err := e.svc.Confirm(ctx, nil, tokenOf(t, e.mail.last(t))); err != nil {
		t.Fatal(err)
	}
	p, _ = e.svc.SessionPrincipal(ctx, sess.Secret)
	if p == nil || !p.IsServerAdmin() || p.UserID != u.ID || p.Label != "Test User" {
		t.Fatalf("confirmed admin principal %+v", p)
	}
}

func TestRolesComeFromTheCurrentUserDocument(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	u := e.register(t, "ana@example.com", "password1")
	sess, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	acc := ids.New("acc")
	// Another writer's field in the document is kept by later updates.
	doc, _ := e.st.Get(ctx, ids.UsersDB, u.ID)
	var body map[string]any
	_ = json.Unmarshal(doc.Body, &body)
	body["memberships_seen"] = 3
	doc.Body, _ = json.Marshal(body)
	if _, err := e.st.Put(ctx, ids.UsersDB, doc); err != nil {
		t.Fatal(err)
	}
	// Membership code maintains roles (AddRole); only acc- roles count,
	// whatever else the document holds.
	if err := e.svc.AddRole(ctx, u.ID, acc); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.updateUser(ctx, u.ID, func(u *User) error {
		u.Roles = append(u.Roles, "_admin", "acc-bad", ids.New("usr"))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p, err := e.svc.SessionPrincipal(ctx, sess.Secret)
	if err != nil || p == nil {
		t.Fatal(p, err)
	}
	if strings.Join(p.Roles, ",") != u.ID+","+acc {
		t.Errorf("roles %v", p.Roles)
	}
	// A later update through the service keeps fields it does not know.
	cur, _ := e.svc.User(ctx, p, u.ID)
	name := "Ana Maria"
	if _, err := e.svc.UpdateUser(ctx, p, UserUpdate{ID: u.ID, Rev: cur.Rev, Fullname: &name, CurrentPassword: "password1"}); err != nil {
		t.Fatal(err)
	}
	doc, _ = e.st.Get(ctx, ids.UsersDB, u.ID)
	if !strings.Contains(string(doc.Body), `"memberships_seen":3`) || !strings.Contains(string(doc.Body), acc) {
		t.Errorf("unknown fields or roles lost: %s", doc.Body)
	}
}

func TestTokenPrincipal(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	u := e.register(t, "ana@example.com", "password1")
	put := func(tr TokenRecord) string {
		tok, err := NewAPIToken()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(tr)
		if err := e.st.PutRecord(ctx, store.Record{Kind: TokenRecordKind, Key: HashToken(tok), Value: b}, false); err != nil {
			t.Fatal(err)
		}
		return tok
	}
	rw := put(TokenRecord{TokenID: ids.New("tok"), UserID: u.ID, Permissions: "read-write", DBs: []string{u.ID}, Active: true})
	ro := put(TokenRecord{TokenID: ids.New("tok"), UserID: u.ID, Permissions: "bogus", Active: true})
	off := put(TokenRecord{TokenID: ids.New("tok"), UserID: u.ID, Permissions: "read", Active: false})
	orphan := put(TokenRecord{TokenID: ids.New("tok"), UserID: ids.New("usr"), Permissions: "read", Active: true})

	p, err := e.svc.TokenPrincipal(ctx, rw)
	if err != nil || p == nil || p.Via != access.ViaToken || p.TokenPerm != access.PermReadWrite || p.UserID != u.ID || len(p.TokenDBs) != 1 {
		t.Fatalf("rw token: %+v %v", p, err)
	}
	if p, _ := e.svc.TokenPrincipal(ctx, ro); p == nil || p.TokenPerm != access.PermRead {
		t.Errorf("unknown permission must read as read: %+v", p)
	}
	for name, tok := range map[string]string{"inactive": off, "orphan": orphan, "unknown": "oft_nope", "no prefix": strings.TrimPrefix(rw, TokenPrefix), "empty": ""} {
		if p, err := e.svc.TokenPrincipal(ctx, tok); p != nil || err != nil {
			t.Errorf("%s token: %+v %v", name, p, err)
		}
	}
}

func TestSessionsExpireByTheServiceClock(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.register(t, "ana@example.com", "password1")
	plain, _ := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
	kept, _ := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1", Remember: true})
	if plain.Secret == kept.Secret || plain.TTL != 24*time.Hour || kept.TTL != 30*24*time.Hour {
		t.Fatalf("sessions %+v %+v", plain, kept)
	}
	e.clock.Advance(24*time.Hour + time.Second)
	if p, _ := e.svc.SessionPrincipal(ctx, plain.Secret); p != nil {
		t.Error("plain session alive after 24 h")
	}
	if p, _ := e.svc.SessionPrincipal(ctx, kept.Secret); p == nil {
		t.Error("remembered session dead after 24 h")
	}
	e.clock.Advance(30 * 24 * time.Hour)
	if p, _ := e.svc.SessionPrincipal(ctx, kept.Secret); p != nil {
		t.Error("remembered session alive after 30 days")
	}
}

func TestLockEndsWithTheClock(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.register(t, "ana@example.com", "password1")
	for range 4 {
		_, _ = e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "wrong"})
	}
	_, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "wrong"})
	fe := wantFault(t, err, fault.TooManyRequests, MsgAccountLocked)
	if fe.RetryAfter != 900 {
		t.Errorf("Retry-After %d", fe.RetryAfter)
	}
	e.clock.Advance(10 * time.Minute)
	_, err = e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
	if fe := wantFault(t, err, fault.TooManyRequests, MsgAccountLocked); fe.RetryAfter != 300 {
		t.Errorf("Retry-After after 10 min %d", fe.RetryAfter)
	}
	e.clock.Advance(5*time.Minute + time.Second)
	if _, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"}); err != nil {
		t.Fatalf("login after the lock: %v", err)
	}
	// A failure window that has ended by the clock starts again at one.
	_, _ = e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "wrong"})
	_, _ = e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "wrong"})
	_, _ = e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "wrong"})
	e.clock.Advance(16 * time.Minute)
	_, err = e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "wrong"})
	wantFault(t, err, fault.Unauthorized, fault.MsgBadCredentials)
}

func TestStaleEmailClaimIsTakenOver(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	// A claim whose user was never written (a crash between the two writes).
	ghost := ids.New("usr")
	b, _ := json.Marshal(emailClaim{UserID: ghost, At: e.clock.Now()})
	if err := e.st.PutRecord(ctx, store.Record{Kind: kindEmail, Key: "ana@example.com", Value: b}, true); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.Register(ctx, Registration{Email: "ana@example.com", Password: "password1"})
	wantFault(t, err, fault.Conflict, MsgEmailTaken)
	e.clock.Advance(staleClaimAge + time.Second)
	u := e.register(t, "ana@example.com", "password1")
	if got, ok, _ := e.svc.userByEmail(ctx, "ana@example.com"); !ok || got.ID != u.ID {
		t.Errorf("claim not taken over: %+v %v", got, ok)
	}
}

func TestMailsPerAddressAreCapped(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.register(t, "ana@example.com", "password1") // 1 confirmation mail
	for range 10 {
		if err := e.svc.RequestConfirmation(ctx, "ana@example.com"); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.mail.count(); n != 5 {
		t.Errorf("%d mails sent, want the hourly cap of 5", n)
	}
	e.clock.Advance(time.Hour + time.Second)
	_ = e.svc.RequestConfirmation(ctx, "ana@example.com")
	if n := e.mail.count(); n != 6 {
		t.Errorf("%d mails after an hour, want 6", n)
	}
}

func TestLinkTokensAreStoredHashed(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.register(t, "ana@example.com", "password1")
	tok := tokenOf(t, e.mail.last(t))
	if _, err := e.st.GetRecord(ctx, kindConfirm, tok); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("token stored in clear: %v", err)
	}
	if _, err := e.st.GetRecord(ctx, kindConfirm, hashSecret(tok)); err != nil {
		t.Errorf("hashed token record: %v", err)
	}
}

// TestPasswordResetEndsTokensAndPendingAddress (issue 8, item 1): the
// reset link proves the mailbox, so it ends every token made before it,
// drops a pending address and tells the reset hooks.
func TestPasswordResetEndsTokensAndPendingAddress(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	u := e.register(t, "ana@example.com", "password1")
	var hooked []string
	e.svc.OnPasswordReset(func(_ context.Context, u User) { hooked = append(hooked, u.ID) })
	tok, err := NewAPIToken()
	if err != nil {
		t.Fatal(err)
	}
	epoch, err := e.svc.TokenEpoch(ctx, u.ID)
	if err != nil || epoch != 0 {
		t.Fatalf("epoch %d %v", epoch, err)
	}
	b, _ := json.Marshal(TokenRecord{TokenID: ids.New("tok"), UserID: u.ID, Permissions: "read", Active: true, Epoch: epoch})
	if err := e.st.PutRecord(ctx, store.Record{Kind: TokenRecordKind, Key: HashToken(tok), Value: b}, false); err != nil {
		t.Fatal(err)
	}
	sess, _ := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
	p, _ := e.svc.SessionPrincipal(ctx, sess.Secret)
	cur, _ := e.svc.User(ctx, p, u.ID)
	next := "ana.new@example.com"
	if _, err := e.svc.UpdateUser(ctx, p, UserUpdate{ID: u.ID, Rev: cur.Rev, UnconfirmedEmail: &next, CurrentPassword: "password1"}); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.RequestPasswordReset(ctx, "ana@example.com"); err != nil {
		t.Fatal(err)
	}
	saved, err := e.svc.ResetPassword(ctx, PasswordReset{Token: tokenOf(t, e.mail.last(t)), Password: "password2"})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := e.svc.TokenPrincipal(ctx, tok); p != nil || err != nil {
		t.Errorf("token survived the reset: %+v %v", p, err)
	}
	if saved.Pending() != "" || !saved.Confirmed() {
		t.Errorf("after reset: pending %q, confirmed %v", saved.Pending(), saved.Confirmed())
	}
	if _, found, _ := e.svc.userByPendingEmail(ctx, next); found {
		t.Error("pending index kept")
	}
	if len(hooked) != 1 || hooked[0] != u.ID {
		t.Errorf("reset hooks called with %v", hooked)
	}
	// A token made now carries the new epoch and works.
	if epoch, _ = e.svc.TokenEpoch(ctx, u.ID); epoch != 1 {
		t.Fatalf("epoch after reset %d", epoch)
	}
	b, _ = json.Marshal(TokenRecord{TokenID: ids.New("tok"), UserID: u.ID, Permissions: "read", Active: true, Epoch: epoch})
	tok2, _ := NewAPIToken()
	_ = e.st.PutRecord(ctx, store.Record{Kind: TokenRecordKind, Key: HashToken(tok2), Value: b}, false)
	if p, err := e.svc.TokenPrincipal(ctx, tok2); p == nil || err != nil {
		t.Errorf("new token: %+v %v", p, err)
	}
}
