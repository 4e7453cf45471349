package reader_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/reader"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// loopback lets the fetcher reach the tests' feed servers (loopback, any
// port); the default guard refuses them.
func loopback(c *config.Config) {
	c.FetchAllowNets = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	c.FetchAnyPort = true
}

// feedServer serves feeds on loopback and counts what it is asked.
type feedServer struct {
	*httptest.Server
	mu          sync.Mutex
	handlers    map[string]http.HandlerFunc
	hits        map[string]int
	conditional map[string]int // requests that carried a validator
}

func newFeedServer(t testing.TB) *feedServer {
	s := &feedServer{handlers: map[string]http.HandlerFunc{}, hits: map[string]int{}, conditional: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		if r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
			s.conditional[r.URL.Path]++
		}
		h := s.handlers[r.URL.Path]
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *feedServer) handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers[path] = h
}

// serve answers path with body, an ETag and Last-Modified, and 304 to a
// request that has them.
func (s *feedServer) serve(path, contentType, body string) {
	sum := sha256.Sum256([]byte(body))
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	s.handle(path, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", "Wed, 04 Nov 2026 10:00:00 GMT")
		w.Header().Set("Content-Type", contentType)
		fmt.Fprint(w, body)
	})
}

func (s *feedServer) hitsOf(path string) (all, conditional int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path], s.conditional[path]
}

func (s *feedServer) url(path string) string { return s.URL + path }

// item is one entry of a generated RSS feed.
type item struct {
	guid, title, link, content string
	posted                     time.Time
}

// rss writes an RSS 2.0 feed.
func rss(title, site string, items ...item) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>%s</title><link>%s</link><description>d</description>`, html.EscapeString(title), html.EscapeString(site))
	for _, it := range items {
		b.WriteString("<item>")
		if it.title != "" {
			fmt.Fprintf(&b, "<title>%s</title>", html.EscapeString(it.title))
		}
		if it.link != "" {
			fmt.Fprintf(&b, "<link>%s</link>", html.EscapeString(it.link))
		}
		if it.guid != "" {
			fmt.Fprintf(&b, `<guid isPermaLink="false">%s</guid>`, html.EscapeString(it.guid))
		}
		if !it.posted.IsZero() {
			fmt.Fprintf(&b, "<pubDate>%s</pubDate>", it.posted.UTC().Format(time.RFC1123Z))
		}
		if it.content != "" {
			fmt.Fprintf(&b, "<description>%s</description>", html.EscapeString(it.content))
		}
		b.WriteString("</item>")
	}
	b.WriteString("</channel></rss>")
	return b.String()
}

// round runs one refresh round through the job dispatcher, as EventBridge
// or the in-process scheduler would.
func round(t testing.TB, e *apptest.Env) {
	t.Helper()
	if err := e.App.RunJob(context.Background(), reader.JobRefresh, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
}

// feedPage reads the feed list view.
func feedPage(t testing.TB, c *apptest.Client, db, query string) map[string]any {
	t.Helper()
	return c.Do("GET", "/api/"+db+"/_design/reader/_view/feed?"+query, nil).Expect(t, http.StatusOK)
}

// rowIDs are the item ids of a feed page, in order.
func rowIDs(page map[string]any) []string {
	var out []string
	for _, r := range page["rows"].([]any) {
		out = append(out, r.(map[string]any)["id"].(string))
	}
	return out
}

// rowTitles are the titles of a feed page, in order.
func rowTitles(page map[string]any) []string {
	var out []string
	for _, r := range page["rows"].([]any) {
		out = append(out, r.(map[string]any)["doc"].(map[string]any)["title"].(string))
	}
	return out
}

// subscribe subscribes c's db to u through the route and returns the answer.
func subscribe(t testing.TB, c *apptest.Client, db string, body map[string]any) map[string]any {
	t.Helper()
	return c.Do("POST", "/api/"+db+"/_reader/subscriptions", body).Expect(t, http.StatusCreated)
}

// items lists every item of db (as the store has them), by id.
func items(t testing.TB, e *apptest.Env, c *apptest.Client, db string) map[string]map[string]any {
	t.Helper()
	res := c.Do("POST", "/api/"+db+"/_find", map[string]any{"selector": map[string]any{"klass": "ReaderItem"}, "limit": 10000}).Expect(t, http.StatusOK)
	out := map[string]map[string]any{}
	for _, d := range res["docs"].([]any) {
		m := d.(map[string]any)
		out[m["_id"].(string)] = m
	}
	return out
}

func byTitle(all map[string]map[string]any, title string) map[string]any {
	for _, d := range all {
		if d["title"] == title {
			return d
		}
	}
	return nil
}
