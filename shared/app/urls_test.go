package app_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/schema"
)

// urlRecords are a valid record of every klass with a URL field, the field
// to spoil, and how the record is made (issue 22 item 11).
var urlRecords = []struct {
	klass string
	field string
	body  map[string]any
}{
	{"Customer", "site", map[string]any{"name": "Zé das Peças"}},
	{"Handbook", "uri", map[string]any{"title": "Manual da bancada"}},
	{"Bookmark", "url", map[string]any{"url": "https://example.com/manual.pdf", "title": "Manual"}},
	{"ReaderSubscription", "url", map[string]any{"url": "https://example.com/feed.xml"}},
	{"ReaderSubscription", "website_url", map[string]any{"url": "https://example.com/feed.xml"}},
}

// writtenByServer are URL fields no client writes (the feed reader fills a
// feed item's address from the feed).
var writtenByServer = map[string]bool{"ReaderItem.url": true}

// TestURLFieldsOnEveryWritePath: a URL field that is not an http or https
// address is refused with its field error on every write route — POST, PUT,
// _bulk_docs — on both stores, and nothing is written. Every URL field of
// every schema is in the table (a new one fails here until it is).
func TestURLFieldsOnEveryWritePath(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		covered := map[string]bool{}
		for _, r := range urlRecords {
			covered[r.klass+"."+r.field] = true
		}
		for _, k := range e.App.Modules.Schemas() {
			for _, f := range k.Fields {
				if name := k.Name + "." + f.Name; f.Type == schema.URL && !covered[name] && !writtenByServer[name] {
					t.Errorf("%s.%s is a URL field without a write-path case", k.Name, f.Name)
				}
			}
		}
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		n := 0
		for _, r := range urlRecords {
			for _, bad := range []string{"not a url", "example.com", "ftp://example.com/x", "javascript:alert(1)", "https://"} {
				t.Run(fmt.Sprintf("%s.%s=%q", r.klass, r.field, bad), func(t *testing.T) {
					body := map[string]any{"klass": r.klass}
					for k, v := range r.body {
						body[k] = v
					}
					body[r.field] = bad
					e.Unchanged(db, func() {
						ana.Do("POST", "/api/"+db, body).ExpectFields(t, r.field, schema.MsgInvalid)
						ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": []any{body}}).ExpectBulkField(t, r.field, schema.MsgInvalid)
					})
					good := map[string]any{"klass": r.klass}
					for k, v := range r.body {
						good[k] = v
					}
					// Feeds and bookmarks are one per address, pages one per title.
					n++
					if u, ok := good["url"].(string); ok {
						good["url"] = fmt.Sprintf("%s?n=%d", u, n)
					}
					if title, ok := good["title"].(string); ok {
						good["title"] = fmt.Sprintf("%s %d", title, n)
					}
					made := ana.Do("POST", "/api/"+db, good).Expect(t, http.StatusCreated)
					id, _ := made["id"].(string)
					doc := e.Doc(db, id)
					doc[r.field] = bad
					e.Unchanged(db, func() {
						ana.Do("PUT", "/api/"+db+"/"+id, doc).ExpectFields(t, r.field, schema.MsgInvalid)
					})
				})
			}
		}
	})
}
