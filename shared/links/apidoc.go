package links

import "github.com/oficina/oficina/shared/module"

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	return module.Docs{
		"POST /api/{db}/_links/import": {
			Summary: "Imports a browser's bookmark file (Netscape HTML): new links are created, known URLs get the tags they lack",
			Notes:   "Folders become tags, except the toolbar's. At most 5 MB and 10,000 links; links the rules refuse are listed in failed, not written.",
			Body:    module.File{Type: "text/html", About: "a Netscape bookmark file, as browsers export", Name: "bookmarks.html"},
			Answer:  importAnswer{Created: 12, Updated: 1, Unchanged: 3, Failed: []importFailure{{URL: "javascript:alert(1)", Title: "evil", Reason: "url: is invalid"}}},
		},
		"GET /api/{db}/_links/export.html": {
			Summary: "Exports the Group's bookmarks as a Netscape bookmark file, which every browser imports",
			Answer:  module.File{Type: "text/html", About: "the bookmark file (tags in TAGS, oldest first)", Name: "bookmarks.html"},
		},
		"POST /api/{db}/_links/title": {
			Summary: "Reads a page's title for a new bookmark, through the server's fetch guard; nothing is stored",
			Notes:   "A refused address, an error status, a page that is not HTML or has no title is a 422 on url saying which; 404 when the server fetches no pages.",
			Body:    titleRequest{URL: "https://example.com/manual"},
			Answer:  map[string]any{"url": "https://example.com/manual", "title": "Maker X200 service manual"},
		},
	}
}
