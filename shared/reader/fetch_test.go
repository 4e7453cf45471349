package reader_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
)

// TestSubscribeFetchDedupe: subscribing fetches the feed and writes its
// items as the reader; a re-fetch never duplicates an item, an edited item
// is updated in place (keeping its read and starred flags), a new one is
// added; a 304 writes nothing; the feed's title and site fill the
// subscription. The same through the job dispatcher's rounds.
func TestSubscribeFetchDedupe(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		now := e.Clock.Now()
		one := item{guid: "1", title: "One", link: srv.url("/posts/1"), content: "<p>first</p>", posted: now.Add(-3 * time.Hour)}
		two := item{guid: "2", title: "Two", link: srv.url("/posts/2"), content: "<p>second</p>", posted: now.Add(-2 * time.Hour)}
		// Served as text/html: the content type lies, the body decides.
		srv.serve("/feed.xml", "text/html", rss("Bike Shop News", srv.url("/"), two, one))

		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		res := subscribe(t, ana, db, map[string]any{"url": srv.url("/feed.xml")})
		if res["items"] != float64(2) || res["title"] != "Bike Shop News" {
			t.Fatalf("subscribe answered %v", res)
		}
		sub := e.Doc(db, res["id"].(string))
		if sub["website_url"] != srv.url("/") || sub["fetch_status"] != "ok" || sub["created_by"].(map[string]any)["_id"] != ana.ID {
			t.Fatalf("subscription %v", sub)
		}
		all := items(t, e, ana, db)
		if len(all) != 2 {
			t.Fatalf("%d items", len(all))
		}
		first := byTitle(all, "One")
		if first["read"] != false || first["starred"] != false || first["content"] != "<p>first</p>" || first["reader_subscription_id"] != res["id"] ||
			first["created_by"].(map[string]any)["label"] != "exoreader" || first["summary"] != "first" {
			t.Fatalf("item %v", first)
		}
		firstID := first["_id"].(string)
		ana.Do("PUT", "/api/"+db+"/_design/status/_update/read/"+firstID, map[string]any{}).Expect(t, http.StatusOK)
		ana.Do("PUT", "/api/"+db+"/_design/status/_update/star/"+firstID, map[string]any{}).Expect(t, http.StatusOK)

		// Not due yet: a round fetches nothing.
		round(t, e)
		if hits, _ := srv.hitsOf("/feed.xml"); hits != 1 {
			t.Fatalf("%d fetches before the interval", hits)
		}
		// Due, unchanged: a conditional GET, a 304, nothing written.
		e.Clock.Advance(61 * time.Minute)
		e.Unchanged(db, func() { round(t, e) })
		if hits, cond := srv.hitsOf("/feed.xml"); hits != 2 || cond != 1 {
			t.Fatalf("hits %d, conditional %d", hits, cond)
		}

		// Edited and added: updated in place, one more item, flags kept.
		one.content = "<p>first, edited</p>"
		three := item{guid: "3", title: "Three", link: srv.url("/posts/3"), content: "third", posted: now.Add(-time.Hour)}
		srv.serve("/feed.xml", "application/rss+xml", rss("Bike Shop News", srv.url("/"), three, two, one))
		e.Clock.Advance(61 * time.Minute)
		round(t, e)
		all = items(t, e, ana, db)
		if len(all) != 3 {
			t.Fatalf("%d items after the edit", len(all))
		}
		edited := all[firstID]
		if edited == nil || edited["content"] != "<p>first, edited</p>" || edited["read"] != true || edited["starred"] != true || !strings.HasPrefix(edited["_rev"].(string), "4-") {
			t.Fatalf("edited item %v", edited)
		}
		// The same content again: nothing written.
		e.Clock.Advance(61 * time.Minute)
		srv.serve("/feed.xml", "application/rss+xml", rss("Bike Shop News", srv.url("/"), three, two, one)+" ") // a new ETag
		e.Unchanged(db, func() { round(t, e) })
		e.CheckCounts(db)
		e.Replay(3)
		e.CheckCounts(db)
	}, loopback)
}

// TestFanOut: a URL followed by two Groups is fetched once per round and
// its items reach both; each Group's items are its own.
func TestFanOut(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		now := e.Clock.Now()
		srv.serve("/shared.xml", "application/rss+xml", rss("Shared", srv.url("/"), item{guid: "a", title: "A", posted: now.Add(-time.Hour)}))
		ana, bob := e.SignUp("ana@example.com"), e.SignUp("bob@example.com")
		a, b := e.Group(ana, "A"), e.Group(bob, "B")
		subscribe(t, ana, a, map[string]any{"url": srv.url("/shared.xml")})
		subscribe(t, bob, b, map[string]any{"url": srv.url("/shared.xml"), "refresh_interval": 30})
		e.Drain()
		if hits, _ := srv.hitsOf("/shared.xml"); hits != 2 {
			t.Fatalf("%d fetches to subscribe twice", hits)
		}
		srv.serve("/shared.xml", "application/rss+xml", rss("Shared", srv.url("/"),
			item{guid: "b", title: "B", posted: now.Add(-time.Minute)}, item{guid: "a", title: "A", posted: now.Add(-time.Hour)}))
		// Due by the shorter interval of the two.
		e.Clock.Advance(31 * time.Minute)
		round(t, e)
		if hits, _ := srv.hitsOf("/shared.xml"); hits != 3 {
			t.Fatalf("%d fetches after one round, want one more", hits)
		}
		for _, g := range []struct {
			c  *apptest.Client
			db string
		}{{ana, a}, {bob, b}} {
			all := items(t, e, g.c, g.db)
			if len(all) != 2 || byTitle(all, "B") == nil {
				t.Fatalf("%s has %d items", g.db, len(all))
			}
		}
		// Ana reading an item leaves Bob's unread.
		aItem := byTitle(items(t, e, ana, a), "B")["_id"].(string)
		ana.Do("PUT", "/api/"+a+"/_design/status/_update/read/"+aItem, map[string]any{}).Expect(t, http.StatusOK)
		if byTitle(items(t, e, bob, b), "B")["read"] != false {
			t.Fatal("Bob's item was marked read")
		}
		// Bob cannot touch Ana's item.
		e.Unchanged(a, func() {
			bob.Do("PUT", "/api/"+a+"/_design/status/_update/unread/"+aItem, map[string]any{}).ExpectError(t, http.StatusForbidden, "")
		})
	}, loopback)
}

// TestErrorsBackoffAndRecovery: a failing feed backs off (the interval
// doubled per failure in a row), the subscription shows the last error,
// written once when the status changes (not at every failure), and
// recovers.
func TestErrorsBackoffAndRecovery(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		srv.serve("/f.xml", "application/rss+xml", rss("F", srv.url("/"), item{guid: "1", title: "One", posted: e.Clock.Now()}))
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		id := subscribe(t, ana, db, map[string]any{"url": srv.url("/f.xml")})["id"].(string)

		srv.handle("/f.xml", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) })
		e.Clock.Advance(61 * time.Minute)
		round(t, e)
		sub := e.Doc(db, id)
		if sub["fetch_status"] != "error" || sub["fetch_error"] != "HTTP 500 Internal Server Error" {
			t.Fatalf("subscription after a failure: %v", sub)
		}
		st := ana.Do("GET", "/api/"+db+"/_reader/subscriptions/"+id+"/status", nil).Expect(t, http.StatusOK)
		checked, _ := time.Parse(time.RFC3339, st["checked_at"].(string))
		next, _ := time.Parse(time.RFC3339, st["next_at"].(string))
		if st["errors"] != float64(1) || st["last_status"] != float64(500) || next.Sub(checked) != 2*time.Hour {
			t.Fatalf("status %v", st)
		}
		// Not due during the back-off.
		e.Clock.Advance(61 * time.Minute)
		round(t, e)
		if hits, _ := srv.hitsOf("/f.xml"); hits != 2 {
			t.Fatalf("%d fetches during the back-off", hits)
		}
		// The second failure in a row: four hours; the subscription is not written again.
		e.Clock.Advance(61 * time.Minute)
		e.Unchanged(db, func() { round(t, e) })
		st = ana.Do("GET", "/api/"+db+"/_reader/subscriptions/"+id+"/status", nil).Expect(t, http.StatusOK)
		if st["errors"] != float64(2) {
			t.Fatalf("status %v", st)
		}
		// A member's refresh ignores the back-off (once a minute at most) and recovers.
		srv.serve("/f.xml", "application/rss+xml", rss("F", srv.url("/"), item{guid: "1", title: "One", posted: e.Clock.Now()}))
		e.Clock.Advance(2 * time.Minute)
		res := ana.Do("POST", "/api/"+db+"/_reader/subscriptions/"+id+"/refresh", map[string]any{}).Expect(t, http.StatusOK)
		if res["feeds"] != float64(1) || res["failed"] != float64(0) {
			t.Fatalf("refresh %v", res)
		}
		if sub := e.Doc(db, id); sub["fetch_status"] != "ok" || sub["fetch_error"] != nil {
			t.Fatalf("subscription after recovery: %v", sub)
		}
		res = ana.Do("POST", "/api/"+db+"/_reader/refresh", map[string]any{}).Expect(t, http.StatusOK)
		if res["feeds"] != float64(0) {
			t.Fatalf("a second refresh within a minute fetched: %v", res)
		}
		// A client cannot forge the status.
		sub = e.Doc(db, id)
		sub["fetch_status"], sub["fetch_error"] = "error", "forged"
		ana.Do("PUT", "/api/"+db+"/"+id, sub).Expect(t, http.StatusCreated)
		if sub := e.Doc(db, id); sub["fetch_status"] != "ok" || sub["fetch_error"] != nil {
			t.Fatalf("forged status stored: %v", sub)
		}
	}, loopback)
}

// TestRedirectsAndDiscovery: a web page is searched for its feed; a
// permanent redirect moves the subscription to the new URL, a temporary
// one does not.
func TestRedirectsAndDiscovery(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		feed := rss("Moving", srv.url("/"), item{guid: "1", title: "One", posted: e.Clock.Now()})
		srv.serve("/blog/feed.atom", "application/rss+xml", feed)
		srv.serve("/blog/", "text/html; charset=utf-8", `<!doctype html><html><head><link rel="alternate" type="application/atom+xml" href="feed.atom"></head><body>Hi</body></html>`)
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		res := subscribe(t, ana, db, map[string]any{"url": srv.url("/blog/")})
		if res["url"] != srv.url("/blog/feed.atom") || res["items"] != float64(1) {
			t.Fatalf("discovery: %v", res)
		}
		id := res["id"].(string)
		// Subscribing the same feed again, by page or by URL: taken.
		e.Unchanged(db, func() {
			ana.Do("POST", "/api/"+db+"/_reader/subscriptions", map[string]any{"url": srv.url("/blog/")}).ExpectFields(t, "url", "has already been taken")
			ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderSubscription", "url": strings.ToUpper(srv.url("/blog/feed.atom")[:4]) + srv.url("/blog/feed.atom")[4:]}).ExpectFields(t, "url", "has already been taken")
		})

		// Temporarily elsewhere: followed, not remembered.
		srv.serve("/elsewhere.xml", "application/rss+xml", feed)
		srv.handle("/blog/feed.atom", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere.xml", http.StatusFound)
		})
		e.Clock.Advance(61 * time.Minute)
		round(t, e)
		if e.Doc(db, id)["url"] != srv.url("/blog/feed.atom") {
			t.Fatal("a temporary redirect moved the subscription")
		}
		// Moved for good.
		srv.serve("/new/feed.xml", "application/rss+xml", feed)
		srv.handle("/blog/feed.atom", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/new/feed.xml", http.StatusMovedPermanently)
		})
		e.Clock.Advance(61 * time.Minute)
		round(t, e)
		if got := e.Doc(db, id)["url"]; got != srv.url("/new/feed.xml") {
			t.Fatalf("after a permanent redirect the subscription is at %v", got)
		}
		e.Drain()
		// The next round asks the new URL directly.
		before, _ := srv.hitsOf("/blog/feed.atom")
		e.Clock.Advance(61 * time.Minute)
		round(t, e)
		if after, _ := srv.hitsOf("/blog/feed.atom"); after != before {
			t.Fatal("the old URL is still fetched")
		}
		if n, _ := srv.hitsOf("/new/feed.xml"); n < 2 {
			t.Fatalf("the new URL was fetched %d times", n)
		}
		if len(items(t, e, ana, db)) != 1 {
			t.Fatal("the move duplicated items")
		}
	}, loopback)
}

// TestNewSubscriberGetsItems: a Group that starts following a URL another
// Group fetched a moment ago (an import, a plain POST) gets the feed's
// items on its refresh, although the URL was checked less than a minute
// ago and would answer 304 to a conditional request.
func TestNewSubscriberGetsItems(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		srv.serve("/f.xml", "application/rss+xml", rss("F", srv.url("/"), item{guid: "1", title: "One", posted: e.Clock.Now()}, item{guid: "2", title: "Two", posted: e.Clock.Now()}))
		ana, bob := e.SignUp("ana@example.com"), e.SignUp("bob@example.com")
		a, b := e.Group(ana, "A"), e.Group(bob, "B")
		subscribe(t, ana, a, map[string]any{"url": srv.url("/f.xml")})
		bob.Do("POST", "/api/"+b, map[string]any{"klass": "ReaderSubscription", "url": srv.url("/f.xml")}).Expect(t, http.StatusCreated)
		e.Drain()
		res := bob.Do("POST", "/api/"+b+"/_reader/refresh", map[string]any{}).Expect(t, http.StatusOK)
		if res["feeds"] != float64(1) || len(items(t, e, bob, b)) != 2 {
			t.Fatalf("refresh %v; Bob has %d items", res, len(items(t, e, bob, b)))
		}
		if _, cond := srv.hitsOf("/f.xml"); cond != 0 {
			t.Fatalf("%d conditional requests for an unseeded subscriber", cond)
		}
	}, loopback)
}
