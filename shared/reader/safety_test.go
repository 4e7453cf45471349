package reader_test

import (
	"fmt"
	"maps"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/htmlsafe/xsstest"
)

// TestGuardRefuses: with the default guard (the production setting), a
// feed on loopback is refused by its address, whatever the port; with only
// 127.0.0.1 allowed, a feed that redirects to a private, link-local or
// metadata address is refused too. Nothing is written.
func TestGuardRefuses(t *testing.T) {
	anyPort := func(c *config.Config) { c.FetchAnyPort = true }
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		srv.serve("/feed.xml", "application/rss+xml", rss("Internal", srv.url("/"), item{guid: "1", title: "secret"}))
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		port := srv.Listener.Addr().(interface{ String() string }).String()
		_, p, _ := strings.Cut(port, ":")
		e.Unchanged(db, func() {
			for _, u := range []string{
				srv.url("/feed.xml"),
				"http://localhost:" + p + "/feed.xml",
				"http://[::1]:" + p + "/feed.xml",
				"http://169.254.169.254/latest/meta-data/",
				"http://10.0.0.1/feed",
				"http://[fd00:ec2::254]/",
			} {
				ana.Do("POST", "/api/"+db+"/_reader/subscriptions", map[string]any{"url": u}).ExpectFields(t, "url", "is not allowed")
			}
		})
		if hits, _ := srv.hitsOf("/feed.xml"); hits != 0 {
			t.Fatalf("the guard let %d requests through", hits)
		}
	}, anyPort)

	// Ports other than 80 and 443 are refused unless configured.
	e := apptest.New(t, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "G")
	e.Unchanged(db, func() {
		for _, u := range []string{"http://feeds.example:8080/rss", "ftp://feeds.example/rss", "file:///etc/passwd", "javascript:alert(1)"} {
			r := ana.Do("POST", "/api/"+db+"/_reader/subscriptions", map[string]any{"url": u})
			if r.Code != http.StatusUnprocessableEntity {
				t.Errorf("%s: %d %s", u, r.Code, r.Body)
			}
		}
	})

	onlyV4 := func(c *config.Config) {
		c.FetchAllowNets = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
		c.FetchAnyPort = true
	}
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		for _, target := range []string{"http://169.254.169.254/latest/meta-data/", "http://192.168.1.1/feed", "http://[::1]:1/feed", "http://100.64.0.1/feed"} {
			path := "/to/" + fmt.Sprint(len(target))
			srv.handle(path, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, target, http.StatusFound) })
		}
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		e.Unchanged(db, func() {
			for _, target := range []string{"http://169.254.169.254/latest/meta-data/", "http://192.168.1.1/feed", "http://[::1]:1/feed", "http://100.64.0.1/feed"} {
				ana.Do("POST", "/api/"+db+"/_reader/subscriptions", map[string]any{"url": srv.url("/to/" + fmt.Sprint(len(target)))}).ExpectFields(t, "url", "is not allowed")
			}
		})

		// A subscription made without fetching (an import) to the metadata
		// service is refused at fetch time; its status says why.
		sub := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderSubscription", "url": "http://169.254.169.254/latest/meta-data/"}).Expect(t, http.StatusCreated)
		e.Drain()
		round(t, e)
		got := e.Doc(db, sub["id"].(string))
		if got["fetch_status"] != "error" || got["fetch_error"] != "refused: cloud metadata service" {
			t.Fatalf("subscription %v", got)
		}
	}, onlyV4)
}

// TestXSSItemsInert: a feed whose items carry the whole XSS corpus (and a
// hostile title and link) is stored inert; so is the same content written
// by a member through PUT and _bulk_docs.
func TestXSSItemsInert(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		payloads := xsstest.Payloads()
		var its []item
		now := e.Clock.Now()
		for i, p := range payloads {
			its = append(its, item{guid: fmt.Sprint(i), title: "<script>alert(1)</script>t" + fmt.Sprint(i), link: "javascript:alert(1)", content: p, posted: now.Add(-time.Duration(i) * time.Minute)})
		}
		srv.serve("/xss.xml", "application/rss+xml", rss("XSS <img src=x onerror=alert(1)>", "javascript:alert(1)", its[:100]...))
		srv.serve("/xss2.xml", "application/rss+xml", rss("XSS 2", srv.url("/"), its[100:]...))
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		subscribe(t, ana, db, map[string]any{"url": srv.url("/xss.xml")})
		subscribe(t, ana, db, map[string]any{"url": srv.url("/xss2.xml")})
		all := items(t, e, ana, db)
		if len(all) != len(payloads) {
			t.Fatalf("%d items for %d payloads", len(all), len(payloads))
		}
		for _, it := range all {
			if err := xsstest.CheckInert(fmt.Sprint(it["content"])); err != nil {
				t.Errorf("item %v: %v\n%s", it["title"], err, it["content"])
			}
			if it["url"] != nil || strings.Contains(fmt.Sprint(it["title"]), "<") {
				t.Errorf("item url %v title %v", it["url"], it["title"])
			}
		}
		// A member writing an item through the document API: sanitised too.
		// (A "text" item keeps its content as text, which the SPA shows as
		// text, so the item written here is an html one.)
		some := all[slices.Min(slices.Collect(maps.Keys(all)))]
		some["content_type"] = "html"
		some["content"] = `<p>ok</p><script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a>`
		ana.Do("PUT", "/api/"+db+"/"+some["_id"].(string), some).Expect(t, http.StatusCreated)
		if got := e.Doc(db, some["_id"].(string))["content"].(string); xsstest.CheckInert(got) != nil || !strings.Contains(got, "<p>ok</p>") {
			t.Fatalf("PUT stored %q", got)
		}
		res := ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": []any{
			map[string]any{"klass": "ReaderItem", "title": "saved", "url": "https://x.example/", "content": payloads[0] + payloads[5]},
		}}).Expect(t, http.StatusCreated)
		_ = res
		for _, it := range items(t, e, ana, db) {
			if it["title"] == "saved" {
				if err := xsstest.CheckInert(it["content"].(string)); err != nil {
					t.Fatalf("_bulk_docs stored %q: %v", it["content"], err)
				}
			}
		}
		// A javascript: URL is refused on items and subscriptions.
		e.Unchanged(db, func() {
			ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderItem", "title": "x", "url": "javascript:alert(1)"}).ExpectFields(t, "url", "is invalid")
			ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderSubscription", "url": "javascript:alert(1)"}).ExpectFields(t, "url", "is invalid")
		})
	}, loopback)
}

// TestHugeItem: an item larger than a document may be is cut and stored;
// the feed is not refused.
func TestHugeItem(t *testing.T) {
	e := apptest.New(t, apptest.Bolt, loopback)
	srv := newFeedServer(t)
	huge := "<p>" + strings.Repeat("palavra ", 200_000) + "</p>"
	srv.serve("/big.xml", "application/rss+xml", rss("Big", srv.url("/"), item{guid: "1", title: "Huge", content: huge, posted: e.Clock.Now()}, item{guid: "2", title: "Small", posted: e.Clock.Now()}))
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "G")
	if res := subscribe(t, ana, db, map[string]any{"url": srv.url("/big.xml")}); res["items"] != float64(2) {
		t.Fatalf("subscribe %v", res)
	}
	got := byTitle(items(t, e, ana, db), "Huge")["content"].(string)
	if len(got) > 160_000 || len(got) < 100_000 || !strings.HasPrefix(got, "<p>palavra") {
		t.Fatalf("huge content stored with %d bytes", len(got))
	}
}
