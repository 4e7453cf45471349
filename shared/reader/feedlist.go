package reader

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// feedQuery is one page of the feed list.
type feedQuery struct {
	Read    string // read | unread | all
	Starred string // starred | unstarred | all
	Label   string // a ReaderLabel id, or "" for every item
	Page    int    // from 1
	Limit   int
}

func parseFeedQuery(v url.Values) (feedQuery, error) {
	q := feedQuery{Read: v.Get("read"), Starred: v.Get("starred"), Label: v.Get("label"), Page: 1, Limit: PageSize}
	if q.Read == "" {
		q.Read = "all"
	}
	if q.Starred == "" {
		q.Starred = "all"
	}
	if !slices.Contains([]string{"read", "unread", "all"}, q.Read) {
		return q, fault.New(fault.BadRequest, "Invalid value for read: must be read, unread or all")
	}
	if !slices.Contains([]string{"starred", "unstarred", "all"}, q.Starred) {
		return q, fault.New(fault.BadRequest, "Invalid value for starred: must be starred, unstarred or all")
	}
	if q.Label != "" && ids.Klass(q.Label) != KlassLabel {
		return q, fault.New(fault.BadRequest, "Invalid value for label: must be a ReaderLabel id")
	}
	var err error
	if q.Page, err = httpjson.IntParam(v.Get("page"), "page", 1); err != nil || q.Page < 1 {
		return q, fault.New(fault.BadRequest, "Invalid value for page: must be a whole number from 1")
	}
	if q.Limit, err = httpjson.IntParam(v.Get("limit"), "limit", PageSize); err != nil || q.Limit < 1 || q.Limit > 100 {
		return q, fault.New(fault.BadRequest, "Invalid value for limit: must be a whole number from 1 to 100")
	}
	if q.Page > 100_000 {
		return q, fault.New(fault.BadRequest, "Invalid value for page: too large")
	}
	return q, nil
}

// states are the sort-key prefixes the filters select.
func (q feedQuery) states() []string {
	reads := map[string][]bool{"read": {true}, "unread": {false}, "all": {false, true}}[q.Read]
	stars := map[string][]bool{"starred": {true}, "unstarred": {false}, "all": {false, true}}[q.Starred]
	var out []string
	for _, r := range reads {
		for _, s := range stars {
			out = append(out, itemState(r, s))
		}
	}
	return out
}

// serveFeed answers the feed list page, newest first:
//
//	GET /api/{db}/_design/reader/_view/feed?read=unread&starred=all&label=rlb-…&page=2&limit=10
//	→ {"total_rows", "offset", "page", "pages", "limit", "rows": [{"id", "key": posted_at, "value": null, "doc"}]}
//
// Each filter combination is one to four contiguous ranges of the klass
// index (the sort key leads with the state), merged by posted_at, so a
// page reads about offset+limit documents per range, whatever the Group
// holds; the totals come from the counts the change stream keeps. Docs
// come without their content (GET the item for it), with has_content.
func (m *Module) serveFeed(ctx context.Context, c module.ViewCall) (any, error) {
	q, err := parseFeedQuery(c.Query)
	if err != nil {
		return nil, err
	}
	counts, err := stream.Read(ctx, c.Store, c.DB)
	if err != nil {
		return nil, err
	}
	t := counts.Tally(TallyItems)
	var total int64
	for _, st := range q.states() {
		if q.Label != "" {
			total += t[q.Label+"|"+st]
		} else {
			total += t[st]
		}
	}
	offset := (q.Page - 1) * q.Limit
	// With a label, the counts also bound the scan: it stops once it has
	// seen every matching item (none at all: a label read to the end).
	bound := -1
	if q.Label != "" {
		bound = int(total)
	}
	page, more, err := feedPage(ctx, c.Store, c.DB, q.states(), q.Label, offset, q.Limit, bound)
	if err != nil {
		return nil, err
	}
	pages := (total + int64(q.Limit) - 1) / int64(q.Limit)
	if more && pages <= int64(q.Page) {
		// The counts lag a write the page already sees.
		pages = int64(q.Page) + 1
	}
	if got := int64(offset + len(page)); len(page) > 0 && total < got {
		total = got
	}
	rows := make([]module.ViewRow, 0, len(page))
	for _, d := range page {
		body, err := docs.Decode(d.Body)
		if err != nil {
			continue
		}
		body["has_content"] = str(body["content"]) != ""
		delete(body, "content")
		body["_id"], body["_rev"] = d.ID, d.Rev
		raw, err := jsonOf(body)
		if err != nil {
			return nil, err
		}
		rows = append(rows, module.ViewRow{ID: d.ID, Key: body["posted_at"], Value: nil, Doc: raw})
	}
	return map[string]any{
		"total_rows": total, "offset": offset, "page": q.Page, "pages": max(pages, 1), "limit": q.Limit, "rows": rows,
	}, nil
}

// feedPage merges the ranges of states newest first, keeps the items of
// label (when given), skips offset and returns limit of them, and whether
// more follow. bound, when not negative, is how many items match in all:
// the scan ends when it has seen them.
func feedPage(ctx context.Context, st store.Store, db string, states []string, label string, offset, limit, bound int) ([]store.Doc, bool, error) {
	if bound == 0 || (bound > 0 && offset >= bound) {
		return nil, false, nil
	}
	first := offset + limit + 1
	if label != "" {
		first = 100
	}
	cursors := make([]*rangeCursor, len(states))
	for i, s := range states {
		cursors[i] = &rangeCursor{st: st, db: db, prefix: s, chunk: min(first, 1000)}
	}
	needle := []byte(`"` + label + `"`)
	var out []store.Doc
	skipped := 0
	for {
		var best *rangeCursor
		var bestDoc store.Doc
		for _, c := range cursors {
			d, ok, err := c.peek(ctx)
			if err != nil {
				return nil, false, err
			}
			if ok && (best == nil || newer(d, bestDoc)) {
				best, bestDoc = c, d
			}
		}
		if best == nil {
			return out, false, nil
		}
		best.pop()
		if label != "" && !hasLabel(bestDoc, needle, label) {
			continue
		}
		if skipped < offset {
			skipped++
			continue
		}
		if len(out) == limit {
			return out, true, nil
		}
		out = append(out, bestDoc)
		if bound > 0 && skipped+len(out) >= bound {
			return out, false, nil
		}
	}
}

// newer orders items by posted_at (after the state prefix), then id.
func newer(a, b store.Doc) bool {
	if c := strings.Compare(a.SortKey[min(2, len(a.SortKey)):], b.SortKey[min(2, len(b.SortKey)):]); c != 0 {
		return c > 0
	}
	return a.ID > b.ID
}

// hasLabel checks the item's labels; the byte search spares decoding the
// items that cannot match.
func hasLabel(d store.Doc, needle []byte, label string) bool {
	if !bytes.Contains(d.Body, needle) {
		return false
	}
	body, err := docs.Decode(d.Body)
	if err != nil {
		return false
	}
	list, _ := body["reader_label_ids"].([]any)
	return slices.Contains(list, any(label))
}

// rangeCursor pages one state's range of the klass index, newest first.
type rangeCursor struct {
	st     store.Store
	db     string
	prefix string
	chunk  int
	buf    []store.Doc
	next   string
	done   bool
}

func (c *rangeCursor) peek(ctx context.Context) (store.Doc, bool, error) {
	for len(c.buf) == 0 {
		if c.done {
			return store.Doc{}, false, nil
		}
		page, err := c.st.List(ctx, c.db, store.ListQuery{Klass: KlassItem, Prefix: c.prefix, Descending: true, Limit: c.chunk, After: c.next})
		if err != nil {
			return store.Doc{}, false, fmt.Errorf("reader: feed page of %s: %w", c.db, err)
		}
		c.buf, c.next = page.Docs, page.Next
		c.done = page.Next == ""
		c.chunk = min(c.chunk*2, 1000)
	}
	return c.buf[0], true, nil
}

func (c *rangeCursor) pop() { c.buf = c.buf[1:] }
