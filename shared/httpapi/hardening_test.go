package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/store"
)

// Issue 8, item 6: small holes the review found.

// TestNullBodyIsRefused: a JSON null is not an empty update.
func TestNullBodyIsRefused(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana := g.user("ana@example.com", "en", true)
	acc := g.createGroup(ana, "Oficina da Ana")
	userRev := ana.b.rev(ana.id)
	rec := expect(t, ana.b.do("GET", "/api/accounts/"+acc, nil), http.StatusOK, "")
	accSeq := g.updateSeqOf("accounts")
	for _, body := range []string{"null", " null ", "[]", `"x"`, "7"} {
		expect(t, ana.b.do("PUT", "/api/_users/"+ana.id+"?rev="+userRev, body), http.StatusBadRequest, "The request body must be a JSON object")
		expect(t, ana.b.do("PUT", "/api/accounts/"+acc+"?rev="+rec["_rev"].(string), body), http.StatusBadRequest, "The request body must be a JSON object")
	}
	if ana.b.rev(ana.id) != userRev {
		t.Error("a null body updated the user")
	}
	if g.updateSeqOf("accounts") != accSeq {
		t.Error("a null body updated the account")
	}
}

// TestDotSegmentsAndDoubleSlashesAreRefused: a path with "..", "." or an
// empty segment is answered with a JSON 400, never redirected to another
// database's URL.
func TestDotSegmentsAndDoubleSlashesAreRefused(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana := g.user("ana@example.com", "en", true)
	acc := g.createGroup(ana, "Oficina da Ana")
	other := ids.New("acc")
	for _, path := range []string{
		"/api/" + acc + "/../" + other,
		"/api/" + acc + "/..",
		"/api/" + acc + "/%2e%2e/" + other,
		"/api//" + acc,
		"/api/" + acc + "//_all_docs",
		"/api/" + acc + "/./_all_docs",
		"/api/./" + acc,
	} {
		for _, method := range []string{"GET", "PUT", "DELETE"} {
			var body any
			if method == "PUT" {
				body = map[string]any{"klass": "Customer"}
			}
			r := ana.b.do(method, path, body)
			expect(t, r, http.StatusBadRequest, "Invalid path: it must not contain empty, '.' or '..' segments")
			if loc := r.header.Get("Location"); loc != "" {
				t.Errorf("%s %s redirected to %s", method, path, loc)
			}
		}
	}
}

// TestFindRegexErrorsAreShortAndCapped: an invalid $regex is explained in
// a few words, without echoing the pattern or Go's error text, and long
// patterns are refused.
func TestFindRegexErrorsAreShortAndCapped(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := "/api/" + e.aliceDB + "/_find"
	long := strings.Repeat("a", 300)
	cases := []struct{ pattern, reason string }{
		{"x(?=y)", "invalid $regex: invalid or unsupported Perl syntax"},
		{"(" + long, "$regex is too long (maximum is 256 characters)"},
		{"(abc", "invalid $regex: missing closing )"},
		{"a{2,1}", "invalid $regex: invalid repeat count"},
	}
	for _, c := range cases {
		r := e.do("alice", "POST", db, map[string]any{"selector": map[string]any{"name": map[string]any{"$regex": c.pattern}}})
		e.expect(r, 400, "")
		if got := r.json(t)["reason"]; got != c.reason {
			t.Errorf("%.20q: reason %q, want %q", c.pattern, got, c.reason)
		}
		if strings.Contains(string(r.Body), "error parsing regexp") || (len(c.pattern) > 3 && strings.Contains(string(r.Body), c.pattern)) {
			t.Errorf("%.20q: answer echoes the pattern or Go's error: %s", c.pattern, r.Body)
		}
	}
}

// TestRegistrationIsRateLimitedPerAddress: one address cannot create
// accounts without end; other addresses are not affected.
func TestRegistrationIsRateLimitedPerAddress(t *testing.T) {
	e := newUserEnv(t)
	b := e.browser()
	b.ip = "203.0.113.7"
	reg := func(b *browser, i int) hres {
		return b.do("POST", "/api/_users", map[string]any{"unconfirmed_email": "user" + strconv.Itoa(i) + "@example.com", "password": "password1"})
	}
	for i := range registrationLimit.Max {
		expect(t, reg(b, i), http.StatusCreated, "")
	}
	r := reg(b, 100)
	expect(t, r, http.StatusTooManyRequests, "Too many requests")
	if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra < 1 || ra > 3600 {
		t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
	}
	if _, ok, _ := e.svc.UserByEmail(t.Context(), "user100@example.com"); ok {
		t.Error("a refused registration created the user")
	}
	other := e.browser()
	other.ip = "203.0.113.8"
	expect(t, reg(other, 101), http.StatusCreated, "")
}

// TestAnonymousFindIsRateLimited: public _find (prices) is limited per
// address; signed-in users are not counted.
func TestAnonymousFindIsRateLimited(t *testing.T) {
	e := newUserEnv(t)
	anon := e.browser()
	anon.ip = "203.0.113.9"
	q := map[string]any{"selector": map[string]any{"klass": "Price"}}
	for i := range anonymousFindLimit.Max {
		if r := anon.do("POST", "/api/prices/_find", q); r.code != http.StatusOK {
			t.Fatalf("find %d: %d %s", i+1, r.code, r.body)
		}
	}
	r := anon.do("POST", "/api/prices/_find", q)
	expect(t, r, http.StatusTooManyRequests, "Too many requests")
	if r.header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	// Plain change reads are not held back by the _find limit.
	expect(t, anon.do("GET", "/api/prices/_changes", nil), http.StatusOK, "")
	// A signed-in user at the same address is not held back.
	_, ana := e.signedIn("ana@example.com")
	ana.ip = anon.ip
	expect(t, ana.do("POST", "/api/prices/_find", q), http.StatusOK, "")
}

// TestAnonymousLongPollsAreRefused: a long poll holds a connection (on
// Lambda a function) and re-reads the store while it waits, so only
// signed-in callers may wait; anonymous ones still read the feed.
func TestAnonymousLongPollsAreRefused(t *testing.T) {
	e := newUserEnv(t)
	anon := e.browser()
	anon.ip = "203.0.113.10"
	expect(t, anon.do("GET", "/api/prices/_changes?feed=longpoll&timeout=1&since=0", nil), http.StatusUnauthorized, "You are not logged in.")
	expect(t, anon.do("GET", "/api/prices/_changes?feed=longpoll&timeout=1&since=now", nil), http.StatusUnauthorized, "You are not logged in.")
	expect(t, anon.do("GET", "/api/prices/_changes", nil), http.StatusOK, "")
	_, ana := e.signedIn("ana@example.com")
	expect(t, ana.do("GET", "/api/prices/_changes?feed=longpoll&timeout=1&since=now", nil), http.StatusOK, "")
}

// TestFieldsParameterIsBounded (item 3): ?fields= has _find's bounds on
// every route that takes it, anonymous ones included.
func TestFieldsParameterIsBounded(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana := g.user("ana@example.com", "en", true)
	acc := g.createGroup(ana, "Oficina da Ana")
	price := ids.New("prc")
	if _, err := g.st.Put(t.Context(), "prices", store.Doc{ID: price, Klass: "Price", Body: []byte(`{"klass":"Price","name":"free","amount":0}`)}); err != nil {
		t.Fatal(err)
	}
	tooMany := strings.TrimSuffix(strings.Repeat("f,", mango.MaxFields+1), ",")
	tooLong := strings.Repeat("f", mango.MaxFieldLen+1)
	for _, c := range []struct {
		b    *browser
		path string
	}{
		{g.browser(), "/api/prices/" + price},
		{ana.b, "/api/_users/" + ana.id},
		{ana.b, "/api/accounts/" + acc},
		{ana.b, "/api/" + acc + "/" + g.adjustment(ana, acc, "checklist")["_id"].(string)},
	} {
		expect(t, c.b.do("GET", c.path+"?fields="+tooMany, nil), http.StatusBadRequest, "fields: at most 256 may be requested")
		expect(t, c.b.do("GET", c.path+"?fields="+tooLong, nil), http.StatusBadRequest, "field name is too long (maximum is 256 characters)")
		if r := expect(t, c.b.do("GET", c.path+"?fields=klass", nil), http.StatusOK, ""); r["_id"] == nil || len(r) > 3 {
			t.Errorf("%s?fields=klass: %v", c.path, r)
		}
	}
}
