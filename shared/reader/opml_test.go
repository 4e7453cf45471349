package reader_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
)

const nestedOPML = `<?xml version="1.0" encoding="UTF-8"?>
<opml version="1.0">
  <head><title>My feeds</title></head>
  <body>
    <outline text="Tech">
      <outline text="Go">
        <outline type="rss" text="Go Blog" xmlUrl="https://go.dev/blog/feed.atom" htmlUrl="https://go.dev/blog"/>
        <outline type="rss" text="Both places" xmlUrl="https://both.example/feed"/>
      </outline>
      <outline text="Rust" title="Rust">
        <outline type="rss" title="This Week in Rust" text="TWiR" xmlUrl="https://this-week-in-rust.org/rss.xml"/>
      </outline>
    </outline>
    <outline text="News">
      <outline type="rss" text="Both places again" xmlUrl="https://BOTH.example/feed#dup"/>
    </outline>
    <outline type="rss" text="Loose feed" xmlUrl="https://loose.example/rss"/>
    <outline type="rss" text="Broken" xmlUrl="ftp://broken.example/rss"/>
    <outline text="Empty folder"/>
  </body>
</opml>`

// TestOPML: nested outlines become labels (a feed under several folders
// gets them all); the export lists labels as outlines; importing the
// export into another Group and exporting again gives the same file; a
// second import changes nothing; bad files are refused and write nothing.
func TestOPML(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana, bob := e.SignUp("ana@example.com"), e.SignUp("bob@example.com")
		a, b := e.Group(ana, "A"), e.Group(bob, "B")
		res := ana.Do("POST", "/api/"+a+"/_reader/opml", nestedOPML, "Content-Type", "text/x-opml").Expect(t, http.StatusOK)
		if res["created"] != float64(4) || res["labels_created"] != float64(4) || len(res["failed"].([]any)) != 1 {
			t.Fatalf("import %v", res)
		}
		if f := res["failed"].([]any)[0].(map[string]any); f["url"] != "ftp://broken.example/rss" {
			t.Fatalf("failed %v", f)
		}
		labels := map[string]string{}
		for _, d := range find(t, ana, a, "ReaderLabel") {
			labels[d["name"].(string)] = d["_id"].(string)
			if d["kind"] != "folder" {
				t.Errorf("label %v", d)
			}
		}
		subs := map[string]map[string]any{}
		for _, d := range find(t, ana, a, "ReaderSubscription") {
			subs[d["url"].(string)] = d
		}
		wantLabels := map[string][]string{
			"https://go.dev/blog/feed.atom":         {"Tech", "Go"},
			"https://both.example/feed":             {"Tech", "Go", "News"},
			"https://this-week-in-rust.org/rss.xml": {"Tech", "Rust"},
			"https://loose.example/rss":             nil,
		}
		for u, names := range wantLabels {
			s := subs[u]
			if s == nil {
				t.Fatalf("no subscription for %s in %v", u, subs)
			}
			var got []string
			for _, id := range s["reader_label_ids"].([]any) {
				for n, lid := range labels {
					if lid == id {
						got = append(got, n)
					}
				}
			}
			if !slices.Equal(got, names) {
				t.Errorf("%s labels %v, want %v", u, got, names)
			}
		}
		if subs["https://this-week-in-rust.org/rss.xml"]["title"] != "This Week in Rust" || subs["https://go.dev/blog/feed.atom"]["website_url"] != "https://go.dev/blog" {
			t.Fatalf("subscriptions %v", subs)
		}

		export := ana.Do("GET", "/api/"+a+"/_reader/opml", nil)
		if export.Code != http.StatusOK || !strings.HasPrefix(export.Header.Get("Content-Type"), "text/x-opml") ||
			!strings.Contains(export.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export %d %v", export.Code, export.Header)
		}
		file := string(export.Body)
		for _, want := range []string{`<outline text="Go" title="Go">`, `<outline text="Tech" title="Tech">`, `xmlUrl="https://loose.example/rss"`} {
			if !strings.Contains(file, want) {
				t.Errorf("export lacks %s:\n%s", want, file)
			}
		}
		// Round trip through another Group.
		res = bob.Do("POST", "/api/"+b+"/_reader/opml", file, "Content-Type", "application/xml").Expect(t, http.StatusOK)
		if res["created"] != float64(4) || len(res["failed"].([]any)) != 0 {
			t.Fatalf("re-import %v", res)
		}
		again := bob.Do("GET", "/api/"+b+"/_reader/opml", nil)
		if string(again.Body) != file {
			t.Fatalf("round trip differs:\n%s\n---\n%s", file, again.Body)
		}
		// Importing again: nothing to do.
		e.Unchanged(b, func() {
			res = bob.Do("POST", "/api/"+b+"/_reader/opml", file, "Content-Type", "text/xml").Expect(t, http.StatusOK)
			if res["unchanged"] != float64(4) || res["created"] != float64(0) {
				t.Fatalf("second import %v", res)
			}
		})
		// Bad input.
		e.Unchanged(a, func() {
			ana.Do("POST", "/api/"+a+"/_reader/opml", "<html>not opml", "Content-Type", "text/x-opml").ExpectError(t, http.StatusBadRequest, "not OPML")
			ana.Do("POST", "/api/"+a+"/_reader/opml", nestedOPML, "Content-Type", "application/pdf").ExpectError(t, http.StatusUnsupportedMediaType, "")
			ana.Do("POST", "/api/"+a+"/_reader/opml", map[string]any{"feeds": []any{}}).ExpectError(t, http.StatusBadRequest, "")
			ana.Do("POST", "/api/"+a+"/_reader/opml", map[string]any{"outlines": "x"}).ExpectError(t, http.StatusBadRequest, "")
			ana.Do("POST", "/api/"+a+"/_reader/opml", strings.Repeat("x", 6<<20), "Content-Type", "text/x-opml").ExpectError(t, http.StatusRequestEntityTooLarge, "")
			bob.Do("POST", "/api/"+a+"/_reader/opml", nestedOPML, "Content-Type", "text/x-opml").ExpectError(t, http.StatusForbidden, "")
			bob.Do("GET", "/api/"+a+"/_reader/opml", nil).ExpectError(t, http.StatusForbidden, "")
		})
	})
}

// TestOPMLThousand: a 1,000-feed OPML imports in chunks, as the SPA sends
// it with a progress bar, and exports whole; the next refresh round
// fetches the new subscriptions (unseeded, so unconditionally).
func TestOPMLThousand(t *testing.T) {
	e := apptest.New(t, apptest.Bolt, loopback)
	srv := newFeedServer(t)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "G")
	var outlines []any
	for i := range 1000 {
		path := fmt.Sprintf("/f/%d.xml", i)
		srv.serve(path, "application/rss+xml", rss(fmt.Sprintf("Feed %d", i), srv.url("/"), item{guid: "1", title: "hello", posted: e.Clock.Now().Add(-time.Minute)}))
		outlines = append(outlines, map[string]any{"url": srv.url(path), "title": fmt.Sprintf("Feed %04d", i), "labels": []any{fmt.Sprintf("Folder %d", i%10)}})
	}
	created := 0
	for i := 0; i < len(outlines); i += 100 {
		res := ana.Do("POST", "/api/"+db+"/_reader/opml", map[string]any{"outlines": outlines[i : i+100]}).Expect(t, http.StatusOK)
		created += int(res["created"].(float64))
	}
	if created != 1000 {
		t.Fatalf("created %d", created)
	}
	file := string(ana.Do("GET", "/api/"+db+"/_reader/opml", nil).Body)
	if n := strings.Count(file, "xmlUrl="); n != 1000 {
		t.Fatalf("the export lists %d feeds", n)
	}
	e.Drain()
	round(t, e)
	if got := feedPage(t, ana, db, ""); got["total_rows"] != float64(0) {
		// Counts come from the stream: drain first.
		t.Logf("before drain: %v", got["total_rows"])
	}
	e.Drain()
	if got := feedPage(t, ana, db, ""); got["total_rows"] != float64(1000) {
		t.Fatalf("after a round: %v items", got["total_rows"])
	}
}

func find(t testing.TB, c *apptest.Client, db, klass string) []map[string]any {
	t.Helper()
	res := c.Do("POST", "/api/"+db+"/_find", map[string]any{"selector": map[string]any{"klass": klass}, "limit": 10000}).Expect(t, http.StatusOK)
	var out []map[string]any
	for _, d := range res["docs"].([]any) {
		out = append(out, d.(map[string]any))
	}
	return out
}
