// Package wiki is the notes and handbook wiki (SPEC.md §1 textnotes, §3
// Handbook) on the module seam.
//
// A page (klass Handbook) is Markdown by default. Its links — [[Title]],
// [[Title|label]] and Markdown links to a handbook's address — are parsed
// on every write and stored as ids (links, link_targets), so a rename
// keeps them; titles are unique in a Group and a former title still
// resolves. "Linked by" is an index the change stream keeps exact (see
// index.go), earlier versions are snapshots a stream reaction keeps (the
// last 50 per page, versions.go), rendering is goldmark + chroma through
// htmlsafe's wiki policy (markdown.go), and search reads a per-process
// index of the Group's pages checked against the store's update sequence
// on every request (pages.go).
package wiki

import (
	"context"
	"log/slog"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// KlassHandbook is the module's klass.
const KlassHandbook = "Handbook"

// Limits.
const (
	MaxTitle        = 200
	MaxContent      = 200_000 // characters of a page
	MaxLinks        = 500     // distinct links of one page
	MaxTitleHistory = 20
	MaxVersions     = 50 // snapshots kept per page
)

// pageCacheBytes bounds the text the page index keeps in memory, all
// Groups together (least recently used Groups go first).
const pageCacheBytes = 256 << 20

// MsgTooManyLinks refuses a page with more than MaxLinks links.
var MsgTooManyLinks = "has too many links (maximum is 500)"

// Fields the server keeps on a Handbook; a client's values are ignored.
var serverFields = []string{"links", "link_targets", "wanted", "title_history", "linked_by"}

// Schemas (SPEC.md §3 Handbook).
var Schemas = []schema.Klass{
	{Name: KlassHandbook, Fields: []schema.Field{
		{Name: "title", Type: schema.String, Required: true, Max: MaxTitle},
		{Name: "content", Type: schema.Text, Max: MaxContent},
		{Name: "content_type", Type: schema.Enum, Enum: []string{"text", "html", "markdown"}, Default: "markdown"},
		{Name: "categories", Type: schema.Tags},
		{Name: "uri", Type: schema.URL},
		{Name: "fields", Type: schema.Items, Items: []schema.Field{
			{Name: "field_name", Type: schema.String, Required: true, Max: 100},
			{Name: "field_value", Type: schema.Text, Max: 2000},
		}},
		{Name: "value_for", Type: schema.String, Max: 200},
		{Name: "links", Type: schema.List, ReadOnly: true},
		{Name: "link_targets", Type: schema.Object, ReadOnly: true},
		{Name: "wanted", Type: schema.List, ReadOnly: true},
		{Name: "title_history", Type: schema.List, ReadOnly: true},
		{Name: "linked_by", Type: schema.List, ReadOnly: true},
	}},
}

// Module is the wiki on the module seam.
type Module struct {
	deps   module.Deps
	st     store.Store
	log    *slog.Logger
	now    func() time.Time
	host   string // the product's host (absolute links to it count as page links)
	server *access.Principal
	pages  *pageCache
	hl     Highlighter
}

// New builds the module.
func New(d module.Deps) *Module {
	log, now := d.Logger(), d.Clock()
	host := ""
	if u, err := url.Parse(d.BaseURL); err == nil {
		host = u.Host
	}
	m := &Module{
		deps: d, st: d.Store, log: log.With("module", "wiki"), now: now, host: host,
		server: &access.Principal{UserID: "_wiki", Name: "_wiki", Label: "wiki", Via: access.ViaSession},
	}
	m.pages = newPageCache(d.Store, 64, pageCacheBytes)
	return m
}

// Name implements module.Module.
func (m *Module) Name() string { return "wiki" }

// Register implements module.Module (the routes are listed in routes.go).
func (m *Module) Register(r *module.Registry) error {
	m.RegisterWrites(r)
	m.registerRoutes(r)
	return nil
}

// RegisterWrites implements module.WritePath: the Handbook's schema, rule
// and effect, and the reactions that keep links and versions.
func (m *Module) RegisterWrites(r *module.Registry) {
	r.Schema(Schemas...)
	r.Labels(labels...)
	r.Actor(module.Actor{ID: m.server.UserID, Name: module.L("Wiki", "Wiki")})
	r.Rule(KlassHandbook, m.handbookRule)
	r.Effect(KlassHandbook, m.handbookEffect)
	r.SortKey(KlassHandbook, func(body map[string]any) string { return normTitle(str(body["title"])) })
	r.React(stream.Reaction{Name: "wiki.links", Klasses: []string{KlassHandbook}, React: m.linksChanged})
	r.React(stream.Reaction{Name: "wiki.versions", Klasses: []string{KlassHandbook}, React: m.snapshot})
}

func (m *Module) linker(db string) linker { return linker{db: db, baseHost: m.host, hl: m.hl} }

// WithHighlighter colours the pages' code blocks with h (the API's
// wiring: shared/wiki/highlight.Chroma); without one they are plain.
func (m *Module) WithHighlighter(h Highlighter) *Module {
	m.hl = h
	return m
}

// titleVersion is one former title.
type titleVersion struct {
	Title string `json:"title"`
	Until string `json:"until"`
}

// handbookRule (after the schema) keeps the server's fields the server's,
// claims the title, records renames and resolves the page's links.
func (m *Module) handbookRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	title := str(n["title"])
	nt := normTitle(title)
	n["label"] = title

	// Title history: the former title first, at most MaxTitleHistory, none
	// equal to the current one.
	var hist []titleVersion
	if w.Old != nil {
		hist = titleHistory(w.Old["title_history"])
		if old := str(w.Old["title"]); old != "" && normTitle(old) != nt {
			hist = append([]titleVersion{{Title: old, Until: str(n["updated_at"])}}, hist...)
		}
	}
	hist = slices.DeleteFunc(hist, func(v titleVersion) bool { return normTitle(v.Title) == nt })
	seen := map[string]bool{}
	hist = slices.DeleteFunc(hist, func(v titleVersion) bool { k := normTitle(v.Title); d := seen[k]; seen[k] = true; return d })
	if len(hist) > MaxTitleHistory {
		hist = hist[:MaxTitleHistory]
	}
	if len(hist) > 0 {
		list := make([]any, len(hist))
		for i, v := range hist {
			list[i] = map[string]any{"title": v.Title, "until": v.Until}
		}
		n["title_history"] = list
	} else {
		delete(n, "title_history")
	}
	delete(n, "linked_by") // served by the index (index.go), never stored

	// Links.
	content, contentType := str(n["content"]), str(n["content_type"])
	found := m.linker(w.DB).extract(content, contentType)
	if len(found.Titles)+len(found.IDs) > MaxLinks {
		return fault.Invalid(map[string][]string{"content": {MsgTooManyLinks}})
	}
	oldTargets := map[string]string{}
	if w.Old != nil {
		if mp, ok := w.Old["link_targets"].(map[string]any); ok {
			for k, v := range mp {
				oldTargets[k] = str(v)
			}
		}
	}
	// Which ids are live handbooks: the sticky targets and the URL links.
	var check []string
	for _, t := range found.Titles {
		if id := oldTargets[normTitle(t)]; id != "" {
			check = append(check, id)
		}
	}
	check = append(check, found.IDs...)
	live, err := m.liveSet(ctx, w.DB, check)
	if err != nil {
		return err
	}
	// The rest are resolved by title, 8 at a time (DynamoDB round trips).
	resolved := make([]string, len(found.Titles))
	if err := parallel(ctx, len(found.Titles), 8, func(ctx context.Context, i int) error {
		t := found.Titles[i]
		if k := normTitle(t); k == nt || live[oldTargets[k]] {
			resolved[i] = oldTargets[k]
			return nil
		}
		id, _, err := m.resolveTitle(ctx, w.DB, t)
		resolved[i] = id
		return err
	}); err != nil {
		return err
	}
	targets := map[string]any{}
	var wanted []any
	idSet := map[string]bool{}
	for i, t := range found.Titles {
		k := normTitle(t)
		if k == nt {
			continue // a link to itself
		}
		id := resolved[i]
		if id == "" || id == w.ID {
			if id == "" {
				wanted = append(wanted, t)
			}
			continue
		}
		targets[k] = id
		idSet[id] = true
	}
	for _, id := range found.IDs {
		if live[id] && id != w.ID {
			idSet[id] = true
		}
	}
	links := make([]string, 0, len(idSet))
	for id := range idSet {
		links = append(links, id)
	}
	sort.Strings(links)
	n["links"] = docs.List(links)
	n["link_targets"] = targets
	if len(wanted) > 0 {
		n["wanted"] = wanted
	} else {
		delete(n, "wanted")
	}

	// The title last: a refused write above claims nothing.
	if w.Old != nil && normTitle(str(w.Old["title"])) == nt {
		// Unchanged: make sure the claim is there (pages written before the
		// wiki module had none), without refusing a page that shares its
		// title with an older one.
		if err := m.claimTitle(ctx, w.DB, nt, w.ID); err != nil {
			if _, ok := fault.As(err); ok {
				return nil
			}
			return err
		}
		return nil
	}
	return m.claimTitle(ctx, w.DB, nt, w.ID)
}

// handbookEffect, after the page is stored: a renamed page's old title
// becomes a redirect and its claim goes; a deleted page's claim goes.
func (m *Module) handbookEffect(ctx context.Context, w *docs.Write, _ store.Doc) error {
	if w.Old == nil {
		return nil
	}
	old := normTitle(str(w.Old["title"]))
	if w.Deleting {
		return m.releaseTitle(ctx, w.DB, old, w.ID)
	}
	if old == "" || old == normTitle(str(w.New["title"])) {
		return nil
	}
	if err := m.redirect(ctx, w.DB, old, w.ID); err != nil {
		return err
	}
	return m.releaseTitle(ctx, w.DB, old, w.ID)
}

// liveSet reports which of ids are live handbooks of db (8 reads at a time).
func (m *Module) liveSet(ctx context.Context, db string, ids []string) (map[string]bool, error) {
	out := make(map[string]bool, len(ids))
	uniq := slices.Compact(slices.Sorted(slices.Values(ids)))
	res := make([]bool, len(uniq))
	err := parallel(ctx, len(uniq), 8, func(ctx context.Context, i int) error {
		d, err := m.st.Get(ctx, db, uniq[i])
		switch {
		case err == nil:
			res[i] = d.Klass == KlassHandbook
		case isGone(err):
		default:
			return err
		}
		return nil
	})
	for i, id := range uniq {
		if res[i] {
			out[id] = true
		}
	}
	return out, err
}

func titleHistory(v any) []titleVersion {
	list, _ := v.([]any)
	var out []titleVersion
	for _, e := range list {
		if o, ok := e.(map[string]any); ok && str(o["title"]) != "" {
			out = append(out, titleVersion{Title: str(o["title"]), Until: str(o["until"])})
		}
	}
	return out
}

func str(v any) string { s, _ := v.(string); return s }

var _ = strings.TrimSpace
