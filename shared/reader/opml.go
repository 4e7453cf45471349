package reader

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"golang.org/x/net/html/charset"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

const (
	maxOPMLBytes = 5 << 20
	// maxImport bounds the feeds of one import request; the SPA sends a
	// large file in chunks, showing the progress.
	maxImport = 5000
)

type opmlDoc struct {
	XMLName xml.Name `xml:"opml"`
	Version string   `xml:"version,attr"`
	Head    struct {
		Title string `xml:"title"`
	} `xml:"head"`
	Body struct {
		Outlines []outline `xml:"outline"`
	} `xml:"body"`
}

type outline struct {
	Text     string    `xml:"text,attr"`
	Title    string    `xml:"title,attr,omitempty"`
	Type     string    `xml:"type,attr,omitempty"`
	XMLURL   string    `xml:"xmlUrl,attr,omitempty"`
	HTMLURL  string    `xml:"htmlUrl,attr,omitempty"`
	Outlines []outline `xml:"outline"`
}

// importFeed is one feed to subscribe to, with the names of its labels.
type importFeed struct {
	URL     string   `json:"url"`
	Title   string   `json:"title"`
	SiteURL string   `json:"html_url"`
	Labels  []string `json:"labels"`
}

// parseOPML reads an OPML file: every outline with an xmlUrl is a feed,
// and the outlines it sits in (at any depth) are its labels. A feed listed
// several times is one feed with the union of its labels.
func parseOPML(raw []byte) ([]importFeed, error) {
	var doc opmlDoc
	dec := xml.NewDecoder(bytes.NewReader(raw))
	dec.CharsetReader = charset.NewReaderLabel
	dec.Strict = false
	if err := dec.Decode(&doc); err != nil {
		return nil, fault.Newf(fault.BadRequest, "the file is not OPML: %v", trimErr(err))
	}
	var out []importFeed
	at := map[string]int{}
	var walk func(os []outline, labels []string)
	walk = func(os []outline, labels []string) {
		for _, o := range os {
			name := strings.TrimSpace(o.Text)
			if name == "" {
				name = strings.TrimSpace(o.Title)
			}
			if u := strings.TrimSpace(o.XMLURL); u != "" {
				key := normalizeURL(u)
				i, seen := at[key]
				if !seen {
					title := strings.TrimSpace(o.Title)
					if title == "" {
						title = name
					}
					at[key] = len(out)
					out = append(out, importFeed{URL: u, Title: title, SiteURL: strings.TrimSpace(o.HTMLURL)})
					i = len(out) - 1
				}
				for _, l := range labels {
					if !slices.Contains(out[i].Labels, l) {
						out[i].Labels = append(out[i].Labels, l)
					}
				}
				continue
			}
			if len(o.Outlines) > 0 {
				next := labels
				if name != "" {
					next = append(slices.Clone(labels), name)
				}
				walk(o.Outlines, next)
			}
		}
	}
	walk(doc.Body.Outlines, nil)
	return out, nil
}

func trimErr(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// buildOPML writes the Group's subscriptions as OPML 2.0: one outline per
// label holding its feeds (a feed with several labels is under each), then
// the feeds without a label. Everything is sorted, so exporting what an
// import of this file made gives this file again.
func buildOPML(title string, labels map[string]string, subs []exportSub) []byte {
	sortSubs := func(list []exportSub) {
		slices.SortFunc(list, func(a, b exportSub) int {
			if c := strings.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title)); c != 0 {
				return c
			}
			return strings.Compare(a.URL, b.URL)
		})
	}
	feedOutline := func(s exportSub) outline {
		return outline{Text: s.Title, Title: s.Title, Type: "rss", XMLURL: s.URL, HTMLURL: s.SiteURL}
	}
	type folder struct {
		name string
		subs []exportSub
	}
	byLabel := map[string]*folder{}
	var loose []exportSub
	for _, s := range subs {
		placed := false
		for _, id := range s.Labels {
			name, ok := labels[id]
			if !ok {
				continue
			}
			f := byLabel[name]
			if f == nil {
				f = &folder{name: name}
				byLabel[name] = f
			}
			if !slices.ContainsFunc(f.subs, func(x exportSub) bool { return x.URL == s.URL }) {
				f.subs = append(f.subs, s)
			}
			placed = true
		}
		if !placed {
			loose = append(loose, s)
		}
	}
	folders := make([]*folder, 0, len(byLabel))
	for _, f := range byLabel {
		folders = append(folders, f)
	}
	slices.SortFunc(folders, func(a, b *folder) int { return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) })
	var doc opmlDoc
	doc.Version = "2.0"
	doc.Head.Title = title
	for _, f := range folders {
		sortSubs(f.subs)
		o := outline{Text: f.name, Title: f.name}
		for _, s := range f.subs {
			o.Outlines = append(o.Outlines, feedOutline(s))
		}
		doc.Body.Outlines = append(doc.Body.Outlines, o)
	}
	sortSubs(loose)
	for _, s := range loose {
		doc.Body.Outlines = append(doc.Body.Outlines, feedOutline(s))
	}
	out, _ := xml.MarshalIndent(doc, "", "  ") // plain strings always marshal
	return append([]byte(xml.Header), append(out, '\n')...)
}

type exportSub struct {
	URL, Title, SiteURL string
	Labels              []string
}

// exportOPML answers GET /api/{db}/_reader/opml with the Group's
// subscriptions as an OPML file.
func (m *Module) exportOPML(w http.ResponseWriter, r *http.Request) error {
	db := r.PathValue("db")
	labels, subs, err := m.readSubscriptions(r.Context(), db)
	if err != nil {
		return err
	}
	names := map[string]string{}
	for id, l := range labels {
		names[id] = l
	}
	var list []exportSub
	for _, s := range subs {
		list = append(list, s.exportSub)
	}
	w.Header().Set("Content-Type", "text/x-opml; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="oficina-feeds.opml"`)
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buildOPML("Oficina feeds", names, list))
	return nil
}

// groupSub is a subscription as import and export see it.
type groupSub struct {
	exportSub
	ID   string
	Rev  string
	Body map[string]any
}

// readSubscriptions reads the Group's labels (id → name) and subscriptions.
func (m *Module) readSubscriptions(ctx context.Context, db string) (map[string]string, []groupSub, error) {
	labels := map[string]string{}
	if err := eachDoc(ctx, m.deps.Store, db, KlassLabel, func(d store.Doc, body map[string]any) bool {
		labels[d.ID] = str(body["name"])
		return true
	}); err != nil {
		return nil, nil, err
	}
	var subs []groupSub
	err := eachDoc(ctx, m.deps.Store, db, KlassSubscription, func(d store.Doc, body map[string]any) bool {
		ls, _ := labelIDs(body["reader_label_ids"])
		title := str(body["title"])
		if title == "" {
			title = str(body["url"])
		}
		subs = append(subs, groupSub{
			exportSub: exportSub{URL: str(body["url"]), Title: title, SiteURL: str(body["website_url"]), Labels: ls},
			ID:        d.ID, Rev: d.Rev, Body: body,
		})
		return true
	})
	return labels, subs, err
}

// importOPML answers POST /api/{db}/_reader/opml. The body is an OPML file
// (Content-Type text/x-opml, application/xml or text/xml) or, from the SPA
// sending a large file in chunks, {"outlines": [{url, title, html_url,
// labels: [names]}]}. Labels are found by name or created (kind folder);
// feeds already subscribed get the labels they lack; the others are
// subscribed through the write path (fetched by the next refresh). Every
// feed is done or reported: → 200 {"ok", "created", "updated", "unchanged",
// "labels_created", "failed": [{"url", "reason"}]}.
func (m *Module) importOPML(w http.ResponseWriter, r *http.Request) error {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var feeds []importFeed
	switch ct {
	case "application/json":
		var in struct {
			Outlines []importFeed `json:"outlines"`
		}
		if err := httpjson.Decode(w, r, maxOPMLBytes, &in); err != nil {
			return err
		}
		if in.Outlines == nil {
			return fault.New(fault.BadRequest, `the body needs "outlines": [{"url", "title", "labels"}]`)
		}
		feeds = in.Outlines
	case "text/x-opml", "application/xml", "text/xml", "application/x-opml", "text/plain":
		raw, err := io.ReadAll(r.Body)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return fault.Newf(fault.TooLarge, "Request body is larger than %d bytes", maxOPMLBytes)
			}
			return fault.Wrap(fault.BadRequest, "could not read the request body", err)
		}
		if feeds, err = parseOPML(raw); err != nil {
			return err
		}
	default:
		return fault.New(fault.UnsupportedMedia, "Content-Type must be text/x-opml, application/xml or application/json")
	}
	if len(feeds) > maxImport {
		return fault.Newf(fault.TooLarge, "at most %d feeds per import request", maxImport)
	}
	res, err := m.importFeeds(r.Context(), module.Principal(r), r.PathValue("db"), feeds)
	if err != nil {
		return err
	}
	httpWrite(w, http.StatusOK, res)
	return nil
}

type importResult struct {
	OK            bool           `json:"ok"`
	Created       int            `json:"created"`
	Updated       int            `json:"updated"`
	Unchanged     int            `json:"unchanged"`
	LabelsCreated int            `json:"labels_created"`
	Failed        []importFailed `json:"failed"`
}

type importFailed struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

func (m *Module) importFeeds(ctx context.Context, p *access.Principal, db string, feeds []importFeed) (importResult, error) {
	res := importResult{OK: true, Failed: []importFailed{}}
	labels, subs, err := m.readSubscriptions(ctx, db)
	if err != nil {
		return res, err
	}
	labelByName := map[string]string{}
	for id, name := range labels {
		labelByName[strings.ToLower(name)] = id
	}
	subByURL := map[string]*groupSub{}
	for i := range subs {
		subByURL[normalizeURL(subs[i].URL)] = &subs[i]
	}
	labelID := func(name string) (string, error) {
		name = strings.Join(strings.Fields(name), " ")
		if id, ok := labelByName[strings.ToLower(name)]; ok {
			return id, nil
		}
		id := ids.New(ids.PrefixOf(KlassLabel))
		if _, err := m.deps.Docs.Save(ctx, p, db, id, "", map[string]any{"klass": KlassLabel, "name": truncateRunes(name, 60), "kind": "folder"}); err != nil {
			return "", err
		}
		labelByName[strings.ToLower(name)] = id
		res.LabelsCreated++
		return id, nil
	}
	// Labels are found or made in order; the subscriptions are then
	// written several at a time (their fsyncs shared).
	type pending struct {
		url, id, rev string
		body         map[string]any
		create       bool
	}
	var writes []*pending
	byKey := map[string]*pending{}
	for _, f := range feeds {
		u, err := url.Parse(strings.TrimSpace(f.URL))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			res.Failed = append(res.Failed, importFailed{URL: truncateRunes(f.URL, 200), Reason: "url " + fault.IsInvalid})
			continue
		}
		var want []any
		failed := false
		for _, name := range f.Labels {
			if strings.TrimSpace(name) == "" {
				continue
			}
			id, err := labelID(name)
			if err != nil {
				if err := res.refused(f.URL, err); err != nil {
					return res, err
				}
				failed = true
				break
			}
			if !slices.Contains(want, any(id)) {
				want = append(want, id)
			}
		}
		if failed {
			continue
		}
		key := normalizeURL(u.String())
		merge := func(body map[string]any) bool {
			list, _ := body["reader_label_ids"].([]any)
			merged := slices.Clone(list)
			for _, id := range want {
				if !slices.Contains(merged, id) {
					merged = append(merged, id)
				}
			}
			body["reader_label_ids"] = merged
			return len(merged) != len(list)
		}
		if w := byKey[key]; w != nil {
			merge(w.body) // listed twice in this request
			continue
		}
		var w *pending
		if s, ok := subByURL[key]; ok {
			if !merge(s.Body) {
				res.Unchanged++
				continue
			}
			w = &pending{url: f.URL, id: s.ID, rev: s.Rev, body: s.Body}
		} else {
			body := map[string]any{"klass": KlassSubscription, "url": key, "title": truncateRunes(strings.TrimSpace(f.Title), 200), "active": true}
			merge(body)
			if site, err := url.Parse(strings.TrimSpace(f.SiteURL)); err == nil && (site.Scheme == "http" || site.Scheme == "https") && site.Host != "" {
				body["website_url"] = site.String()
			}
			w = &pending{url: f.URL, id: ids.New(ids.PrefixOf(KlassSubscription)), body: body, create: true}
		}
		writes = append(writes, w)
		byKey[key] = w
	}
	var (
		mu    sync.Mutex
		fatal error
		wg    sync.WaitGroup
	)
	sem := make(chan struct{}, 8)
	for _, w := range writes {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			_, err := m.deps.Docs.Save(ctx, p, db, w.id, w.rev, w.body)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				if err := res.refused(w.url, err); err != nil && fatal == nil {
					fatal = err
				}
			case w.create:
				res.Created++
			default:
				res.Updated++
			}
		}()
	}
	wg.Wait()
	return res, fatal
}

// refused records a write the rules refused (a 4xx) against u and returns
// nil; any other failure is returned, stopping the import (what was done
// stays done, and a second import of the same file completes it).
func (res *importResult) refused(u string, err error) error {
	reason := ""
	if fe, ok := fault.As(err); ok && fe.Kind != fault.Internal {
		var parts []string
		for field, msgs := range fe.Fields {
			parts = append(parts, field+" "+strings.Join(msgs, ", "))
		}
		slices.Sort(parts)
		reason = strings.Join(parts, "; ")
		if reason == "" {
			reason = fe.Reason
		}
	} else if errors.Is(err, store.ErrConflict) {
		reason = fault.MsgConflict
	} else {
		return err
	}
	res.Failed = append(res.Failed, importFailed{URL: truncateRunes(u, 200), Reason: reason})
	return nil
}
