package reader

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

var parseNow = time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestParseCorpus: the formats and their common breakage, from testdata.
func TestParseCorpus(t *testing.T) {
	type want struct {
		key, url, title, ctype, author, summary, content string
		posted                                           string // RFC 3339, "" for none
	}
	for _, tc := range []struct {
		file, title, site, lang string
		entries                 []want
	}{
		{"rss2.xml", "Oficina Blog", "https://blog.oficina.example/", "pt-BR", []want{
			{key: "guid:post-2", url: "https://blog.oficina.example/2026/second", title: "Second post", ctype: "html", author: "Ana",
				summary: "Short summary of the second post.", content: "<p>The <b>second</b> post, in full.</p>", posted: "2026-11-10T10:00:00Z"},
			{key: "guid:https://blog.oficina.example/2026/first", title: "First post", ctype: "html", content: "<p>The first post.</p>", posted: "2026-11-09T09:00:00Z"},
		}},
		// RSS 0.91 in ISO-8859-1 with a character reference; no GUIDs, no dates.
		{"rss091.xml", "Old School", "http://old.example/", "en-us", []want{
			{key: "url:http://old.example/cafe", title: "Café news", ctype: "text", content: "No GUIDs and no dates in 0.91."},
			{key: "url:http://old.example/second", title: "Second"},
		}},
		{"latin1.xml", "Latin été", "http://latin.example/", "", []want{{key: "guid:ola", title: "Olá mundo", content: "Coração", posted: "2026-11-01T12:00:00Z"}}},
		{"rss1.rdf", "RDF Site", "http://rdf.example/", "", []want{{key: "url:http://rdf.example/a", title: "RDF item", posted: "2026-11-02T08:30:00Z"}}},
		// Atom: an html title, a relative link resolved against the site, xhtml content.
		{"atom.xml", "Atom & Friends", "https://atom.example/", "en", []want{
			{key: "guid:tag:atom.example,2026:1", url: "https://atom.example/2026/11/one", title: "Entry one", author: "Bia", summary: "The summary", ctype: "html", posted: "2026-11-03T18:30:02Z"},
			{key: "guid:tag:atom.example,2026:2", title: "Entry two", content: "<p>XHTML <strong>content</strong></p>", posted: "2026-11-02T10:00:00Z"},
		}},
		// JSON Feed: content_text is text, content_html is html.
		{"feed.json", "JSON Feed Site", "https://json.example/", "en", []want{
			{key: "guid:j2", title: "Text item", ctype: "text", content: "Plain text\nwith a line break & an ampersand", posted: "2026-11-05T12:00:00Z"},
			{key: "guid:j1", title: "HTML item", ctype: "html", author: "Caio", summary: "Hi", posted: "2026-11-04T10:00:00Z"},
		}},
		{"bom.xml", "BOM Feed", "https://bom.example/", "", []want{{key: "guid:b1", title: "After the BOM"}}},
		// Unparseable dates are none; the future is now; a 2-digit year is read.
		{"dates.xml", "Bad Dates", "https://dates.example/", "", []want{
			{key: "guid:d1", posted: ""},
			{key: "guid:d3", posted: "2026-11-24T12:00:00Z"},
			{key: "guid:d2", posted: "2026-11-06T10:00:00Z"},
			{key: "guid:d4", posted: ""},
		}},
		// Relative item links resolve against the site link; a javascript: link is dropped.
		{"relative.xml", "Relative", "https://rel.example/blog/", "", []want{
			{key: "guid:r1", url: "https://rel.example/blog/posts/one.html"},
			{key: "guid:r2", url: "https://rel.example/two"},
			{key: "guid:r3", url: "-"},
		}},
		{"entities.xml", "Tom & Jerry’s “Shop”", "", "", []want{{title: "Fish & Chips bold", content: "5 < 6 && 7 > 2 © café", ctype: "text"}}},
		{"ampersand.xml", "Salt & Pepper", "https://amp.example/?a=1&b=2", "", []want{{title: "Rock & Roll", url: "https://amp.example/1?x=1&y=2"}}},
		// CDATA keeps markup, which the item rule sanitises; titles are text.
		{"cdata.xml", "CDATA", "", "", []want{{title: "Q&A: in a title", ctype: "html", content: `<p onclick="alert(1)">Click</p><script>alert(2)</script><img src="https://cdata.example/i.png" onerror="alert(3)">`}}},
		// Missing GUIDs: the link, else a hash; a missing title comes from the content.
		{"noguid.xml", "No GUIDs", "", "", []want{
			{key: "url:https://noguid.example/a"},
			{key: "hash:", title: "Neither guid nor link"},
			{key: "hash:", title: "No title either: it comes from the content."},
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parseFeed(raw, mustURL(t, "https://feeds.example/"+tc.file), parseNow)
			if err != nil {
				t.Fatal(err)
			}
			if f.Title != tc.title || (tc.site != "" && f.SiteURL != tc.site) || f.Language != tc.lang {
				t.Errorf("feed %q site %q lang %q", f.Title, f.SiteURL, f.Language)
			}
			if len(f.Entries) != len(tc.entries) {
				t.Fatalf("%d entries, want %d", len(f.Entries), len(tc.entries))
			}
			for i, w := range tc.entries {
				e := f.Entries[i]
				check := func(name, got, want string) {
					if want != "" && got != want && !(strings.HasSuffix(want, ":") && strings.HasPrefix(got, want)) && !(want == "-" && got == "") {
						t.Errorf("entry %d %s = %q, want %q", i, name, got, want)
					}
				}
				check("key", e.Key, w.key)
				check("url", e.URL, w.url)
				check("title", e.Title, w.title)
				check("content_type", e.ContentType, w.ctype)
				check("author", e.Author, w.author)
				check("summary", e.Summary, w.summary)
				check("content", e.Content, w.content)
				posted := ""
				if !e.Posted.IsZero() {
					posted = e.Posted.UTC().Format(time.RFC3339)
				}
				if w.key != "" && w.posted != posted && (w.posted != "" || strings.HasPrefix(tc.file, "dates")) {
					t.Errorf("entry %d posted %q, want %q", i, posted, w.posted)
				}
				if e.Hash == "" {
					t.Errorf("entry %d has no hash", i)
				}
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	for _, file := range []string{"page.html", "notafeed.txt", "broken.xml"} {
		raw, _ := os.ReadFile("testdata/" + file)
		if _, err := parseFeed(raw, mustURL(t, "https://x.example/"), parseNow); !errors.Is(err, errNotAFeed) {
			t.Errorf("%s: %v, want errNotAFeed", file, err)
		}
	}
	for _, raw := range []string{"", "{}", `{"version":"x"}`, "<rss", "\x00\x01\x02"} {
		if _, err := parseFeed([]byte(raw), mustURL(t, "https://x.example/"), parseNow); err == nil {
			t.Errorf("%q parsed", raw)
		}
	}
}

// TestParseHugeAndMany: a huge item parses (the write path cuts it); a feed
// with more items than the cap keeps the newest.
func TestParseHugeAndMany(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title><link>https://big.example/</link><description>d</description>`)
	fmt.Fprintf(&b, `<item><title>Huge</title><guid>huge</guid><pubDate>Wed, 04 Nov 2026 10:00:00 +0000</pubDate><description><![CDATA[<p>%s</p>]]></description></item>`, strings.Repeat("word ", 400_000))
	for i := range 150 {
		fmt.Fprintf(&b, `<item><title>Item %d</title><guid>g%d</guid><pubDate>%s</pubDate></item>`, i, i, parseNow.Add(-time.Duration(i)*time.Hour).Format(time.RFC1123Z))
	}
	b.WriteString(`</channel></rss>`)
	f, err := parseFeed([]byte(b.String()), mustURL(t, "https://big.example/feed"), parseNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != MaxItemsPerFetch || f.Entries[0].Key != "guid:g0" || f.Entries[MaxItemsPerFetch-1].Key != fmt.Sprintf("guid:g%d", MaxItemsPerFetch-1) {
		t.Fatalf("%d entries, first %q last %q", len(f.Entries), f.Entries[0].Key, f.Entries[len(f.Entries)-1].Key)
	}
}

func TestDiscover(t *testing.T) {
	raw, _ := os.ReadFile("testdata/page.html")
	got := discover(raw, mustURL(t, "https://blog.example/home/index.html"))
	var urls []string
	for _, f := range got {
		urls = append(urls, f.URL)
	}
	// Atom first (preferred), then RSS in document order; nothing from the body.
	want := "https://blog.example/home/feed.atom https://blog.example/feed.rss https://other.example/comments.rss"
	if strings.Join(urls, " ") != want {
		t.Fatalf("discovered %v, want %s", urls, want)
	}
	if got[1].Title != "RSS" {
		t.Fatalf("title %q", got[1].Title)
	}
	if len(discover([]byte("<html><head></head></html>"), mustURL(t, "https://x.example/"))) != 0 {
		t.Fatal("found feeds in an empty page")
	}
}

func TestItemIDs(t *testing.T) {
	a := itemID("rsb-0123456789abcdef0123456789abcdef", "guid:1")
	if a != itemID("rsb-0123456789abcdef0123456789abcdef", "guid:1") {
		t.Fatal("not deterministic")
	}
	b := itemID("rsb-0123456789abcdef0123456789abcdef", "guid:2")
	c := itemID("rsb-fedcba9876543210fedcba9876543210", "guid:1")
	first, last := itemRange("rsb-0123456789abcdef0123456789abcdef")
	for _, id := range []string{a, b} {
		if id < first || id > last {
			t.Errorf("%s is outside its subscription's range %s–%s", id, first, last)
		}
	}
	if c >= first && c <= last {
		t.Errorf("another subscription's item %s is inside the range", c)
	}
	if len(a) != 36 || !strings.HasPrefix(a, "rit-") {
		t.Fatalf("id %q", a)
	}
}

func TestNormalizeURL(t *testing.T) {
	for in, want := range map[string]string{
		" HTTPS://Blog.Example/Feed#top ": "https://blog.example/Feed",
		"http://x.example":                "http://x.example/",
		"http://x.example?a=1":            "http://x.example?a=1",
	} {
		if got := normalizeURL(in); got != want {
			t.Errorf("normalizeURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBackoff(t *testing.T) {
	h := time.Hour
	for n, want := range map[int]time.Duration{0: h, 1: 2 * h, 2: 4 * h, 4: 16 * h, 5: 24 * h, 30: 24 * h} {
		if got := backoff(h, n); got != want {
			t.Errorf("backoff(1h, %d) = %v, want %v", n, got, want)
		}
	}
	if got := retryAfter("120", parseNow); got != 2*time.Minute {
		t.Errorf("Retry-After 120: %v", got)
	}
	if got := retryAfter(parseNow.Add(time.Hour).Format(http.TimeFormat), parseNow); got != time.Hour {
		t.Errorf("Retry-After date: %v", got)
	}
}
