package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
)

// ---- harness for the session and user tests: the real auth service on a
// real bbolt store, mail going to a real outbox folder.

// testClock starts at the real time (the store expires records by its own
// clock) and only moves forward.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type userEnv struct {
	t      *testing.T
	st     store.Store
	svc    *auth.Service
	srv    *Server
	clock  *testClock
	outbox string
}

func newUserEnv(t *testing.T, admins ...string) *userEnv {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "users.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clock := &testClock{t: time.Now()}
	quiet := slog.New(slog.DiscardHandler)
	dir := filepath.Join(t.TempDir(), "outbox")
	tpl, err := mail.LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	svc := auth.New(st, mail.NewOutbox(dir, "Oficina <no-reply@oficina.test>", quiet).WithClock(clock.Now), auth.Config{
		Templates:    tpl,
		BaseURL:      "https://app.oficina.test",
		ServerAdmins: admins,
		Argon2:       auth.Argon2Params{MemoryKiB: 64, Time: 1, Threads: 1},
		Now:          clock.Now,
		Logger:       quiet,
	})
	if err := svc.EnsureSystemDBs(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := New(Deps{Store: st, Auth: svc, Users: svc, Log: quiet, Now: clock.Now})
	return &userEnv{t: t, st: st, svc: svc, srv: srv, clock: clock, outbox: dir}
}

// configure rebuilds the server with cfg (same store, auth and clock).
func (e *userEnv) configure(cfg Config) {
	e.srv = New(Deps{Store: e.st, Auth: e.svc, Users: e.svc, Log: slog.New(slog.DiscardHandler), Now: e.clock.Now, Config: cfg})
}

// browser is one client with its own cookie jar. It echoes the XSRF cookie
// in the header like the SPA, unless noXSRF.
type browser struct {
	e      *userEnv
	host   string // Host header; httptest's default is example.com
	ip     string
	jar    map[string]*http.Cookie
	bearer string
	noXSRF bool
	// hdr is sent with every request (e.g. what CloudFront adds).
	hdr map[string]string
}

func (e *userEnv) browser() *browser {
	return &browser{e: e, ip: "192.0.2.10", jar: map[string]*http.Cookie{}}
}

type hres struct {
	code    int
	header  http.Header
	body    []byte
	cookies map[string]*http.Cookie
}

func (r hres) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

// leakRE matches anything that would betray a private field in a response.
var leakRE = regexp.MustCompile(`(?i)argon2|password_hash|session_epoch|"(password|current_password|salt|derived_key)"\s*:\s*"`)

// do sends a request; body is sent as-is when a string, else JSON-encoded.
// headers are name, value pairs ("Content-Type" overrides JSON).
func (b *browser) do(method, target string, body any, headers ...string) hres {
	b.e.t.Helper()
	var rd io.Reader
	switch v := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(v)
	default:
		enc, err := json.Marshal(v)
		if err != nil {
			b.e.t.Fatal(err)
		}
		rd = bytes.NewReader(enc)
	}
	req := httptest.NewRequest(method, target, rd)
	if b.host != "" {
		req.Host = b.host
	}
	req.RemoteAddr = b.ip + ":40000"
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, c := range b.jar {
		req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	}
	if c, ok := b.jar[XSRFCookie]; ok && !b.noXSRF {
		req.Header.Set(XSRFHeader, c.Value)
	}
	if b.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+b.bearer)
	}
	for k, v := range b.hdr {
		req.Header.Set(k, v)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	b.e.srv.ServeHTTP(rec, req)
	res := hres{code: rec.Code, header: rec.Header(), body: rec.Body.Bytes(), cookies: map[string]*http.Cookie{}}
	for _, c := range rec.Result().Cookies() {
		res.cookies[c.Name] = c
		if c.MaxAge < 0 {
			delete(b.jar, c.Name)
		} else {
			b.jar[c.Name] = c
		}
	}
	if leakRE.Match(res.body) {
		b.e.t.Fatalf("%s %s leaks a private field: %s", method, target, res.body)
	}
	// Time moves a little between requests, so outbox files sort in send order.
	b.e.clock.Advance(time.Millisecond)
	return res
}

// expect fails unless r has code and, when reason is set, that exact reason.
func expect(t *testing.T, r hres, code int, reason string) map[string]any {
	t.Helper()
	if r.code != code {
		t.Fatalf("status %d, want %d: %s", r.code, code, r.body)
	}
	if len(r.body) == 0 {
		return nil
	}
	m := r.json(t)
	if reason != "" {
		if got, _ := m["reason"].(string); got != reason {
			t.Fatalf("reason %q, want %q", got, reason)
		}
	}
	return m
}

// fieldErr returns the messages of one field in a 422/409 body.
func fieldErr(t *testing.T, m map[string]any, field string) []string {
	t.Helper()
	f, _ := m["fields"].(map[string]any)
	var out []string
	if l, ok := f[field].([]any); ok {
		for _, v := range l {
			out = append(out, v.(string))
		}
	}
	return out
}

// register creates a user through the API and returns its id.
func (e *userEnv) register(email, password, locale string) string {
	e.t.Helper()
	id := ids.New("usr")
	r := e.browser().do("POST", "/api/_users", map[string]any{"_id": id, "fullname": "Ana Souza", "unconfirmed_email": email, "password": password, "locale": locale})
	expect(e.t, r, http.StatusCreated, "")
	return id
}

// login signs b in and returns the response.
func (b *browser) login(email, password string, extra ...any) hres {
	b.e.t.Helper()
	body := map[string]any{"name": email, "password": password}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return b.do("POST", "/api/_session", body)
}

// sentMail is one message read back from the outbox.
type sentMail struct {
	file, to, subject, text, html string
}

// mails reads every .eml in the outbox, oldest first.
func (e *userEnv) mails() []sentMail {
	e.t.Helper()
	ms, err := mail.ReadOutbox(e.outbox)
	if err != nil {
		e.t.Fatal(err)
	}
	out := make([]sentMail, 0, len(ms))
	for _, m := range ms {
		out = append(out, sentMail{file: m.File, to: m.To, subject: m.Subject, text: m.Text, html: m.HTML})
	}
	return out
}

var mailLinkRE = regexp.MustCompile(`https://app\.oficina\.test/user/(confirm|password)/([A-Za-z0-9_-]{43})`)

// lastLink returns the token of the newest mail's link of kind ("confirm"
// or "password") sent to addr.
func (e *userEnv) lastLink(addr, kind string) string {
	e.t.Helper()
	ms := e.mails()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].to != addr {
			continue
		}
		if m := mailLinkRE.FindStringSubmatch(ms[i].text); m != nil && m[1] == kind {
			if !strings.Contains(ms[i].html, m[0]) {
				e.t.Fatalf("HTML part lacks the link %s", m[0])
			}
			return m[2]
		}
	}
	e.t.Fatalf("no %s mail to %s in %d mails", kind, addr, len(ms))
	return ""
}

// ---- session tests

func TestLoginCookies(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	cases := []struct {
		name       string
		host       string
		remember   bool
		wantSecure bool
		wantMaxAge int
	}{
		{"public host", "app.oficina.test", false, true, 0},
		{"remember me", "app.oficina.test", true, true, 30 * 24 * 3600},
		{"loopback ip", "127.0.0.1:8080", false, false, 0},
		{"localhost", "localhost:5173", false, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := e.browser()
			b.host = c.host
			m := expect(t, b.login("ana@example.com", "password1", "remember", c.remember), http.StatusOK, "")
			if m["ok"] != true || !strings.HasPrefix(m["name"].(string), "usr-") {
				t.Errorf("body %v", m)
			}
			res := b.do("GET", "/api/_session", nil)
			expect(t, res, http.StatusOK, "")
			for _, name := range []string{SessionCookie, XSRFCookie} {
				c0 := b.jar[name]
				if c0 == nil {
					t.Fatalf("no %s cookie", name)
				}
				if c0.HttpOnly != (name == SessionCookie) || c0.SameSite != http.SameSiteLaxMode || c0.Path != "/" || c0.Secure != c.wantSecure || c0.MaxAge != c.wantMaxAge {
					t.Errorf("%s: HttpOnly=%v SameSite=%v Path=%q Secure=%v MaxAge=%d", name, c0.HttpOnly, c0.SameSite, c0.Path, c0.Secure, c0.MaxAge)
				}
			}
			// "<user id>:<32 random bytes, base64url>": the user id finds the
			// sign-in record, the secret proves the session.
			if uid, secret, ok := strings.Cut(b.jar[SessionCookie].Value, ":"); !ok || !strings.HasPrefix(uid, "usr-") || len(secret) != 43 {
				t.Errorf("session id %q is not <user id>:<32 bytes base64url>", b.jar[SessionCookie].Value)
			}
		})
	}
}

func TestLoginInputs(t *testing.T) {
	e := newUserEnv(t)
	id := e.register("ana@example.com", "password1", "en")
	form := "application/x-www-form-urlencoded"
	cases := []struct {
		name   string
		body   string
		ctype  string
		code   int
		reason string
	}{
		{"json name", `{"name":"ana@example.com","password":"password1"}`, "", 200, ""},
		{"json username, any case", `{"username":"ANA@example.com","password":"password1"}`, "", 200, ""},
		{"user id as name", `{"name":"` + id + `","password":"password1"}`, "", 200, ""},
		{"form encoded", "name=ana%40example.com&password=password1", form, 200, ""},
		{"missing password", `{"name":"ana@example.com"}`, "", 400, "Please fill in e-mail and password"},
		{"missing name", `{"password":"password1"}`, "", 400, "Please fill in e-mail and password"},
		{"empty form", "", form, 400, "Please fill in e-mail and password"},
		{"wrong password", `{"name":"ana@example.com","password":"nope"}`, "", 401, "Email or password is incorrect"},
		{"unknown user", `{"name":"bob@example.com","password":"password1"}`, "", 401, "Email or password is incorrect"},
		{"password not a string", `{"name":"ana@example.com","password":1}`, "", 400, `field "password" must be a string`},
		{"malformed JSON", `{"name":`, "", 400, ""},
		{"not JSON", `name=x`, "text/plain", 415, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := e.browser()
			b.ip = "198.51.100." + strconv.Itoa(len(c.name)) // keep the IP throttle out of this test
			var hdr []string
			if c.ctype != "" {
				hdr = []string{"Content-Type", c.ctype}
			}
			r := b.do("POST", "/api/_session", c.body, hdr...)
			m := expect(t, r, c.code, c.reason)
			if c.code == 200 {
				if m["name"] != id || b.jar[SessionCookie] == nil {
					t.Errorf("login gave %v", m)
				}
			} else if b.jar[SessionCookie] != nil {
				t.Error("failed login set a session cookie")
			}
		})
	}
}

func TestLoginThrottlePerAccount(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	b := e.browser()
	for i, want := range []string{
		"Email or password is incorrect",
		"Email or password is incorrect",
		"Email or password is incorrect",
		"Email or password is incorrect, one more attempt before your account is locked",
	} {
		b.ip = "203.0.113." + strconv.Itoa(i+1) // different IPs: the account counter is what locks
		expect(t, b.login("ANA@example.com", "wrong"), http.StatusUnauthorized, want)
	}
	r := b.login("ana@example.com", "wrong")
	expect(t, r, http.StatusTooManyRequests, "Your account is locked, please try again later")
	if r.header.Get("Retry-After") != "900" {
		t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
	}
	// Locked means locked, even with the right password.
	expect(t, b.login("ana@example.com", "password1"), http.StatusTooManyRequests, "Your account is locked, please try again later")
	e.clock.Advance(15*time.Minute + time.Second)
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")

	// A successful login resets the account counter.
	for range 3 {
		expect(t, b.login("ana@example.com", "wrong"), http.StatusUnauthorized, "Email or password is incorrect")
	}
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")
	expect(t, b.login("ana@example.com", "wrong"), http.StatusUnauthorized, "Email or password is incorrect")
}

func TestLoginThrottlePerIP(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	attacker := e.browser()
	attacker.ip = "203.0.113.66"
	for i := range 19 {
		expect(t, attacker.login("user"+strconv.Itoa(i)+"@example.com", "guess"), http.StatusUnauthorized, "Email or password is incorrect")
	}
	r := attacker.login("user19@example.com", "guess")
	expect(t, r, http.StatusTooManyRequests, "Too many requests")
	if r.header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	expect(t, attacker.login("ana@example.com", "password1"), http.StatusTooManyRequests, "Too many requests")
	// Another client is not affected.
	expect(t, e.browser().login("ana@example.com", "password1"), http.StatusOK, "")
}

func TestGetSession(t *testing.T) {
	e := newUserEnv(t)
	id := e.register("ana@example.com", "password1", "pt-BR")
	b := e.browser()
	r := b.do("GET", "/api/_session", nil)
	expect(t, r, http.StatusUnauthorized, "You are not logged in.")
	x := r.cookies[XSRFCookie]
	if x == nil || x.Value == "" || x.HttpOnly {
		t.Fatalf("anonymous GET /_session did not set a readable XSRF cookie: %+v", x)
	}
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")
	r = b.do("GET", "/api/_session", nil)
	m := expect(t, r, http.StatusOK, "")
	if r.cookies[XSRFCookie] != nil {
		t.Error("XSRF cookie replaced although the client had one")
	}
	uc := m["userCtx"].(map[string]any)
	info := m["info"].(map[string]any)
	if m["ok"] != true || uc["name"] != id || uc["locale"] != "pt-BR" || info["authenticated"] != "cookie" || info["locale"] != "pt-BR" {
		t.Errorf("session %s", r.body)
	}
	if roles := uc["roles"].([]any); len(roles) != 1 || roles[0] != id {
		t.Errorf("roles %v", roles)
	}
	if h := info["authentication_handlers"].([]any); len(h) != 2 || h[0] != "cookie" || h[1] != "default" {
		t.Errorf("handlers %v", h)
	}
}

func TestXSRFRequiredForCookieAuthenticatedUnsafeRequests(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	b := e.browser()
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")
	b.noXSRF = true
	expect(t, b.do("DELETE", "/api/_session", nil), http.StatusForbidden, "Missing or invalid XSRF token")
	expect(t, b.do("DELETE", "/api/_session", nil, XSRFHeader, "forged"), http.StatusForbidden, "Missing or invalid XSRF token")
	expect(t, b.do("GET", "/api/_session", nil), http.StatusOK, "") // safe methods need no header
	b.noXSRF = false
	expect(t, b.do("DELETE", "/api/_session", nil), http.StatusOK, "")
}

func TestLogoutEndsTheSessionServerSide(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	b := e.browser()
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")
	stolen := *b.jar[SessionCookie]
	r := b.do("DELETE", "/api/_session", nil)
	expect(t, r, http.StatusOK, "")
	for _, name := range []string{SessionCookie, XSRFCookie} {
		if c := r.cookies[name]; c == nil || c.MaxAge >= 0 {
			t.Errorf("%s not expired: %+v", name, c)
		}
	}
	// The old cookie value, replayed, no longer works.
	thief := e.browser()
	thief.jar[SessionCookie] = &stolen
	expect(t, thief.do("GET", "/api/_session", nil), http.StatusUnauthorized, "")
	// Logging out while signed out is fine.
	expect(t, e.browser().do("DELETE", "/api/_session", nil), http.StatusOK, "")
}

func TestEveryLoginGetsANewSessionID(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	b := e.browser()
	// A session id planted before login (fixation) is never kept.
	b.jar[SessionCookie] = &http.Cookie{Name: SessionCookie, Value: "planted-by-attacker"}
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")
	first := *b.jar[SessionCookie]
	if first.Value == "planted-by-attacker" {
		t.Fatal("planted session id kept")
	}
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")
	second := *b.jar[SessionCookie]
	if second.Value == first.Value {
		t.Fatal("same session id after a second login")
	}
	old := e.browser()
	old.jar[SessionCookie] = &first
	expect(t, old.do("GET", "/api/_session", nil), http.StatusUnauthorized, "")
	expect(t, b.do("GET", "/api/_session", nil), http.StatusOK, "")
}

func TestSessionLifetime(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	plain, kept := e.browser(), e.browser()
	expect(t, plain.login("ana@example.com", "password1"), http.StatusOK, "")
	expect(t, kept.login("ana@example.com", "password1", "remember", true), http.StatusOK, "")
	e.clock.Advance(25 * time.Hour)
	expect(t, plain.do("GET", "/api/_session", nil), http.StatusUnauthorized, "")
	expect(t, kept.do("GET", "/api/_session", nil), http.StatusOK, "")
	e.clock.Advance(30 * 24 * time.Hour)
	expect(t, kept.do("GET", "/api/_session", nil), http.StatusUnauthorized, "")
}

func TestServerAdminsGetAdminRole(t *testing.T) {
	e := newUserEnv(t, "Boss@Example.com")
	e.register("boss@example.com", "password1", "en")
	b := e.browser()
	m := expect(t, b.login("boss@example.com", "password1"), http.StatusOK, "")
	if strings.Contains(string(mustJSON(t, m["roles"])), "_admin") {
		t.Fatal("_admin before the e-mail is confirmed")
	}
	tok := e.lastLink("boss@example.com", "confirm")
	expect(t, e.browser().do("PUT", "/api/_users/_confirmation", map[string]any{"token": tok}), http.StatusOK, "")
	m = expect(t, b.do("GET", "/api/_session", nil), http.StatusOK, "")
	if roles := mustJSON(t, m["userCtx"].(map[string]any)["roles"]); !strings.Contains(string(roles), `"_admin"`) {
		t.Errorf("confirmed server admin roles %s", roles)
	}
	other := e.register("ana@example.com", "password1", "en")
	_ = other
	m = expect(t, e.browser().login("ana@example.com", "password1"), http.StatusOK, "")
	if strings.Contains(string(mustJSON(t, m["roles"])), "_admin") {
		t.Error("ordinary user got _admin")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBearerTokens(t *testing.T) {
	e := newUserEnv(t)
	id := e.register("ana@example.com", "password1", "en")
	ctx := context.Background()
	put := func(active bool, perm string) string {
		tok, err := auth.NewAPIToken()
		if err != nil {
			t.Fatal(err)
		}
		rec, _ := json.Marshal(auth.TokenRecord{TokenID: ids.New("tok"), UserID: id, Permissions: perm, Active: active})
		if err := e.st.PutRecord(ctx, store.Record{Kind: auth.TokenRecordKind, Key: auth.HashToken(tok), Value: rec}, false); err != nil {
			t.Fatal(err)
		}
		return tok
	}
	good, revoked := put(true, access.PermReadWrite), put(false, access.PermReadWrite)

	b := e.browser()
	b.bearer = good
	m := expect(t, b.do("GET", "/api/_session", nil), http.StatusOK, "")
	if m["info"].(map[string]any)["authenticated"] != "token" || m["userCtx"].(map[string]any)["name"] != id {
		t.Errorf("token session %v", m)
	}
	// Bearer requests carry no cookie, so they need no XSRF header.
	b.noXSRF = true
	expect(t, b.do("POST", "/api/"+id, map[string]any{"_id": ids.New("adj"), "klass": "Adjustment", "key": "locale", "value": "en"}), http.StatusCreated, "")

	for name, tok := range map[string]string{"revoked": revoked, "unknown": "oft_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "not ours": "abc"} {
		c := e.browser()
		c.bearer = tok
		r := c.do("GET", "/api/_session", nil)
		expect(t, r, http.StatusUnauthorized, "Invalid or revoked token")
		if r.header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no WWW-Authenticate", name)
		}
	}
	// Revoking an active token (the next issue flips active) takes effect at once.
	rec, _ := json.Marshal(auth.TokenRecord{UserID: id, Permissions: access.PermRead, Active: false})
	if err := e.st.PutRecord(ctx, store.Record{Kind: auth.TokenRecordKind, Key: auth.HashToken(good), Value: rec}, false); err != nil {
		t.Fatal(err)
	}
	expect(t, b.do("GET", "/api/_session", nil), http.StatusUnauthorized, "Invalid or revoked token")
}
