package reader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/htmlsafe"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Field messages beyond the spec's generic ones (the SPA translates them).
const (
	MsgNotAFeed     = "is not a feed"
	MsgUnreachable  = "could not be fetched"
	MsgNotAllowed   = "is not allowed"
	MsgTooManyItems = "is too long (maximum is 20 items)"
	MsgNoContent    = "has no readable content"
)

// serverFields of a subscription are written by the fetcher only: a
// client's values are replaced by the stored ones.
var serverFields = []string{"fetch_status", "fetch_error"}

func (m *Module) registerKlasses(r *module.Registry) {
	r.Schema(schema.Klass{Name: KlassLabel, Fields: []schema.Field{
		{Name: "name", Type: schema.String, Required: true, Max: 60},
		{Name: "kind", Type: schema.Enum, Enum: []string{"label", "folder"}, Default: "label"},
	}})
	r.Rule(KlassLabel, m.labelRule)

	r.Schema(schema.Klass{Name: KlassSubscription, Fields: []schema.Field{
		{Name: "url", Type: schema.URL, Required: true},
		{Name: "website_url", Type: schema.URL},
		{Name: "title", Type: schema.String, Max: 200},
		{Name: "customize_title", Type: schema.Bool, Default: false},
		{Name: "active", Type: schema.Bool, Default: true},
		{Name: "reader_label_ids", Type: schema.List},
		{Name: "refresh_interval", Type: schema.Int, Min: schema.Int64(MinInterval), MaxValue: schema.Int64(MaxInterval), Default: json.Number(fmt.Sprint(DefaultInterval))},
	}})
	r.Rule(KlassSubscription, m.subscriptionRule)

	r.Schema(schema.Klass{Name: KlassItem, Fields: []schema.Field{
		{Name: "url", Type: schema.URL},
		{Name: "title", Type: schema.String, Max: 500},
		{Name: "content", Type: schema.Text, Max: maxContentBytes},
		{Name: "content_type", Type: schema.Enum, Enum: []string{"text", "html"}},
		{Name: "summary", Type: schema.Text, Max: 1000},
		{Name: "author", Type: schema.String, Max: 200},
		{Name: "reader_subscription_id", Type: schema.String, Max: 40},
		{Name: "reader_subscription", Type: schema.Object},
		{Name: "reader_label_ids", Type: schema.List},
		{Name: "read", Type: schema.Bool, Default: false},
		{Name: "starred", Type: schema.Bool, Default: false},
		{Name: "posted_at", Type: schema.DateTime},
		{Name: "enclosures", Type: schema.List},
	}})
	r.Rule(KlassItem, m.itemRule)
	r.SortKey(KlassItem, itemSortKey)
	// Their index pages sort by these by default.
	r.IndexBy(KlassLabel, "name")
	r.IndexBy(KlassSubscription, "title")
}

// ---- labels -----------------------------------------------------------------

// labelRule derives the display label and keeps names unique in a Group
// (case-insensitive).
func (m *Module) labelRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	name := str(w.New["name"])
	w.New["label"] = name
	if w.Old != nil && strings.EqualFold(str(w.Old["name"]), name) {
		return nil
	}
	taken := false
	err := eachDoc(ctx, m.deps.Store, w.DB, KlassLabel, func(d store.Doc, body map[string]any) bool {
		if d.ID != w.ID && strings.EqualFold(str(body["name"]), name) {
			taken = true
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	if taken {
		return fault.Invalid(map[string][]string{"name": {fault.AlreadyTaken}})
	}
	return nil
}

// ---- subscriptions ----------------------------------------------------------

// subscriptionRule keeps the fetcher's fields the fetcher's, checks the
// labels (live labels of the same Group, at most 20, no repeats), derives
// reader_label_id (the first label, SPEC.md §3) and the display label, and
// refuses a URL the Group already subscribes to.
func (m *Module) subscriptionRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	if w.Principal != m.server {
		for _, f := range serverFields {
			if v, ok := w.Old[f]; ok {
				w.New[f] = v
			} else {
				delete(w.New, f)
			}
		}
	}
	errs := map[string][]string{}
	labels, msg := labelIDs(w.New["reader_label_ids"])
	if msg == "" {
		for _, id := range labels {
			if ok, err := liveDoc(ctx, m.deps.Store, w.DB, id, KlassLabel); err != nil {
				return err
			} else if !ok {
				msg = schema.MsgMustExist
				break
			}
		}
	}
	if msg != "" {
		errs["reader_label_ids"] = []string{msg}
	} else {
		list := make([]any, len(labels))
		for i, id := range labels {
			list[i] = id
		}
		w.New["reader_label_ids"] = list
		if len(labels) > 0 {
			w.New["reader_label_id"] = labels[0]
		} else {
			delete(w.New, "reader_label_id")
		}
	}
	u := normalizeURL(str(w.New["url"]))
	w.New["url"] = u
	if strings.TrimSpace(str(w.New["title"])) == "" {
		if p, err := url.Parse(u); err == nil {
			w.New["title"] = p.Host
		}
	}
	w.New["label"] = w.New["title"]
	if w.Old == nil || normalizeURL(str(w.Old["url"])) != u {
		taken, err := m.subscribed(ctx, w.DB, u, w.ID)
		if err != nil {
			return err
		}
		if taken {
			errs["url"] = append(errs["url"], fault.AlreadyTaken)
		}
	}
	if len(errs) > 0 {
		return fault.Invalid(errs)
	}
	return nil
}

// subscribed reports whether another subscription of db has url. Only
// bodies that mention the URL are decoded.
func (m *Module) subscribed(ctx context.Context, db, u, except string) (bool, error) {
	needle, _ := json.Marshal(u)
	found := false
	err := eachRaw(ctx, m.deps.Store, db, KlassSubscription, func(d store.Doc) bool {
		if d.ID == except || !bytes.Contains(d.Body, needle) {
			return true
		}
		body, err := docs.Decode(d.Body)
		if err == nil && normalizeURL(str(body["url"])) == u {
			found = true
			return false
		}
		return true
	})
	return found, err
}

// labelIDs reads a list of label ids: strings, each a ReaderLabel id, no
// repeats (dropped), at most MaxLabels. msg is a field message.
func labelIDs(v any) ([]string, string) {
	if v == nil {
		return nil, ""
	}
	list, ok := v.([]any)
	if !ok {
		return nil, schema.MsgInvalid
	}
	var out []string
	for _, e := range list {
		id, ok := e.(string)
		if !ok || ids.Klass(id) != KlassLabel {
			return nil, schema.MsgMustExist
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) > MaxLabels {
		return nil, MsgTooManyItems
	}
	return out, ""
}

// normalizeURL trims the URL, lower-cases its scheme and host and drops
// the fragment, so the same feed written twice compares equal.
func normalizeURL(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment = ""
	u.RawFragment = ""
	if u.Path == "" && u.RawQuery == "" {
		u.Path = "/"
	}
	return u.String()
}

// ---- items ------------------------------------------------------------------

// itemRule checks the enclosures (checkEnclosures) and sanitises the
// content on every write path (feeds, the API, imports): html through
// htmlsafe with the item's own URL as base, text kept as text; derives the
// summary when missing, posted_at (normalised to the stamp format so the
// sort key orders it) and the display label.
func (m *Module) itemRule(ctx context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	if err := checkEnclosures(n); err != nil {
		return err
	}
	if content, ok := n["content"].(string); ok && (w.Old == nil || content != str(w.Old["content"]) || str(n["content_type"]) != str(w.Old["content_type"])) {
		if str(n["content_type"]) != "text" {
			n["content_type"] = "html"
			var base *url.URL
			if u, err := url.Parse(str(n["url"])); err == nil && u.IsAbs() {
				base = u
			}
			n["content"] = fitContent(htmlsafe.Sanitize(content, base), base)
		} else {
			n["content"] = htmlsafe.Truncate(content, maxContentBytes/4)
		}
	}
	if str(n["summary"]) == "" && str(n["content"]) != "" {
		if str(n["content_type"]) == "html" {
			n["summary"] = htmlsafe.Text(str(n["content"]), 300)
		} else {
			n["summary"] = htmlsafe.Truncate(strings.Join(strings.Fields(str(n["content"])), " "), 300)
		}
	}
	posted := str(n["posted_at"])
	if t, err := time.Parse(time.RFC3339, posted); err == nil {
		n["posted_at"] = t.UTC().Format(docs.TimeFormat)
	} else {
		n["posted_at"] = n["created_at"]
	}
	n["label"] = n["title"]
	return nil
}

// fitContent cuts sanitised HTML that would make the document too large,
// then sanitises the cut (a tag may have been split).
func fitContent(html string, base *url.URL) string {
	if len(html) <= maxContentBytes {
		return html
	}
	cut := html[:maxContentBytes-2000]
	if i := strings.LastIndexByte(cut, '<'); i > len(cut)-2000 {
		cut = cut[:i]
	}
	return htmlsafe.Sanitize(strings.ToValidUTF8(cut, ""), base)
}

// itemState is the two-letter state of an item: u(nread)/r(ead) ×
// n(ot starred)/s(tarred). It leads the sort key, so each state is a
// contiguous range of the klass index.
func itemState(read, starred bool) string {
	s := "u"
	if read {
		s = "r"
	}
	if starred {
		return s + "s"
	}
	return s + "n"
}

// itemSortKey orders items by state, then posted_at.
func itemSortKey(body map[string]any) string {
	read, _ := body["read"].(bool)
	starred, _ := body["starred"].(bool)
	return itemState(read, starred) + str(body["posted_at"])
}

// itemTally counts an item under its state and under each label × state.
func itemTally(f stream.Fields) map[string]int64 {
	st := itemState(f.Bool("read"), f.Bool("starred"))
	out := map[string]int64{st: 1}
	var labels []string
	f.Decode("reader_label_ids", &labels)
	for _, l := range labels {
		if ids.Klass(l) == KlassLabel {
			out[l+"|"+st] = 1
		}
	}
	return out
}

// unreadByLabel is the unread-by-label view: one row per label (and a
// null key for every item).
func unreadByLabel(c stream.Counts) []module.ViewRow {
	t := c.Tally(TallyItems)
	byLabel := map[string]int64{}
	var total int64
	for k, n := range t {
		label, st, found := strings.Cut(k, "|")
		if !found {
			st, label = k, ""
		}
		if !strings.HasPrefix(st, "u") {
			continue
		}
		if label == "" {
			total += n
		} else {
			byLabel[label] += n
		}
	}
	rows := make([]module.ViewRow, 0, len(byLabel)+1)
	if total > 0 {
		rows = append(rows, module.ViewRow{Key: nil, Value: total})
	}
	for l, n := range byLabel {
		rows = append(rows, module.ViewRow{Key: l, Value: n})
	}
	return rows
}

// ---- helpers ----------------------------------------------------------------

func str(v any) string { s, _ := v.(string); return s }

func boolOf(v any) bool { b, _ := v.(bool); return b }

// liveDoc reports whether id is a live document of klass in db.
func liveDoc(ctx context.Context, st store.Store, db, id, klass string) (bool, error) {
	d, err := st.Get(ctx, db, id)
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDeleted):
		return false, nil
	case err != nil:
		return false, err
	}
	return d.Klass == klass, nil
}

// eachRaw calls fn for every live document of klass in db until it
// returns false.
func eachRaw(ctx context.Context, st store.Store, db, klass string, fn func(d store.Doc) bool) error {
	q := store.ListQuery{Klass: klass, Limit: 500}
	for {
		page, err := st.List(ctx, db, q)
		if err != nil {
			return fmt.Errorf("reader: list %s of %s: %w", klass, db, err)
		}
		for _, d := range page.Docs {
			if !fn(d) {
				return nil
			}
		}
		if page.Next == "" {
			return nil
		}
		q.After = page.Next
	}
}

// eachDoc is eachRaw with decoded bodies (undecodable ones are skipped).
func eachDoc(ctx context.Context, st store.Store, db, klass string, fn func(d store.Doc, body map[string]any) bool) error {
	return eachRaw(ctx, st, db, klass, func(d store.Doc) bool {
		body, err := docs.Decode(d.Body)
		if err != nil {
			return true
		}
		return fn(d, body)
	})
}
