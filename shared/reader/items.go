package reader

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/fetchguard"
	"github.com/oficina/oficina/shared/htmlsafe"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// toggles are the item update handlers (SPEC.md §7): read and starred are
// independent.
var toggles = []struct {
	fn    string
	field string
	value bool
}{
	{"read", "read", true},
	{"unread", "read", false},
	{"star", "starred", true},
	{"unstar", "starred", false},
}

// registerToggles registers PUT /api/{db}/_design/status/_update/{fn}/{id}.
func (m *Module) registerToggles(r *module.Registry) {
	for _, t := range toggles {
		r.Update(module.Update{DDoc: "status", Fn: t.fn, WithID: true, Access: module.AccessWrite, Klass: KlassItem,
			Handle: func(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
				d, err := m.setFlag(ctx, c.Principal, c.DB, c.DocID, t.field, t.value)
				return module.UpdateResult{Doc: d}, err
			}})
	}
}

// setFlag sets one flag of an item through the write path, as p. Setting
// it to the value it has writes nothing (no history entry) and answers the
// current revision. A concurrent write (a fetch updating the item) is
// retried on the new revision.
func (m *Module) setFlag(ctx context.Context, p *access.Principal, db, id, field string, value bool) (store.Doc, error) {
	if ids.Klass(id) != KlassItem {
		return store.Doc{}, fault.New(fault.NotFound, "missing")
	}
	for range 5 {
		d, body, err := m.current(ctx, db, id)
		if err != nil {
			return store.Doc{}, err
		}
		if body == nil {
			return store.Doc{}, fault.New(fault.NotFound, "missing")
		}
		if boolOf(body[field]) == value {
			return d, nil
		}
		body[field] = value
		saved, err := m.deps.Docs.Save(ctx, p, db, id, d.Rev, body)
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		return saved, err
	}
	return store.Doc{}, store.ErrConflict
}

// loadContent fetches an item's original page through the guard, extracts
// the readable part (go-readability), sanitises it against the page's URL
// and stores it as the item's content, which later fetches of the feed
// keep. It answers {"ok","id","rev","content","content_type"}.
func (m *Module) loadContent(w http.ResponseWriter, r *http.Request) error {
	db, id := r.PathValue("db"), r.PathValue("id")
	p := module.Principal(r)
	if ids.Klass(id) != KlassItem {
		return fault.New(fault.NotFound, "missing")
	}
	d, body, err := m.current(r.Context(), db, id)
	if err != nil {
		return err
	}
	if body == nil {
		return fault.New(fault.NotFound, "missing")
	}
	page := str(body["url"])
	if page == "" {
		return fault.Invalid(map[string][]string{"url": {fault.CantBeBlank}})
	}
	res, err := m.fetcher.Get(r.Context(), page, http.Header{"Accept": {"text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"}})
	if err != nil {
		return fault.Invalid(map[string][]string{"url": {MsgUnreachable, fetchguard.Failure(err, "feed")}})
	}
	if res.StatusCode != http.StatusOK {
		return fault.Invalid(map[string][]string{"url": {MsgUnreachable, fmt.Sprintf("HTTP %d %s", res.StatusCode, http.StatusText(res.StatusCode))}})
	}
	article, err := readability.FromReader(bytes.NewReader(res.Body), res.URL)
	if err != nil || article.Node == nil {
		return fault.Invalid(map[string][]string{"url": {MsgNoContent}})
	}
	var out bytes.Buffer
	if err := article.RenderHTML(&out); err != nil {
		return fault.Invalid(map[string][]string{"url": {MsgNoContent}})
	}
	content := htmlsafe.Sanitize(out.String(), res.URL)
	if strings.TrimSpace(htmlsafe.Text(content, 10)) == "" {
		return fault.Invalid(map[string][]string{"url": {MsgNoContent}})
	}
	for range 5 {
		body["content"], body["content_type"], body["content_loaded"] = content, "html", true
		body["summary"] = ""
		saved, err := m.deps.Docs.Save(r.Context(), p, db, id, d.Rev, body)
		if errors.Is(err, store.ErrConflict) {
			if d, body, err = m.current(r.Context(), db, id); err != nil || body == nil {
				return fault.New(fault.Conflict, fault.MsgConflict)
			}
			continue
		}
		if err != nil {
			return err
		}
		httpWrite(w, http.StatusOK, map[string]any{"ok": true, "id": saved.ID, "rev": saved.Rev, "content": content, "content_type": "html"})
		return nil
	}
	return store.ErrConflict
}

func jsonOf(v any) (json.RawMessage, error) { return json.Marshal(v) }
