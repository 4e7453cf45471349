// Package links is the links app (SPEC.md: "a links/bookmarks app") on the
// module seam: Bookmark records (url, title, description, tags, starred,
// added_at), the Netscape bookmark file every browser imports and exports
// (bookmarks.go), and a bookmark's title read from its page through the
// server's fetch guard (linktitle.go). Its screens are
// web/src/features/links.
package links

import (
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
)

// KlassBookmark is the module's klass (id prefix bkm).
const KlassBookmark = "Bookmark"

// Schema is the Bookmark's field rules.
var Schema = schema.Klass{Name: KlassBookmark, Fields: []schema.Field{
	{Name: "url", Type: schema.URL, Required: true},
	{Name: "title", Type: schema.String, Max: maxBookmarkTitle},
	{Name: "description", Type: schema.Text, Max: 5000},
	{Name: "tags", Type: schema.Tags},
	{Name: "starred", Type: schema.Bool, Default: false},
	{Name: "added_at", Type: schema.DateTime},
}}

// Module is the links app on the module seam.
type Module struct {
	deps module.Deps
	st   store.Store
	// fetcher reads bookmarked pages' titles (nil: titles are entered).
	fetcher PageFetcher
}

// New builds the module.
func New(d module.Deps) *Module { return &Module{deps: d, st: d.Store} }

// Name implements module.Module.
func (m *Module) Name() string { return "links" }

// Register implements module.Module:
//
//	POST /api/{db}/_links/import   (Netscape bookmark HTML) → {created, updated, unchanged, failed: [{url, title, reason}], more_failed}
//	GET  /api/{db}/_links/export.html                    → Netscape bookmark HTML
//	POST /api/{db}/_links/title {url}                    → {url, title} fetched from the page (422 on url saying why not; 404 without a fetcher)
func (m *Module) Register(r *module.Registry) error {
	r.Schema(Schema)
	r.Labels(labels)
	r.Rule(KlassBookmark, bookmarkRule)
	r.Route(module.Route{Pattern: "POST /api/{db}/_links/import", Access: module.AccessWrite, MaxBody: MaxImportBytes, Handle: m.importBookmarks})
	r.Route(module.Route{Pattern: "GET /api/{db}/_links/export.html", Access: module.AccessRead, Handle: m.exportBookmarks})
	r.Route(module.Route{Pattern: "POST /api/{db}/_links/title", Access: module.AccessWrite, MaxBody: maxTitleRequest, Handle: m.fetchTitle})
	return nil
}

func str(v any) string { s, _ := v.(string); return s }
