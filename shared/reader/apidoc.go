package reader

import (
	"net/http"

	"github.com/oficina/oficina/shared/module"
)

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	item, sub := module.ExampleID("rit"), module.ExampleID("rsb")
	refreshed := map[string]any{"ok": true, "feeds": 12, "fetched": 9, "not_modified": 3, "failed": 0, "items": 41, "partial": false}
	docs := module.Docs{
		"POST /api/{db}/_reader/subscriptions": {
			Summary: "Subscribes to a feed (or to the feed a web page declares): fetched first, so a URL that is not a feed is a 422 on url with nothing written",
			Notes:   "The body is a ReaderSubscription's fields: url, title, customize_title, active, reader_label_ids, refresh_interval.",
			Body:    map[string]any{"url": "https://blog.example.com/", "reader_label_ids": []string{module.ExampleID("rlb")}},
			Answer:  module.UpdateAnswer(sub, map[string]any{"url": "https://blog.example.com/feed.xml", "title": "Example blog", "items": 20}),
			Status:  http.StatusCreated,
		},
		"POST /api/{db}/_reader/refresh": {
			Summary: "Fetches the Group's feeds now (each at most once a minute, within 20 s; partial: the rest is left to the next round)",
			Answer:  refreshed,
		},
		"POST /api/{db}/_reader/subscriptions/{id}/refresh": {
			Summary: "Fetches one feed now",
			Answer:  refreshed,
		},
		"GET /api/{db}/_reader/subscriptions/{id}/status": {
			Summary: "The fetch state of a subscription's feed",
			Answer: map[string]any{"id": sub, "url": "https://blog.example.com/feed.xml", "fetch_status": "ok", "fetch_error": "",
				"errors": 0, "last_error": "", "last_status": 200, "checked_at": "2026-05-28T13:05:00Z", "fetched_at": "2026-05-28T13:05:00Z", "next_at": "2026-05-28T13:35:00Z"},
		},
		"POST /api/{db}/_reader/items/{id}/content": {
			Summary: "Loads an item's original article through the fetch guard, keeps its readable part (sanitised) as the item's content",
			Answer:  module.UpdateAnswer(item, map[string]any{"content": "<p>The article…</p>", "content_type": "html"}),
		},
		"GET /api/{db}/_reader/opml": {
			Summary: "Exports the Group's subscriptions as an OPML file (labels as outlines)",
			Answer:  module.File{Type: "text/x-opml", About: "the OPML file", Name: "subscriptions.opml"},
		},
		"POST /api/{db}/_reader/opml": {
			Summary: "Imports an OPML file: labels found by name or created, known feeds get the labels they lack, new ones are subscribed",
			Notes:   `The SPA sends a large file in chunks as JSON instead: {"outlines": [{url, title, html_url, labels: [names]}]}.`,
			Body:    module.File{Type: "text/x-opml", About: "an OPML file (also application/xml, text/xml)", Name: "subscriptions.opml"},
			Answer:  map[string]any{"ok": true, "created": 10, "updated": 2, "unchanged": 1, "labels_created": 3, "failed": []map[string]string{{"url": "ftp://old.example/feed", "reason": "url: is invalid"}}},
		},
		"GET /api/{db}/_reader/notifications": {
			Summary: "The system notifications of the last 16 days in the UI language, newest first",
			Query:   []module.Param{{Name: "locale", About: "en or pt-BR", Example: "pt-BR"}},
			Answer:  map[string]any{"notifications": []notification{{Title: "New: the links app", URL: "https://oficina.example/news/links", Summary: "…", Lang: "en"}}},
		},
		"GET /api/{db}/_design/reader/_view/feed": {
			Summary: "A page of the feed list, newest first, without the items' content (has_content says whether there is one)",
			Query: []module.Param{
				{Name: "read", About: "all (default), read or unread", Example: "unread"},
				{Name: "starred", About: "all (default), starred or unstarred"},
				{Name: "label", About: "only the feeds with this ReaderLabel id"},
				{Name: "page", About: "from 1", Example: "1"},
				{Name: "limit", About: "items per page", Example: "10"},
			},
			Answer: map[string]any{"total_rows": 130, "offset": 0, "page": 1, "pages": 13, "limit": 10,
				"rows": []map[string]any{{"id": item, "key": "2026-05-28T12:00:00Z", "value": nil, "doc": map[string]any{"_id": item, "klass": "ReaderItem", "title": "A post", "has_content": true}}}},
		},
		"GET /api/{db}/_design/reader/_view/unread-by-label": {
			Summary: "Unread items per label (a null key counts every item), kept by the change stream",
			Query:   module.CounterViewParams,
			Answer:  map[string]any{"rows": []module.ViewRow{{Key: nil, Value: 57}, {Key: module.ExampleID("rlb"), Value: 12}}},
		},
	}
	for _, t := range toggles {
		docs["PUT /api/{db}/_design/status/_update/"+t.fn+"/{docid}"] = module.Doc{
			Summary: "Marks an item " + map[string]string{"read": "read", "unread": "unread", "star": "starred", "unstar": "not starred"}[t.fn],
			Answer:  module.UpdateAnswer(item, nil),
		}
	}
	return docs
}
