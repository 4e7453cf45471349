package wiki

import (
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/stream"
)

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	page, other := module.ExampleID("han"), "han-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d"
	who := &stream.Who{ID: module.ExampleID("usr"), Label: "Ana"}
	refs := []Ref{{ID: other, Title: "Compressor models"}}
	version := map[string]any{"rev": "3-…", "seq": 1207, "at": "2026-05-28T13:02:11.000Z", "by": who, "title": "Split maintenance",
		"content": "Clean the filters. See [[Compressor models]].", "content_type": "markdown", "categories": []string{"procedures"}, "fields": []any{}}
	limit := module.Param{Name: "limit", About: "rows (1–100, default 20)", Example: "20"}
	selection := []module.Param{{Name: "category", About: "only the pages of this category", Example: "procedures"}, {Name: "id", About: "only this page"}}
	return module.Docs{
		"GET /api/{db}/_wiki/pages/{id}/html": {
			Summary: "A page rendered to safe HTML, with its links (resolved to ids), wanted titles and the pages linking to it",
			Answer: map[string]any{"id": page, "rev": "3-…", "title": "Split maintenance", "categories": []string{"procedures"}, "content_type": "markdown",
				"updated_at": "2026-05-28T13:02:11.000Z", "updated_by": who, "title_history": []any{},
				"html": `<p>Clean the filters. See <a href="…">Compressor models</a>.</p>`, "links": refs, "wanted": []string{"Gas charge"}, "linked_by": refs},
		},
		"GET /api/{db}/_wiki/pages/{id}/versions": {
			Summary: "A page's kept versions (the last 50), newest first; a deleted page's too, for restoring",
			Answer: map[string]any{"id": page, "deleted": false, "versions": []map[string]any{
				{"rev": "3-…", "seq": 1207, "at": "2026-05-28T13:02:11.000Z", "by": who, "title": "Split maintenance", "size": 1840, "current": true}}},
		},
		"GET /api/{db}/_wiki/pages/{id}/versions/{rev}": {
			Summary: "One kept version of a page, with its content",
			Path:    []module.Param{{Name: "rev", About: "the version's revision", Example: "2-7d865e959b2466918c9863afca942d0f"}},
			Answer:  version,
		},
		"GET /api/{db}/_wiki/pages/{id}/conflict": {
			Summary: "What an editor whose save got a 409 needs: the current page, the version it started from and the versions saved since",
			Query:   []module.Param{{Name: "rev", About: "the revision the editor started from", Example: "2-7d865e959b2466918c9863afca942d0f", Required: true}},
			Answer: map[string]any{"id": page, "conflict": true, "current": map[string]any{"_id": page, "_rev": "3-…", "klass": KlassHandbook, "title": "Split maintenance"},
				"current_by": who, "current_at": "2026-05-28T13:02:11.000Z", "ancestor": version, "changes": []Version{{Rev: "3-…", Seq: 1207, At: "2026-05-28T13:02:11.000Z", By: who, Title: "Split maintenance", Size: 1840}}},
		},
		"POST /api/{db}/_wiki/preview": {
			Summary: "Renders unsaved content as the page would show it",
			Body:    previewRequest{Content: "Clean the filters. See [[Compressor models]].", ContentType: "markdown"},
			Answer:  map[string]any{"html": `<p>Clean the filters. See <a href="…">Compressor models</a>.</p>`, "links": refs, "wanted": []string{}},
		},
		"GET /api/{db}/_wiki/resolve": {
			Summary: "The page a title names, current or former (redirected: a former title)",
			Query:   []module.Param{{Name: "title", About: "a page's title", Example: "Compressor models", Required: true}},
			Answer:  map[string]any{"id": other, "title": "Compressor models", "redirected": false},
		},
		"GET /api/{db}/_wiki/search": {
			Summary: "Searches the pages' titles and text (accents and case ignored), titles first, with escaped snippets",
			Query:   []module.Param{{Name: "q", About: "the words", Example: "filter"}, {Name: "category", About: "only this category"}, limit},
			Answer: map[string]any{"total": 1, "rows": []SearchRow{{ID: page, Title: "Split maintenance", Categories: []string{"procedures"}, UpdatedAt: "2026-05-28T13:02:11.000Z",
				TitleHTML: "Split maintenance", Snippet: "Clean the <mark>filters</mark>."}}},
		},
		"GET /api/{db}/_wiki/titles": {
			Summary: "Titles for the editor's [[ completion: those that start with q first, then those that contain it",
			Query:   []module.Param{{Name: "q", About: "what was typed", Example: "comp"}, limit},
			Answer:  map[string]any{"rows": refs},
		},
		"GET /api/{db}/_wiki/recent": {
			Summary: "The pages changed last in the Group, and those the caller viewed last",
			Query:   []module.Param{limit},
			Answer: map[string]any{"changed": []map[string]any{{"id": page, "title": "Split maintenance", "updated_at": "2026-05-28T13:02:11.000Z", "updated_by": who}},
				"viewed": []map[string]any{{"id": other, "title": "Compressor models", "at": "2026-05-28T14:00:00Z"}}},
		},
		"GET /api/{db}/_wiki/categories": {
			Summary: "The categories and how many pages each has",
			Answer:  map[string]any{"rows": []map[string]any{{"category": "procedures", "count": 12}}},
		},
		"GET /api/{db}/_wiki/export.zip": {
			Summary: "Exports pages as Markdown files (title and categories in a front matter), one per page",
			Query:   selection,
			Answer:  module.File{Type: "application/zip", About: "the Markdown files", Name: "wiki.zip"},
		},
		"GET /api/{db}/_wiki/export.pdf": {
			Summary: "Exports pages as one PDF, each page from a new sheet (at most 300 pages)",
			Query:   selection,
			Answer:  module.File{Type: "application/pdf", About: "the pages laid out", Name: "wiki.pdf"},
		},
		"GET /api/{db}/_wiki/highlight.css": {
			Summary: "The stylesheet of the code highlighting classes",
			Query:   []module.Param{{Name: "style", About: "github or github-dark (github when unknown)", Example: "github"}},
			Answer:  module.File{Type: "text/css", About: "the stylesheet", Name: "highlight.css"},
		},
		"GET /api/{db}/_design/wiki/_view/linked-by": {
			Summary: "The pages that link to a page (CouchDB view form)",
			Query:   []module.Param{{Name: "key", About: "the page's id as a JSON string", Example: `"` + page + `"`, Required: true}},
			Answer:  map[string]any{"total_rows": 1, "offset": 0, "rows": []map[string]any{{"id": other, "key": page, "value": "Compressor models"}}},
		},
	}
}
