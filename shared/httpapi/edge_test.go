package httpapi

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/oficina/oficina/shared/ratelimit"
)

// Issue 8, items 5 and 8: how requests reach the API (CloudFront, the
// client address, the origin secret) and where they come from (Origin,
// Sec-Fetch-Site).

const edgeSecret = "edge-secret-for-tests"

// viaEdge makes b look like a browser at viewer reaching the API through
// CloudFront: the edge's address as the source, and the headers CloudFront adds.
func viaEdge(b *browser, viewer string) *browser {
	b.ip = "130.176.189.21" // one CloudFront edge
	b.hdr = map[string]string{ratelimit.OriginSecretHeader: edgeSecret, ratelimit.ViewerAddressHeader: viewer}
	return b
}

// TestLoginThrottleCountsViewersBehindOneEdge: behind CloudFront, 20 bad
// passwords from one viewer block that viewer, not everyone on the edge.
func TestLoginThrottleCountsViewersBehindOneEdge(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	e.configure(Config{OriginSecret: edgeSecret})
	attacker := viaEdge(e.browser(), "203.0.113.66")
	for i := range 19 {
		expect(t, attacker.login("user"+strconv.Itoa(i)+"@example.com", "guess"), http.StatusUnauthorized, "Email or password is incorrect")
	}
	expect(t, attacker.login("user19@example.com", "guess"), http.StatusTooManyRequests, "Too many requests")
	expect(t, attacker.login("ana@example.com", "password1"), http.StatusTooManyRequests, "Too many requests")
	// Ana comes through the same edge from her own address.
	expect(t, viaEdge(e.browser(), "198.51.100.23").login("ana@example.com", "password1"), http.StatusOK, "")
}

// TestDirectCallsRefusedBehindCloudFront: with an origin secret configured,
// a request without it (a direct call to the API Gateway endpoint) is
// refused whatever it asks, and a forged viewer address changes nothing.
func TestDirectCallsRefusedBehindCloudFront(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	e.configure(Config{OriginSecret: edgeSecret})
	direct := e.browser()
	for _, c := range []struct {
		method, path string
		body         any
		hdr          []string
	}{
		{"GET", "/api/", nil, nil},
		{"GET", "/api/_session", nil, nil},
		{"POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": "password1"}, nil},
		{"GET", "/api/prices", nil, []string{ratelimit.OriginSecretHeader, "guess"}},
		{"GET", "/api/prices", nil, []string{ratelimit.ViewerAddressHeader, "203.0.113.1"}},
		{"GET", "/api/nowhere/at/all", nil, nil},
	} {
		r := direct.do(c.method, c.path, c.body, c.hdr...)
		expect(t, r, http.StatusForbidden, "Requests must come through the site's address")
		if r.cookies[SessionCookie] != nil {
			t.Errorf("%s %s: a direct call got a session", c.method, c.path)
		}
	}
	b := viaEdge(e.browser(), "198.51.100.23")
	expect(t, b.do("GET", "/api/", nil), http.StatusOK, "")
	expect(t, b.login("ana@example.com", "password1"), http.StatusOK, "")
	expect(t, b.do("GET", "/api/_session", nil), http.StatusOK, "")
}

// TestViewerHeaderIgnoredWithoutEdge: the local server (no origin secret)
// counts the connection's address; a client-sent viewer header does not
// let an attacker spread guesses over invented addresses.
func TestViewerHeaderIgnoredWithoutEdge(t *testing.T) {
	e := newUserEnv(t)
	e.register("ana@example.com", "password1", "en")
	attacker := e.browser()
	attacker.ip = "203.0.113.66"
	for i := range 19 {
		attacker.hdr = map[string]string{ratelimit.ViewerAddressHeader: "198.51.100." + strconv.Itoa(i+1), ratelimit.OriginSecretHeader: ""}
		expect(t, attacker.login("user"+strconv.Itoa(i)+"@example.com", "guess"), http.StatusUnauthorized, "")
	}
	expect(t, attacker.login("user19@example.com", "guess"), http.StatusTooManyRequests, "Too many requests")
}

// TestLoginCSRF: a cross-site form POST to /api/_session must not sign the
// browser in; same-origin requests and non-browser clients still can.
func TestLoginCSRF(t *testing.T) {
	e := newUserEnv(t)
	e.configure(Config{BaseURL: "https://app.oficina.test"})
	e.register("ana@example.com", "password1", "en")
	form := "name=ana%40example.com&password=password1"
	formCT := []string{"Content-Type", "application/x-www-form-urlencoded"}
	refused := "Cross-site request refused: it must come from the site's own pages"
	for _, c := range []struct {
		name string
		hdr  []string
		code int
	}{
		{"cross-site form", []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}, 403},
		{"same-site form", []string{"Origin", "https://evil.oficina.test", "Sec-Fetch-Site", "same-site"}, 403},
		{"cross-site, Origin only (older browser)", []string{"Origin", "https://evil.example"}, 403},
		{"opaque origin (sandboxed frame)", []string{"Origin", "null"}, 403},
		{"cross-site fetch metadata wins over a forged-looking Origin", []string{"Origin", "https://app.oficina.test", "Sec-Fetch-Site", "cross-site"}, 403},
		{"same origin by the base URL", []string{"Origin", "https://app.oficina.test", "Sec-Fetch-Site", "same-origin"}, 200},
		{"same origin by the Host", []string{"Origin", "http://example.com"}, 200},
		{"typed by the user", []string{"Sec-Fetch-Site", "none"}, 200},
		{"not a browser (curl)", nil, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := e.browser()
			r := b.do("POST", "/api/_session", form, append(append([]string{}, formCT...), c.hdr...)...)
			if c.code == 403 {
				expect(t, r, http.StatusForbidden, refused)
				if len(r.cookies) > 0 {
					t.Errorf("refused login set cookies: %v", r.cookies)
				}
				return
			}
			expect(t, r, c.code, "")
			if r.cookies[SessionCookie] == nil {
				t.Error("no session cookie")
			}
		})
	}
}

// TestCrossSiteCookieRequestsRefused: every unsafe request authenticated by
// the session cookie is checked, even with a valid XSRF header; bearer
// tokens are not cookies and are not checked.
func TestCrossSiteCookieRequestsRefused(t *testing.T) {
	g := newGroupEnv(t, nil)
	g.configure(Config{BaseURL: "https://app.oficina.test"})
	ana := g.user("ana@example.com", "en", true)
	acc := g.createGroup(ana, "Oficina da Ana")
	seq := g.updateSeqOf(acc)
	cross := []string{"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"}
	refused := "Cross-site request refused: it must come from the site's own pages"
	expect(t, ana.b.do("POST", "/api/"+acc, map[string]any{"klass": "Customer", "name": "x"}, cross...), http.StatusForbidden, refused)
	expect(t, ana.b.do("DELETE", "/api/_session", nil, cross...), http.StatusForbidden, refused)
	if g.updateSeqOf(acc) != seq {
		t.Error("a refused request wrote")
	}
	expect(t, ana.b.do("GET", "/api/_session", nil, cross...), http.StatusOK, "") // reads are not checked
	expect(t, ana.b.do("POST", "/api/"+acc, map[string]any{"klass": "Customer", "name": "x"}, "Sec-Fetch-Site", "same-origin"), http.StatusCreated, "")

	tok := expect(t, ana.b.do("POST", "/api/"+ana.id+"/_design/token/_update/create", map[string]any{"permissions": "read-write"}), http.StatusCreated, "")["token"].(string)
	script := g.browser()
	script.bearer = tok
	expect(t, script.do("POST", "/api/"+acc, map[string]any{"klass": "Customer", "name": "y"}, cross...), http.StatusCreated, "")
}
