package reader_test

import (
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
)

// TestFeedSiteAddress: a feed's own link is copied into the subscription's
// website only as a web address (issue 22 item 11: URL fields hold URLs on
// every write path, the reader's own included). A relative link reads
// against the feed; one that is no address is left out — subscribing and
// refreshing never fail on it.
func TestFeedSiteAddress(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		now := e.Clock.Now()
		one := item{guid: "1", title: "One", link: srv.url("/posts/1"), content: "first", posted: now.Add(-time.Hour)}
		srv.serve("/relative.xml", "application/rss+xml", rss("Relative", "/blog/", one))
		srv.serve("/junk.xml", "application/rss+xml", rss("Junk", "javascript:alert(1)", one))
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")

		rel := e.Doc(db, subscribe(t, ana, db, map[string]any{"url": srv.url("/relative.xml")})["id"].(string))
		if rel["website_url"] != srv.url("/blog/") {
			t.Errorf("relative site link: website_url %v", rel["website_url"])
		}
		junk := e.Doc(db, subscribe(t, ana, db, map[string]any{"url": srv.url("/junk.xml")})["id"].(string))
		if _, set := junk["website_url"]; set {
			t.Errorf("a site link that is no address was kept: %v", junk["website_url"])
		}

		// The relative feed's link turns to junk: the refresh still reads it.
		srv.serve("/relative.xml", "application/rss+xml", rss("Relative", "javascript:alert(1)", one))
		e.Clock.Advance(61 * time.Minute)
		round(t, e)
		rel = e.Doc(db, rel["_id"].(string))
		if rel["fetch_status"] != "ok" || rel["website_url"] != srv.url("/blog/") {
			t.Errorf("after a refresh: fetch_status %v, website_url %v", rel["fetch_status"], rel["website_url"])
		}
	}, loopback)
}
