package wiki

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// registerRoutes registers the wiki's calls:
//
//	GET  /api/{db}/_wiki/pages/{id}/html                 → {id, rev, title, categories, content_type, updated_at, updated_by, html, links, wanted, linked_by}
//	GET  /api/{db}/_wiki/pages/{id}/versions             → {versions: [{rev, seq, at, by, title, size, current}]}
//	GET  /api/{db}/_wiki/pages/{id}/versions/{rev}       → {rev, seq, at, by, title, content, content_type, categories, fields}
//	GET  /api/{db}/_wiki/pages/{id}/conflict?rev=        → {conflict, current: the document, current_by, current_at, ancestor: {…, rev} | null, changes: [versions since]}
//	POST /api/{db}/_wiki/preview {content, content_type?} → {html, links, wanted}
//	GET  /api/{db}/_wiki/resolve?title=                  → {id, title, redirected}
//	GET  /api/{db}/_wiki/search?q=&category=&limit=      → {total, rows: [{id, title, title_html, categories, updated_at, title_match, snippet}]}
//	GET  /api/{db}/_wiki/titles?q=&limit=                → {rows: [{id, title}]}
//	GET  /api/{db}/_wiki/recent?limit=                   → {changed: [{id, title, updated_at, updated_by}], viewed: [{id, title, at}]}
//	GET  /api/{db}/_wiki/categories                      → {rows: [{category, count}]}
//	GET  /api/{db}/_wiki/export.zip?category=&id=        → a zip of Markdown files
//	GET  /api/{db}/_wiki/export.pdf?category=&id=        → the pages laid out in one PDF (at most MaxPDFPages)
//	GET  /api/{db}/_wiki/highlight.css?style=            → the code highlighting stylesheet
//	GET  /api/{db}/_design/wiki/_view/linked-by?key="han-…" → {total_rows, offset, rows: [{id, key, value: title}]}
func (m *Module) registerRoutes(r *module.Registry) {
	page := func(pattern string, h func(w http.ResponseWriter, r *http.Request) error) {
		r.Route(module.Route{Pattern: pattern, Access: module.AccessRead, Klass: KlassHandbook, Handle: h})
	}
	page("GET /api/{db}/_wiki/pages/{id}/html", m.pageHTML)
	page("GET /api/{db}/_wiki/pages/{id}/versions", m.pageVersions)
	page("GET /api/{db}/_wiki/pages/{id}/versions/{rev}", m.pageVersion)
	page("GET /api/{db}/_wiki/pages/{id}/conflict", m.pageConflict)
	read := func(pattern string, h func(w http.ResponseWriter, r *http.Request) error) {
		r.Route(module.Route{Pattern: pattern, Access: module.AccessRead, Handle: h})
	}
	r.Route(module.Route{Pattern: "POST /api/{db}/_wiki/preview", Access: module.AccessRead, MaxBody: maxPreviewBytes, Handle: m.preview})
	read("GET /api/{db}/_wiki/resolve", m.resolveRoute)
	read("GET /api/{db}/_wiki/search", m.searchRoute)
	read("GET /api/{db}/_wiki/titles", m.titlesRoute)
	read("GET /api/{db}/_wiki/recent", m.recentRoute)
	read("GET /api/{db}/_wiki/categories", m.categoriesRoute)
	read("GET /api/{db}/_wiki/export.zip", m.exportZip)
	read("GET /api/{db}/_wiki/export.pdf", m.exportPDF)
	read("GET /api/{db}/_wiki/highlight.css", m.highlightCSS)
	r.View(module.View{DDoc: "wiki", Name: "linked-by", Serve: m.linkedByView})
}

const (
	maxPreviewBytes = 1 << 20
	defaultLimit    = 20
	maxLimit        = 100
	maxViewed       = 20
	kindViewed      = "wiki-viewed"
)

// Ref is a page named in an answer.
type Ref struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// loadPage reads a live handbook of db (404 otherwise: another Group's id
// is not found here either).
func (m *Module) loadPage(ctx context.Context, db, id string) (store.Doc, map[string]any, error) {
	if !handbookID.MatchString(id) {
		return store.Doc{}, nil, store.ErrNotFound
	}
	d, err := m.st.Get(ctx, db, id)
	if err != nil {
		return d, nil, err
	}
	if d.Klass != KlassHandbook {
		return d, nil, store.ErrNotFound
	}
	body, err := docs.Decode(d.Body)
	return d, body, err
}

// refs names ids with their titles from the index, leaving out pages that
// are not live.
func refs(s *pageSnap, ids []string) []Ref {
	out := make([]Ref, 0, len(ids))
	for _, id := range ids {
		if e := s.byID[id]; e != nil {
			out = append(out, Ref{ID: id, Title: e.Title})
		}
	}
	slices.SortFunc(out, func(a, b Ref) int { return strings.Compare(normTitle(a.Title), normTitle(b.Title)) })
	return out
}

// pageHTML renders a page with what it links to and what links to it,
// and notes it among the caller's recently viewed pages.
func (m *Module) pageHTML(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id := r.Context(), r.PathValue("db"), r.PathValue("id")
	d, body, err := m.loadPage(ctx, db, id)
	if err != nil {
		return err
	}
	snap, err := m.pages.get(ctx, db)
	if err != nil {
		return err
	}
	targets := map[string]string{}
	if mp, ok := body["link_targets"].(map[string]any); ok {
		for k, v := range mp {
			targets[k] = str(v)
		}
	}
	res := resolver{
		title: func(t string) string {
			n := normTitle(t)
			if id := targets[n]; id != "" && snap.byID[id] != nil {
				return id
			}
			if e, _ := snap.resolve(t); e != nil {
				return e.ID
			}
			return ""
		},
		live: func(id string) bool { return snap.byID[id] != nil },
	}
	out := m.linker(db).render(str(body["content"]), str(body["content_type"]), res)
	by, err := m.linkedBy(ctx, db, id)
	if err != nil {
		return err
	}
	wanted := docs.Strings(body["wanted"])
	if p := module.Principal(r); p != nil && p.UserID != "" {
		if err := m.noteViewed(ctx, db, p.UserID, id); err != nil {
			m.log.WarnContext(ctx, "recently viewed not kept", "err", err)
		}
	}
	cats := docs.Strings(body["categories"])
	httpjson.Write(w, http.StatusOK, map[string]any{
		"id": id, "rev": d.Rev, "title": str(body["title"]), "categories": cats, "content_type": str(body["content_type"]),
		"updated_at": body["updated_at"], "updated_by": body["updated_by"], "title_history": orEmpty(body["title_history"]),
		"html": out, "links": refs(snap, docs.Strings(body["links"])), "wanted": wanted, "linked_by": refs(snap, by),
	})
	return nil
}

func orEmpty(v any) any {
	if v == nil {
		return []any{}
	}
	return v
}

// noteViewed keeps the user's last maxViewed pages of db (a record, not a
// document: viewing writes nothing a Group sees).
func (m *Module) noteViewed(ctx context.Context, db, user, id string) error {
	key := db + "\x00" + user
	for range 5 {
		prev, list, err := readRecord[[]viewed](ctx, m.st, kindViewed, key)
		if err != nil {
			return err
		}
		list = slices.DeleteFunc(list, func(v viewed) bool { return v.ID == id })
		list = append([]viewed{{ID: id, At: m.now().UTC().Format(docs.TimeFormat)}}, list...)
		if len(list) > maxViewed {
			list = list[:maxViewed]
		}
		raw, _ := json.Marshal(list)
		if err := m.st.Transact(ctx, []store.RecordWrite{store.SwapWrite(kindViewed, key, raw, prev)}); !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return nil
}

type viewed struct {
	ID string `json:"id"`
	At string `json:"at"`
}

// pageVersions lists the kept versions of a page (live or deleted).
func (m *Module) pageVersions(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id := r.Context(), r.PathValue("db"), r.PathValue("id")
	cur, err := m.pageOrTombstone(ctx, db, id)
	if err != nil {
		return err
	}
	list, err := m.versions(ctx, db, id)
	if err != nil {
		return err
	}
	rows := make([]map[string]any, len(list))
	for i, v := range list {
		rows[i] = map[string]any{"rev": v.Rev, "seq": v.Seq, "at": v.At, "by": v.By, "title": v.Title, "size": v.Size, "current": v.Rev == cur.Rev && !cur.Deleted}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"id": id, "deleted": cur.Deleted, "versions": rows})
	return nil
}

// pageOrTombstone finds a handbook of db, live or deleted (its versions
// outlive it, for restoring).
func (m *Module) pageOrTombstone(ctx context.Context, db, id string) (store.Doc, error) {
	if !handbookID.MatchString(id) {
		return store.Doc{}, store.ErrNotFound
	}
	d, err := m.st.Get(ctx, db, id)
	if err != nil && !errors.Is(err, store.ErrDeleted) {
		return d, err
	}
	if d.Klass != KlassHandbook && !(d.Deleted && d.Klass == "") {
		return d, store.ErrNotFound
	}
	return d, nil
}

var revRE = regexp.MustCompile(`^[1-9][0-9]{0,9}-[0-9a-f]{32}$`)

// versionOut is a version's contents as the routes answer them.
func versionOut(v Version, body map[string]any) map[string]any {
	ct := str(body["content_type"])
	if ct == "" {
		ct = "markdown"
	}
	return map[string]any{
		"rev": v.Rev, "seq": v.Seq, "at": v.At, "by": v.By, "title": str(body["title"]), "content": str(body["content"]),
		"content_type": ct, "categories": docs.Strings(body["categories"]), "fields": orEmpty(body["fields"]),
		"uri": body["uri"], "value_for": body["value_for"],
	}
}

// pageVersion answers one kept version.
func (m *Module) pageVersion(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id, rev := r.Context(), r.PathValue("db"), r.PathValue("id"), r.PathValue("rev")
	if _, err := m.pageOrTombstone(ctx, db, id); err != nil {
		return err
	}
	if !revRE.MatchString(rev) {
		return fault.New(fault.BadRequest, "Invalid rev format")
	}
	v, body, err := m.version(ctx, db, id, rev)
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, versionOut(v, body))
	return nil
}

// version finds a kept version by rev (404 when it is not kept).
func (m *Module) version(ctx context.Context, db, id, rev string) (Version, map[string]any, error) {
	list, err := m.versions(ctx, db, id)
	if err != nil {
		return Version{}, nil, err
	}
	i := slices.IndexFunc(list, func(v Version) bool { return v.Rev == rev })
	if i < 0 {
		return Version{}, nil, fault.New(fault.NotFound, "This version is not kept")
	}
	body, ok, err := m.snapshotBody(ctx, db, id, rev)
	if err != nil {
		return Version{}, nil, err
	}
	if !ok {
		return Version{}, nil, fault.New(fault.NotFound, "This version is not kept")
	}
	return list[i], body, nil
}

// pageConflict answers what an editor whose save got a 409 needs: the
// current version (with its _rev, to save the merge against), the version
// the editor started from (the common ancestor: ?rev=, from the kept
// versions; null when it is no longer kept) and the versions saved since.
func (m *Module) pageConflict(w http.ResponseWriter, r *http.Request) error {
	ctx, db, id := r.Context(), r.PathValue("db"), r.PathValue("id")
	rev := r.URL.Query().Get("rev")
	if !revRE.MatchString(rev) {
		return fault.New(fault.BadRequest, "Invalid rev format")
	}
	d, body, err := m.loadPage(ctx, db, id)
	if err != nil {
		return err
	}
	list, err := m.versions(ctx, db, id)
	if err != nil {
		return err
	}
	cur := Version{Rev: d.Rev, Seq: d.Seq, At: str(body["updated_at"])}
	if by, ok := body["updated_by"].(map[string]any); ok {
		cur.By = &stream.Who{ID: str(by["_id"]), Label: str(by["label"])}
	}
	// The current version is the whole document as GET answers it (with _id
	// and _rev), so a merge saved over it keeps every field another editor
	// changed; who saved it and when come beside it (current_by, current_at).
	current, err := docs.Decode(docs.WithMeta(d))
	if err != nil {
		return err
	}
	if str(current["content_type"]) == "" {
		current["content_type"] = "markdown"
	}
	out := map[string]any{"id": id, "conflict": rev != d.Rev, "current": current, "current_by": cur.By, "current_at": cur.At, "ancestor": nil, "changes": []Version{}}
	if rev != d.Rev {
		if v, ab, err := m.version(ctx, db, id, rev); err == nil {
			out["ancestor"] = versionOut(v, ab)
			var since []Version
			for _, x := range list {
				if x.Seq > v.Seq {
					since = append(since, x)
				}
			}
			if since != nil {
				out["changes"] = since
			}
		} else if fe, ok := fault.As(err); !ok || fe.Kind != fault.NotFound {
			return err
		}
	}
	httpjson.Write(w, http.StatusOK, out)
	return nil
}

// previewRequest is the body of POST _wiki/preview.
type previewRequest struct {
	Content     string `json:"content"`
	ContentType string `json:"content_type"` // markdown (default), html or text
}

// preview renders unsaved content as the page would show it.
func (m *Module) preview(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	var in previewRequest
	if err := httpjson.Decode(w, r, maxPreviewBytes, &in); err != nil {
		return err
	}
	switch in.ContentType {
	case "":
		in.ContentType = "markdown"
	case "markdown", "html", "text":
	default:
		return fault.Invalid(map[string][]string{"content_type": {fault.NotInList}})
	}
	if len([]rune(in.Content)) > MaxContent {
		return fault.Invalid(map[string][]string{"content": {fmt.Sprintf("is too long (maximum is %d characters)", MaxContent)}})
	}
	snap, err := m.pages.get(ctx, db)
	if err != nil {
		return err
	}
	l := m.linker(db)
	found := l.extract(in.Content, in.ContentType)
	var links []string
	var wanted []string
	for _, t := range found.Titles {
		if e, _ := snap.resolve(t); e != nil {
			links = append(links, e.ID)
		} else {
			wanted = append(wanted, t)
		}
	}
	links = append(links, found.IDs...)
	res := resolver{
		title: func(t string) string {
			if e, _ := snap.resolve(t); e != nil {
				return e.ID
			}
			return ""
		},
		live: func(id string) bool { return snap.byID[id] != nil },
	}
	if wanted == nil {
		wanted = []string{}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{
		"html": l.render(in.Content, in.ContentType, res), "links": refs(snap, slices.Compact(slices.Sorted(slices.Values(links)))), "wanted": wanted,
	})
	return nil
}

// resolveRoute finds the page a title names, current or former.
func (m *Module) resolveRoute(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	title := r.URL.Query().Get("title")
	if strings.TrimSpace(title) == "" || len(title) > 4*MaxTitle {
		return fault.New(fault.BadRequest, "title: give the title of a page")
	}
	snap, err := m.pages.get(ctx, db)
	if err != nil {
		return err
	}
	e, redirected := snap.resolve(title)
	if e == nil {
		return fault.New(fault.NotFound, "missing")
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"id": e.ID, "title": e.Title, "redirected": redirected})
	return nil
}

func limitParam(r *http.Request) (int, error) {
	n, err := httpjson.IntParam(r.URL.Query().Get("limit"), "limit", defaultLimit)
	if err != nil {
		return 0, err
	}
	if n < 1 || n > maxLimit {
		return 0, fault.Newf(fault.BadRequest, "limit must be between 1 and %d", maxLimit)
	}
	return n, nil
}

// searchRoute searches titles and text.
func (m *Module) searchRoute(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	limit, err := limitParam(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if len(q.Get("q")) > 1000 || len(q.Get("category")) > 200 {
		return fault.New(fault.BadRequest, "the query is too long")
	}
	snap, err := m.pages.get(ctx, db)
	if err != nil {
		return err
	}
	rows, total := snap.search(q.Get("q"), strings.TrimSpace(q.Get("category")), limit)
	httpjson.Write(w, http.StatusOK, map[string]any{"total": total, "rows": rows})
	return nil
}

// titlesRoute answers the editor's [[ completion: titles that start with
// q first, then titles that contain it.
func (m *Module) titlesRoute(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	limit, err := limitParam(r)
	if err != nil {
		return err
	}
	q := fold(strings.TrimSpace(r.URL.Query().Get("q")))
	if len(q) > 4*MaxTitle {
		return fault.New(fault.BadRequest, "the query is too long")
	}
	snap, err := m.pages.get(ctx, db)
	if err != nil {
		return err
	}
	var first, then []Ref
	for _, e := range snap.sorted {
		switch {
		case strings.HasPrefix(e.FoldTitle, q):
			first = append(first, Ref{e.ID, e.Title})
		case strings.Contains(e.FoldTitle, q):
			then = append(then, Ref{e.ID, e.Title})
		}
		if len(first) >= limit {
			break
		}
	}
	rows := append(first, then...)
	if len(rows) > limit {
		rows = rows[:limit]
	}
	if rows == nil {
		rows = []Ref{}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"rows": rows})
	return nil
}

// recentRoute answers the recently changed pages of the Group and the
// caller's recently viewed ones.
func (m *Module) recentRoute(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	limit, err := limitParam(r)
	if err != nil {
		return err
	}
	snap, err := m.pages.get(ctx, db)
	if err != nil {
		return err
	}
	byTime := slices.Clone(snap.sorted)
	slices.SortStableFunc(byTime, func(a, b *pageEntry) int { return strings.Compare(b.UpdatedAt, a.UpdatedAt) })
	if len(byTime) > limit {
		byTime = byTime[:limit]
	}
	changed := make([]map[string]any, len(byTime))
	for i, e := range byTime {
		changed[i] = map[string]any{"id": e.ID, "title": e.Title, "updated_at": e.UpdatedAt, "updated_by": e.UpdatedBy}
	}
	viewedRows := []map[string]any{}
	if p := module.Principal(r); p != nil && p.UserID != "" {
		rec, err := m.st.GetRecord(ctx, kindViewed, db+"\x00"+p.UserID)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		var list []viewed
		_ = json.Unmarshal(rec.Value, &list)
		for _, v := range list {
			if e := snap.byID[v.ID]; e != nil && len(viewedRows) < limit {
				viewedRows = append(viewedRows, map[string]any{"id": v.ID, "title": e.Title, "at": v.At})
			}
		}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"changed": changed, "viewed": viewedRows})
	return nil
}

// categoriesRoute counts the pages of each category.
func (m *Module) categoriesRoute(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	snap, err := m.pages.get(ctx, db)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, e := range snap.sorted {
		for _, c := range e.Categories {
			counts[c]++
		}
	}
	type row struct {
		Category string `json:"category"`
		Count    int    `json:"count"`
	}
	rows := make([]row, 0, len(counts))
	for c, n := range counts {
		rows = append(rows, row{c, n})
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(strings.ToLower(a.Category), strings.ToLower(b.Category)) })
	httpjson.Write(w, http.StatusOK, map[string]any{"rows": rows})
	return nil
}

// highlightCSS serves the stylesheet of the code highlighting classes.
func (m *Module) highlightCSS(w http.ResponseWriter, r *http.Request) error {
	style := r.URL.Query().Get("style")
	if len(style) > 40 {
		return fault.New(fault.BadRequest, "unknown style")
	}
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("Cache-Control", "max-age=86400")
	_, _ = w.Write([]byte(HighlightCSS(style)))
	return nil
}

// exportSelection reads an export's ?category= and ?id=: the pages to
// export (titles A→Z) and the download's file name (the page's title, the
// category, or "wiki").
func (m *Module) exportSelection(r *http.Request) ([]*pageEntry, string, error) {
	q := r.URL.Query()
	category, only := strings.TrimSpace(q.Get("category")), q.Get("id")
	if only != "" && !handbookID.MatchString(only) {
		return nil, "", store.ErrNotFound
	}
	snap, err := m.pages.get(r.Context(), r.PathValue("db"))
	if err != nil {
		return nil, "", err
	}
	var pages []*pageEntry
	for _, e := range snap.sorted {
		if (only == "" || e.ID == only) && inCategory(e, category) {
			pages = append(pages, e)
		}
	}
	switch {
	case only != "" && len(pages) == 0:
		return nil, "", store.ErrNotFound
	case only != "":
		return pages, safeName(pages[0].Title), nil
	case category != "":
		return pages, safeName(category), nil
	}
	return pages, "wiki", nil
}

// exportZip streams the pages of a category (or one page, or all) as
// Markdown files, one per page, with the title and categories in a front
// matter.
func (m *Module) exportZip(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	pages, name, err := m.exportSelection(r)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.zip"`, name))
	zw := zip.NewWriter(w)
	used := map[string]bool{}
	for _, e := range pages {
		d, body, err := m.loadPage(ctx, db, e.ID)
		if err != nil {
			if isGone(err) {
				continue
			}
			return err // the answer has started: the zip stays unfinished
		}
		file := uniqueName(safeName(e.Title), used) + ".md"
		at, _ := time.Parse(docs.TimeFormat, str(body["updated_at"]))
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: file, Method: zip.Deflate, Modified: at})
		if err != nil {
			return err
		}
		title, _ := json.Marshal(str(body["title"]))
		cats, _ := json.Marshal(docs.Strings(body["categories"]))
		fmt.Fprintf(fw, "---\ntitle: %s\ncategories: %s\nid: %s\nrev: %s\n---\n\n", title, cats, d.ID, d.Rev)
		_, _ = fw.Write([]byte(str(body["content"])))
	}
	return zw.Close()
}

// safeName makes a title a file name: letters, digits, spaces, dots,
// dashes and underscores, no leading dot, at most 100 characters.
func safeName(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == 100 {
			break
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r), r == ' ', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteRune('_')
		}
		n++
	}
	out := strings.Trim(strings.TrimSpace(b.String()), ".")
	if out == "" {
		out = "page"
	}
	return path.Base(out)
}

func uniqueName(n string, used map[string]bool) string {
	cand := n
	for i := 2; used[strings.ToLower(cand)]; i++ {
		cand = fmt.Sprintf("%s (%d)", n, i)
	}
	used[strings.ToLower(cand)] = true
	return cand
}

// linkedByView answers CouchDB clients the linked-by index of one page:
//
//	GET /api/{db}/_design/wiki/_view/linked-by?key="han-…"
//	→ {total_rows, offset: 0, rows: [{id: linking page, key: the page, value: its title}]}
func (m *Module) linkedByView(ctx context.Context, c module.ViewCall) (any, error) {
	raw := c.Query.Get("key")
	var key string
	if raw == "" || json.Unmarshal([]byte(raw), &key) != nil {
		return nil, fault.New(fault.BadRequest, `key: give a page id as a JSON string (key="han-…")`)
	}
	rows := []map[string]any{}
	if _, _, err := m.loadPage(ctx, c.DB, key); err == nil {
		snap, err := m.pages.get(ctx, c.DB)
		if err != nil {
			return nil, err
		}
		by, err := m.linkedBy(ctx, c.DB, key)
		if err != nil {
			return nil, err
		}
		for _, r := range refs(snap, by) {
			rows = append(rows, map[string]any{"id": r.ID, "key": key, "value": r.Title})
		}
	} else if !isGone(err) {
		return nil, err
	}
	return map[string]any{"total_rows": len(rows), "offset": 0, "rows": rows}, nil
}
