package dav_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/dav"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store"
)

// countingStore counts every call that reaches the store.
type countingStore struct {
	store.Store
	calls atomic.Int64
}

func (s *countingStore) CreateDB(ctx context.Context, db string) error {
	s.calls.Add(1)
	return s.Store.CreateDB(ctx, db)
}
func (s *countingStore) DBInfo(ctx context.Context, db string) (store.DBInfo, error) {
	s.calls.Add(1)
	return s.Store.DBInfo(ctx, db)
}
func (s *countingStore) Get(ctx context.Context, db, id string) (store.Doc, error) {
	s.calls.Add(1)
	return s.Store.Get(ctx, db, id)
}
func (s *countingStore) Put(ctx context.Context, db string, d store.Doc) (store.Doc, error) {
	s.calls.Add(1)
	return s.Store.Put(ctx, db, d)
}
func (s *countingStore) Delete(ctx context.Context, db, id, rev string) (store.Doc, error) {
	s.calls.Add(1)
	return s.Store.Delete(ctx, db, id, rev)
}
func (s *countingStore) List(ctx context.Context, db string, q store.ListQuery) (store.Page, error) {
	s.calls.Add(1)
	return s.Store.List(ctx, db, q)
}
func (s *countingStore) AllDocs(ctx context.Context, db string, q store.AllDocsQuery) ([]store.Doc, error) {
	s.calls.Add(1)
	return s.Store.AllDocs(ctx, db, q)
}
func (s *countingStore) Changes(ctx context.Context, db string, q store.ChangesQuery) ([]store.Doc, error) {
	s.calls.Add(1)
	return s.Store.Changes(ctx, db, q)
}
func (s *countingStore) PutRecord(ctx context.Context, r store.Record, ifAbsent bool) error {
	s.calls.Add(1)
	return s.Store.PutRecord(ctx, r, ifAbsent)
}
func (s *countingStore) GetRecord(ctx context.Context, kind, key string) (store.Record, error) {
	s.calls.Add(1)
	return s.Store.GetRecord(ctx, kind, key)
}
func (s *countingStore) TakeRecord(ctx context.Context, kind, key string) (store.Record, error) {
	s.calls.Add(1)
	return s.Store.TakeRecord(ctx, kind, key)
}
func (s *countingStore) DeleteRecord(ctx context.Context, kind, key string) error {
	s.calls.Add(1)
	return s.Store.DeleteRecord(ctx, kind, key)
}
func (s *countingStore) Incr(ctx context.Context, kind, key string, delta int64, ttl time.Duration) (int64, error) {
	s.calls.Add(1)
	return s.Store.Incr(ctx, kind, key, delta, ttl)
}
func (s *countingStore) Transact(ctx context.Context, w []store.RecordWrite) error {
	s.calls.Add(1)
	return s.Store.Transact(ctx, w)
}

// countingTokens counts token look-ups (each is store reads of its own).
type countingTokens struct {
	dav.Tokens
	calls atomic.Int64
}

func (c *countingTokens) TokenPrincipal(ctx context.Context, token string) (*access.Principal, error) {
	c.calls.Add(1)
	return c.Tokens.TokenPrincipal(ctx, token)
}

// TestNoCredentialsTouchNothing: on both stores, a request without
// credentials (or with half of them) is answered 401 with the Basic
// challenge before the store or the token look-up is reached, whatever
// its method; a request with credentials does reach them.
func TestNoCredentialsTouchNothing(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		st, tokens := &countingStore{Store: e.Store}, &countingTokens{Tokens: e.App.Auth}
		lim := ratelimit.New(st, ratelimit.Edge{}, e.Clock.Now)
		srv := httptestServer(t, dav.New(dav.Options{Store: st, Tokens: tokens, Drive: driveOf(t, e), Limiter: lim}))
		lock := `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>`
		noUser := "Basic " + base64.StdEncoding.EncodeToString([]byte(":"+d.token))
		for _, tc := range []struct {
			method, path, body string
			user, pass         string
			auth               string
		}{
			{"PROPFIND", "/dav/", "", "", "", ""},
			{"PROPFIND", "/dav/" + d.db + "/", "", "", "", ""},
			{"GET", "/dav/" + d.db + "/notes.txt", "", "", "", ""},
			{"HEAD", "/dav/" + d.db + "/notes.txt", "", "", "", ""},
			{"PUT", "/dav/" + d.db + "/notes.txt", "hello", "", "", ""},
			{"MKCOL", "/dav/" + d.db + "/Docs", "", "", "", ""},
			{"DELETE", "/dav/" + d.db + "/notes.txt", "", "", "", ""},
			{"LOCK", "/dav/" + d.db + "/notes.txt", lock, "", "", ""},
			{"OPTIONS", "/dav/" + d.db + "/", "", "", "", ""},
			{"PROPFIND", "/dav/" + d.db + "/", "", "ana@example.com", "", ""},
			{"PROPFIND", "/dav/" + d.db + "/", "", "", "", noUser},
			{"PROPFIND", "/dav/" + d.db + "/", "", "", "", "Bearer " + d.token},
		} {
			var headers []string
			if tc.auth != "" {
				headers = []string{"Authorization", tc.auth}
			}
			a := d.as(tc.user, tc.pass, tc.method, srv+tc.path, strings.NewReader(tc.body), headers...)
			if a.code != http.StatusUnauthorized || !strings.HasPrefix(a.header.Get("WWW-Authenticate"), "Basic ") {
				t.Errorf("%s %s (user %q): %d %v", tc.method, tc.path, tc.user, a.code, a.header)
			}
		}
		if n, m := st.calls.Load(), tokens.calls.Load(); n != 0 || m != 0 {
			t.Fatalf("requests without credentials reached the store %d times and the token look-up %d times", n, m)
		}
		d.expect(d.do("PROPFIND", srv+"/dav/"+d.db+"/", nil, "Depth", "1"), http.StatusMultiStatus)
		if st.calls.Load() == 0 || tokens.calls.Load() != 1 {
			t.Fatalf("a signed-in request: %d store calls, %d token look-ups", st.calls.Load(), tokens.calls.Load())
		}
	})
}

// functionURLContext is the request context the Lambda Web Adapter
// forwards for a Function URL invocation from ip (abridged).
func functionURLContext(ip string) string {
	return `{"routeKey":"$default","accountId":"anonymous","stage":"$default","domainName":"abc.lambda-url.us-east-1.on.aws",` +
		`"http":{"method":"PROPFIND","path":"/dav/","protocol":"HTTP/1.1","sourceIp":"` + ip + `","userAgent":"rclone/v1.60.1"}}`
}

func behindLambda(c *config.Config) { c.BehindLambdaWebAdapter = true }

// TestSignInFailuresPerAddress: on both stores, behind the Lambda Web
// Adapter (every connection from loopback), failed sign-ins count per
// caller as the Function URL's request context names it: after 20 the
// caller gets 429 with Retry-After — even with a good token, and without
// its token being looked up — while another caller signs in; the next
// window lets it in again. Requests without credentials stay 401.
func TestSignInFailuresPerAddress(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		e.Clock.Advance(time.Until(e.Clock.Now().Truncate(15*time.Minute).Add(15*time.Minute)) + time.Second)
		attacker, ana := functionURLContext("203.0.113.77"), functionURLContext("198.51.100.8")
		root := d.url("")
		for i := range dav.SignInFailures.Max {
			a := d.as("ana@example.com", "oft_guess"+strings.Repeat("x", i), "PROPFIND", root, nil, ratelimit.RequestContextHeader, attacker)
			if a.code != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d %s", i+1, a.code, a.body)
			}
		}
		blocked := d.as("ana@example.com", d.token, "PROPFIND", root, nil, ratelimit.RequestContextHeader, attacker)
		if blocked.code != http.StatusTooManyRequests || blocked.header.Get("Retry-After") == "" || !strings.Contains(blocked.body, "Too many requests") {
			t.Fatalf("after %d failures: %d %v %s", dav.SignInFailures.Max, blocked.code, blocked.header, blocked.body)
		}
		// Another caller signs in meanwhile.
		d.expect(d.as("ana@example.com", d.token, "PROPFIND", root, nil, ratelimit.RequestContextHeader, ana, "Depth", "0"), http.StatusMultiStatus)
		d.expect(d.as("", "", "PROPFIND", root, nil, ratelimit.RequestContextHeader, attacker), http.StatusUnauthorized)
		e.Clock.Advance(dav.SignInFailures.Per)
		d.expect(d.as("ana@example.com", d.token, "PROPFIND", root, nil, ratelimit.RequestContextHeader, attacker, "Depth", "0"), http.StatusMultiStatus)
	}, behindLambda)
}

// TestSignInFailuresOffLambda: without the adapter (App Runner, Fargate,
// the local server) the request-context header is the client's own and
// does not count: every failure is the connection's, here loopback's.
func TestSignInFailuresOffLambda(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	d := newEnv(t, e)
	e.Clock.Advance(time.Until(e.Clock.Now().Truncate(15*time.Minute).Add(15*time.Minute)) + time.Second)
	for i := range dav.SignInFailures.Max {
		d.expect(d.as("ana@example.com", "oft_wrong", "PROPFIND", d.url(""), nil,
			ratelimit.RequestContextHeader, functionURLContext(fmt.Sprintf("203.0.113.%d", i))), http.StatusUnauthorized)
	}
	d.expect(d.as("ana@example.com", d.token, "PROPFIND", d.url(""), nil,
		ratelimit.RequestContextHeader, functionURLContext("198.51.100.8")), http.StatusTooManyRequests)
}

func smallPuts(c *config.Config) { c.DavMaxPut = 1000 }

// TestPutTooLarge: on both stores, with --dav-max-put 1000 (the stack
// sets Lambda's), a PUT declaring more — Content-Length, or macOS's
// X-Expected-Entity-Length on a chunked body — gets 413 naming the limit
// and the App Runner / Fargate way before its body is read; a chunked
// body gets it as soon as it passes the limit. Nothing is stored, and a
// file already there keeps its content.
func TestPutTooLarge(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		d.expect(d.do("PUT", "kept.txt", strings.NewReader("old")), http.StatusCreated)
		big := bytes.Repeat([]byte("x"), 1001)
		e.Drain()
		e.Unchanged(d.db, func() {
			for _, tc := range []struct {
				name    string
				path    string
				body    io.Reader
				headers []string
			}{
				{"declared", "big.bin", bytes.NewReader(big), nil},
				{"chunked", "big.bin", chunked{bytes.NewReader(big)}, nil},
				{"macOS declares a chunked body", "big.bin", chunked{strings.NewReader("small")}, []string{dav.ExpectedLengthHeader, "5000000"}},
				{"over a file", "kept.txt", chunked{bytes.NewReader(big)}, nil},
				{"unauthenticated", "big.bin", bytes.NewReader(big), nil},
			} {
				var a answer
				if tc.name == "unauthenticated" {
					a = d.as("", "", "PUT", tc.path, tc.body)
				} else {
					a = d.do("PUT", tc.path, tc.body, tc.headers...)
				}
				if a.code != http.StatusRequestEntityTooLarge || !strings.Contains(a.body, "at most 1,000 bytes") ||
					!strings.Contains(a.body, "App Runner or Fargate") || !strings.Contains(a.body, "6 MB") {
					t.Errorf("%s: %d %s", tc.name, a.code, a.body)
				}
			}
		})
		d.expect(d.do("GET", "big.bin", nil), http.StatusNotFound)
		if a := d.expect(d.do("GET", "kept.txt", nil), http.StatusOK); a.body != "old" {
			t.Errorf("kept.txt now holds %q", a.body)
		}
		e.Drain()
		if names := d.rootNames(); len(names) != 1 {
			t.Errorf("the drive lists %v", names)
		}
		// At the limit it goes in, chunked or not.
		d.expect(d.do("PUT", "fits.bin", bytes.NewReader(big[:1000])), http.StatusCreated)
		d.expect(d.do("PUT", "fits2.bin", chunked{bytes.NewReader(big[:1000])}), http.StatusCreated)
	}, smallPuts)
}

// failingBody gives n bytes, then fails as a dropped connection does.
type failingBody struct{ n int }

func (f *failingBody) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	k := min(len(p), f.n)
	for i := range k {
		p[i] = 'y'
	}
	f.n -= k
	return k, nil
}
func (f *failingBody) Close() error { return nil }

// TestPutBodyLost: a PUT whose body stops arriving stores nothing (before,
// what had arrived became the file's newest version).
func TestPutBodyLost(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		d := newEnv(t, e)
		d.expect(d.do("PUT", "kept.txt", strings.NewReader("old")), http.StatusCreated)
		e.Drain()
		e.Unchanged(d.db, func() {
			for _, name := range []string{"new.bin", "kept.txt"} {
				req := httptest.NewRequest("PUT", d.url(name), &failingBody{n: 70_000})
				req.ContentLength = -1
				req.SetBasicAuth("ana@example.com", d.token)
				rec := httptest.NewRecorder()
				e.App.DAV.ServeHTTP(rec, req)
				if rec.Code < 400 {
					t.Errorf("%s: %d", name, rec.Code)
				}
			}
		})
		d.expect(d.do("GET", "new.bin", nil), http.StatusNotFound)
		if a := d.expect(d.do("GET", "kept.txt", nil), http.StatusOK); a.body != "old" {
			t.Errorf("kept.txt now holds %d bytes", len(a.body))
		}
	})
}

func redirectAbove(c *config.Config) { c.DavRedirectAbove = 1000 }

// TestLargeGetRedirects: with --dav-redirect-above 1000 (the stack sets
// the Function URL's response limit) and the drive on S3, on both stores,
// a GET of a larger file answers 302 to a presigned GET that serves its
// bytes (ranges too, since clients send them again); smaller files, HEAD
// and PROPFIND are answered here. The filesystem store presigns nothing,
// so there every file is served by the server.
func TestLargeGetRedirects(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789"), 300)
	check := func(t *testing.T, e *apptest.Env, redirects bool) {
		d := newEnv(t, e)
		d.client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		d.expect(d.do("PUT", "big.bin", bytes.NewReader(big)), http.StatusCreated)
		d.expect(d.do("PUT", "small.txt", strings.NewReader("small")), http.StatusCreated)
		if a := d.expect(d.do("GET", "small.txt", nil), http.StatusOK); a.body != "small" {
			t.Errorf("small: %q", a.body)
		}
		if a := d.expect(d.do("HEAD", "big.bin", nil), http.StatusOK); a.header.Get("Content-Length") != "3000" {
			t.Errorf("HEAD: %v", a.header)
		}
		a := d.do("GET", "big.bin", nil)
		if !redirects {
			if a.code != http.StatusOK || a.body != string(big) {
				t.Fatalf("filesystem: %d, %d bytes", a.code, len(a.body))
			}
			return
		}
		loc := a.header.Get("Location")
		if a.code != http.StatusFound || !strings.Contains(loc, "X-Amz-Signature=") || a.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("GET big: %d %v %s", a.code, a.header, a.body)
		}
		res, err := http.Get(loc)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !bytes.Equal(got, big) {
			t.Fatalf("the presigned GET: %d, %d bytes", res.StatusCode, len(got))
		}
		// A client that follows the redirect sends its Range again.
		d.client = &http.Client{}
		if a := d.do("GET", "big.bin", nil, "Range", "bytes=10-19"); a.code != http.StatusPartialContent || a.body != "0123456789" {
			t.Errorf("range through the redirect: %d %q", a.code, a.body)
		}
		d.expect(d.do("GET", "missing.bin", nil), http.StatusNotFound)
	}
	t.Run("s3", func(t *testing.T) {
		for _, b := range apptest.Backends {
			t.Run(string(b), func(t *testing.T) { check(t, apptest.New(t, b, redirectAbove, apptest.S3Blobs(t)), true) })
		}
	})
	t.Run("filesystem", func(t *testing.T) { check(t, apptest.New(t, apptest.Bolt, redirectAbove), false) })
}
