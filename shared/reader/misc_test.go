package reader_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/htmlsafe/xsstest"
	"github.com/oficina/oficina/shared/reader"
)

// TestRetention: the retention job removes read, unstarred items posted
// before the retention (90 days by default) and keeps unread or starred
// ones; a feed that still lists a removed item does not bring it back, and
// entries older than the retention are not taken at all.
func TestRetention(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		now := e.Clock.Now()
		old := now.Add(-80 * 24 * time.Hour)
		its := []item{
			{guid: "read", title: "Read", posted: old},
			{guid: "unread", title: "Unread", posted: old},
			{guid: "starred", title: "Starred", posted: old},
			{guid: "fresh", title: "Fresh read", posted: now.Add(-time.Hour)},
			{guid: "ancient", title: "Ancient", posted: now.Add(-200 * 24 * time.Hour)},
		}
		srv.serve("/f.xml", "application/rss+xml", rss("F", srv.url("/"), its...))
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		if res := subscribe(t, ana, db, map[string]any{"url": srv.url("/f.xml")}); res["items"] != float64(4) {
			t.Fatalf("subscribe took %v items (the ancient one must be skipped)", res["items"])
		}
		all := items(t, e, ana, db)
		for _, title := range []string{"Read", "Fresh read", "Starred"} {
			ana.Do("PUT", "/api/"+db+"/_design/status/_update/read/"+byTitle(all, title)["_id"].(string), map[string]any{}).Expect(t, http.StatusOK)
		}
		ana.Do("PUT", "/api/"+db+"/_design/status/_update/star/"+byTitle(all, "Starred")["_id"].(string), map[string]any{}).Expect(t, http.StatusOK)

		run := func() {
			t.Helper()
			if err := e.App.RunJob(context.Background(), reader.JobRetention, e.Clock.Now()); err != nil {
				t.Fatal(err)
			}
		}
		e.Unchanged(db, run) // nothing is 90 days old yet
		e.Clock.Advance(11 * 24 * time.Hour)
		run()
		relogin(t, ana)
		left := items(t, e, ana, db)
		if len(left) != 3 || byTitle(left, "Read") != nil || byTitle(left, "Unread") == nil || byTitle(left, "Starred") == nil || byTitle(left, "Fresh read") == nil {
			t.Fatalf("after the retention: %v", titles(left))
		}
		// The feed still lists it: not brought back.
		srv.serve("/f.xml", "application/rss+xml", rss("F", srv.url("/"), its...)+" ")
		e.Clock.Advance(2 * time.Hour)
		round(t, e)
		if len(items(t, e, ana, db)) != 3 {
			t.Fatalf("a removed item came back: %v", titles(items(t, e, ana, db)))
		}
		e.CheckCounts(db)
	}, loopback)
}

// relogin signs c in again after the clock passed its session's end.
func relogin(t testing.TB, c *apptest.Client) {
	t.Helper()
	c.Do("POST", "/api/_session", map[string]any{"name": c.Email, "password": apptest.Password}).Expect(t, http.StatusOK)
}

func titles(all map[string]map[string]any) []string {
	var out []string
	for _, d := range all {
		out = append(out, fmt.Sprint(d["title"]))
	}
	return out
}

// TestLoadContent: "load content" fetches the original page through the
// guard, keeps its readable part, sanitised, and later fetches of the feed
// keep it; a page the guard refuses is a 422 that writes nothing.
func TestLoadContent(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		srv := newFeedServer(t)
		article := `<!doctype html><html><head><title>Fixing a bike</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Fixing a bike</h1>` + strings.Repeat(`<p>To true a wheel you need a spoke key, patience and a stand. Tighten the spokes a quarter turn at a time and check the rim against the brake pads.</p>`, 6) +
			`<p><img src="/img/wheel.jpg" alt="wheel"> <a href="/next">Next part</a></p><script>alert(1)</script><p onclick="alert(2)">Click</p></article>
<footer>Copyright <a href="/legal">legal</a></footer></body></html>`
		srv.serve("/posts/bike.html", "text/html; charset=utf-8", article)
		srv.serve("/f.xml", "application/rss+xml", rss("F", srv.url("/"), item{guid: "1", title: "Fixing a bike", link: srv.url("/posts/bike.html"), content: "<p>teaser</p>", posted: e.Clock.Now()}))
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		subscribe(t, ana, db, map[string]any{"url": srv.url("/f.xml")})
		id := byTitle(items(t, e, ana, db), "Fixing a bike")["_id"].(string)
		res := ana.Do("POST", "/api/"+db+"/_reader/items/"+id+"/content", map[string]any{}).Expect(t, http.StatusOK)
		content := res["content"].(string)
		if !strings.Contains(content, "spoke key") || strings.Contains(content, "Copyright") || xsstest.CheckInert(content) != nil ||
			!strings.Contains(content, srv.url("/img/wheel.jpg")) {
			t.Fatalf("loaded content %q", content)
		}
		doc := e.Doc(db, id)
		if doc["content"] != content || doc["content_loaded"] != true || doc["content_type"] != "html" || !strings.Contains(doc["summary"].(string), "spoke key") {
			t.Fatalf("stored %v", doc)
		}
		// The feed edits the teaser: the loaded content stays.
		srv.serve("/f.xml", "application/rss+xml", rss("F", srv.url("/"), item{guid: "1", title: "Fixing a bike (updated)", link: srv.url("/posts/bike.html"), content: "<p>new teaser</p>", posted: e.Clock.Now()}))
		e.Clock.Advance(2 * time.Hour)
		round(t, e)
		if doc := e.Doc(db, id); doc["content"] != content || doc["title"] != "Fixing a bike (updated)" {
			t.Fatalf("after a fetch %v", doc)
		}
		// Refusals.
		nolink := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderItem", "title": "no link"}).Expect(t, http.StatusCreated)["id"].(string)
		private := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderItem", "title": "private", "url": "http://10.1.2.3/secret"}).Expect(t, http.StatusCreated)["id"].(string)
		missing := ana.Do("POST", "/api/"+db, map[string]any{"klass": "ReaderItem", "title": "missing", "url": srv.url("/gone")}).Expect(t, http.StatusCreated)["id"].(string)
		e.Unchanged(db, func() {
			ana.Do("POST", "/api/"+db+"/_reader/items/"+nolink+"/content", map[string]any{}).ExpectFields(t, "url", "can't be blank")
			ana.Do("POST", "/api/"+db+"/_reader/items/"+private+"/content", map[string]any{}).ExpectError(t, http.StatusUnprocessableEntity, "")
			ana.Do("POST", "/api/"+db+"/_reader/items/"+missing+"/content", map[string]any{}).ExpectError(t, http.StatusUnprocessableEntity, "")
			ana.Do("POST", "/api/"+db+"/_reader/items/rit-00000000000000000000000000000000/content", map[string]any{}).ExpectError(t, http.StatusNotFound, "")
		})
	}, loopback)
}

// TestNotifications: the configured system notifications feed, fetched
// through the guard at most once an hour: only entries under 16 days old
// and in the UI language are shown; none configured, none shown.
func TestNotifications(t *testing.T) {
	srv := newFeedServer(t)
	withFeed := func(c *config.Config) {
		loopback(c)
		c.SystemNotificationsURL = srv.url("/news.xml")
	}
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		now := e.Clock.Now()
		feed := fmt.Sprintf(`<?xml version="1.0"?><rss version="2.0"><channel><title>Oficina news</title><link>https://oficina.example/</link><description>d</description><language>en</language>
<item><title>New: feed reader</title><link>https://oficina.example/news/reader</link><guid>1</guid><pubDate>%s</pubDate><description>Follow feeds with your Group.</description></item>
<item><title>Novo: leitor de feeds</title><link>https://oficina.example/pt/news/reader</link><guid>2</guid><category>pt-BR</category><pubDate>%s</pubDate><description>Siga feeds com seu Grupo.</description></item>
<item><title>Old news</title><guid>3</guid><pubDate>%s</pubDate></item>
<item><title>Notícia velha</title><guid>4</guid><category>lang:pt</category><pubDate>%s</pubDate></item>
</channel></rss>`, now.Add(-2*24*time.Hour).Format(time.RFC1123Z), now.Add(-3*24*time.Hour).Format(time.RFC1123Z),
			now.Add(-17*24*time.Hour).Format(time.RFC1123Z), now.Add(-20*24*time.Hour).Format(time.RFC1123Z))
		srv.serve("/news.xml", "application/rss+xml", feed)
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "G")
		get := func(locale string) []string {
			t.Helper()
			res := ana.Do("GET", "/api/"+db+"/_reader/notifications?locale="+locale, nil).Expect(t, http.StatusOK)
			var out []string
			for _, n := range res["notifications"].([]any) {
				out = append(out, n.(map[string]any)["title"].(string))
			}
			return out
		}
		if got := get("en"); fmt.Sprint(got) != "[New: feed reader]" {
			t.Fatalf("en: %v", got)
		}
		if got := get("pt-BR"); fmt.Sprint(got) != "[Novo: leitor de feeds]" {
			t.Fatalf("pt-BR: %v", got)
		}
		hits, _ := srv.hitsOf("/news.xml")
		// Fifteen days on, the English one is still under 16 days old, the other not.
		e.Clock.Advance(13*24*time.Hour + time.Hour)
		relogin(t, ana)
		if got := get("en"); len(got) != 1 {
			t.Fatalf("en after 15 days: %v", got)
		}
		if got := get("pt-BR"); len(got) != 0 {
			t.Fatalf("pt-BR after 16 days: %v", got)
		}
		if now, _ := srv.hitsOf("/news.xml"); now != hits+1 {
			t.Fatalf("the cache expired once but the feed was fetched %d more times", now-hits)
		}
		ana.Do("GET", "/api/"+db+"/_reader/notifications?locale=fr", nil).ExpectError(t, http.StatusBadRequest, "locale")
	}, withFeed)

	e := apptest.New(t, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "G")
	if res := ana.Do("GET", "/api/"+db+"/_reader/notifications", nil).Expect(t, http.StatusOK); len(res["notifications"].([]any)) != 0 {
		t.Fatalf("unconfigured: %v", res)
	}
}
