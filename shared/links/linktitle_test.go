package links_test

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/links"
)

// loopback lets the guarded fetcher reach the tests' page server (loopback,
// any port), as the reader's tests do; production refuses loopback.
func loopback(c *config.Config) {
	c.FetchAllowNets = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	c.FetchAnyPort = true
}

// pageServer serves the pages a bookmark's title is read from.
func pageServer(t *testing.T) *httptest.Server {
	pages := map[string]struct{ ct, body string }{
		"/ok":       {"text/html; charset=utf-8", "<!doctype html><html><head><title>\n  Manual &amp; parts —\tX200 </title></head><body><h1>Other</h1></body></html>"},
		"/latin1":   {"text/html; charset=iso-8859-1", "<html><head><title>Manuten\xe7\xe3o</title></head></html>"},
		"/meta":     {"text/html", "<html><head><meta charset=\"windows-1252\"><title>Caf\xe9</title></head></html>"},
		"/og":       {"text/html", `<html><head><meta property="og:title" content="From Open Graph"></head><body>x</body></html>`},
		"/svg":      {"text/html", `<html><body><svg><title>icon</title></svg><p>no head title</p></body></html>`},
		"/notitle":  {"text/html", "<html><head></head><body><p>Nothing</p></body></html>"},
		"/blank":    {"text/html", "<html><head><title>   </title></head></html>"},
		"/hostile":  {"text/html", `<html><head><title><script>alert(1)</script><img src=x onerror=alert(2)> Manual</title></head></html>`},
		"/pdf":      {"application/pdf", "%PDF-1.7\n..."},
		"/json":     {"application/json", `{"title":"not a page"}`},
		"/sniffed":  {"", "<!DOCTYPE html><html><head><title>Sniffed</title></head></html>"},
		"/xhtml":    {"application/xhtml+xml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>XHTML page</title></head></html>`},
		"/long":     {"text/html", "<title>" + strings.Repeat("a", 900) + "</title>"},
		"/redirect": {"", ""},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/ok", http.StatusMovedPermanently)
			return
		}
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if p.ct != "" {
			w.Header().Set("Content-Type", p.ct)
		} else {
			w.Header()["Content-Type"] = nil // no type: the body is sniffed
		}
		_, _ = w.Write([]byte(p.body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBookmarkTitle: the title is read from the page through the reader's
// fetch guard; every failure is a 422 on url saying why, and nothing is
// stored either way.
func TestBookmarkTitle(t *testing.T) {
	srv := pageServer(t)
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newGroups(e)
		title := func(path string) apptest.Response {
			return w.ana.Do("POST", "/api/"+w.db+"/_links/title", map[string]any{"url": srv.URL + path})
		}
		e.Unchanged(w.db, func() {
			for path, want := range map[string]string{
				"/ok":       "Manual & parts — X200",
				"/latin1":   "Manutenção",
				"/meta":     "Café",
				"/og":       "From Open Graph",
				"/sniffed":  "Sniffed",
				"/xhtml":    "XHTML page",
				"/redirect": "Manual & parts — X200",
				// A title is text: markup in it stays text (the SPA and the export escape it).
				"/hostile": `<script>alert(1)</script><img src=x onerror=alert(2)> Manual`,
				"/long":    strings.Repeat("a", 500),
			} {
				got := title(path).Expect(t, http.StatusOK)
				if got["title"] != want {
					t.Errorf("%s: title %q, want %q", path, got["title"], want)
				}
			}
			if got := title("/redirect").Expect(t, http.StatusOK); got["url"] != srv.URL+"/ok" {
				t.Errorf("redirect: url %v", got["url"])
			}
			for path, msg := range map[string]string{
				"/pdf":     links.MsgTitleNotHTML,
				"/json":    links.MsgTitleNotHTML,
				"/notitle": links.MsgTitleMissing,
				"/blank":   links.MsgTitleMissing,
				"/svg":     links.MsgTitleMissing,
				"/missing": links.MsgTitleUnreachable,
			} {
				title(path).ExpectFields(t, "url", msg)
			}
			r := title("/pdf").ExpectFields(t, "url", links.MsgTitleNotHTML)
			if f := r["fields"].(map[string]any)["url"].([]any); len(f) != 2 || f[1] != "application/pdf" {
				t.Errorf("pdf: %v", f)
			}
			title("/missing").ExpectFields(t, "url", "HTTP 404 Not Found")
			for _, bad := range []string{"", "ftp://example.com/x", "javascript:alert(1)", "not a url", "http://"} {
				msg := "is invalid"
				if bad == "" {
					msg = "can't be blank"
				}
				w.ana.Do("POST", "/api/"+w.db+"/_links/title", map[string]any{"url": bad}).ExpectFields(t, "url", msg)
			}
			w.ana.Do("POST", "/api/"+w.db+"/_links/title", "not an object").ExpectError(t, http.StatusBadRequest, "")
			// Another Group's member cannot use Ana's Group to fetch.
			w.zed.Do("POST", "/api/"+w.db+"/_links/title", map[string]any{"url": srv.URL + "/ok"}).ExpectError(t, http.StatusForbidden, "")
		})
	}, loopback)
}

// TestBookmarkTitleGuard: with the production guard, a loopback page (the
// server's own network) is refused, not fetched.
func TestBookmarkTitleGuard(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		_, _ = w.Write([]byte("<title>internal</title>"))
	}))
	t.Cleanup(srv.Close)
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newGroups(e)
		e.Unchanged(w.db, func() {
			for _, u := range []string{srv.URL + "/admin", "http://127.0.0.1/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/"} {
				w.ana.Do("POST", "/api/"+w.db+"/_links/title", map[string]any{"url": u}).ExpectFields(t, "url", links.MsgTitleBlocked)
			}
		})
	})
	if hits != 0 {
		t.Fatalf("the guard let %d requests through", hits)
	}
}
