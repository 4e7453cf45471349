package ticket

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// item is one checklist line.
type item struct {
	Text string `json:"text"`
	Done bool   `json:"done"`
}

func itemsOf(body map[string]any) []item {
	var out []item
	l, _ := body["payload"].([]any)
	for _, v := range l {
		m := mapOf(v)
		done, _ := m["done"].(bool)
		out = append(out, item{Text: str(m["text"]), Done: done})
	}
	return out
}

func payloadOf(items []item) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = map[string]any{"text": it.Text, "done": it.Done}
	}
	return out
}

// progressOf is the checklist summary a ticket carries for its card.
func progressOf(checklist map[string]any) map[string]any {
	items := itemsOf(checklist)
	done := 0
	for _, it := range items {
		if it.Done {
			done++
		}
	}
	return map[string]any{"done": done, "total": len(items)}
}

// startChecklist gives a ticket the checklist of its category. A ticket
// that has one already keeps every ticked item: an untouched checklist is
// replaced by the new category's lines, a ticked one gets them appended
// (unless the client asked explicitly to replace it).
func (m *Module) startChecklist(ctx context.Context, p *access.Principal, db, ticketID, categoryID string, replace bool) error {
	_, cat, err := m.get(ctx, db, categoryID)
	if err != nil || cat == nil {
		return err
	}
	lines := checklistLines(str(cat["checklist"]))
	id := checklistID(ticketID)
	d, cur, err := m.get(ctx, db, id)
	if err != nil {
		return err
	}
	var items []item
	switch {
	case cur == nil:
		if len(lines) == 0 {
			return nil
		}
		for _, l := range lines {
			items = append(items, item{Text: l})
		}
		cur = map[string]any{"klass": KlassChecklist, "ticket": ticketID}
	case str(cur["category_id"]) == categoryID:
		return nil // this effect ran already
	default:
		items = itemsOf(cur)
		touched := slices.ContainsFunc(items, func(it item) bool { return it.Done })
		if !touched || replace {
			items = nil
		}
		for _, l := range lines {
			if !slices.ContainsFunc(items, func(it item) bool { return it.Text == l }) {
				items = append(items, item{Text: l})
			}
		}
		if len(items) > maxChecklistItems {
			items = items[:maxChecklistItems]
		}
	}
	cur["category_id"] = categoryID
	cur["payload"] = payloadOf(items)
	if _, err := m.deps.Docs.Save(ctx, p, db, id, d.Rev, cur); err != nil {
		return fmt.Errorf("ticket: checklist of %s: %w", ticketID, err)
	}
	return nil
}

// checklistEffect carries the checklist's progress to its ticket, so
// cards and lists read it without another read. It runs again safely.
func (m *Module) checklistEffect(ctx context.Context, w *docs.Write, _ store.Doc) error {
	body := w.New
	if w.Deleting {
		body = map[string]any{}
	}
	ticketID := str(w.Old["ticket"])
	if ticketID == "" {
		ticketID = str(w.New["ticket"])
	}
	for range 5 {
		d, t, err := m.get(ctx, w.DB, ticketID)
		if err != nil || t == nil {
			return err
		}
		p := progressOf(body)
		if prev := mapOf(t["checklist"]); fmt.Sprint(prev["done"]) == fmt.Sprint(p["done"]) && fmt.Sprint(prev["total"]) == fmt.Sprint(p["total"]) {
			return nil
		}
		// The ticket rule recomputes the summary from the stored checklist.
		_, err = m.deps.Docs.Save(ctx, w.Principal, w.DB, ticketID, d.Rev, t)
		if err == nil || !isConflict(err) {
			return err
		}
	}
	return fault.New(fault.Conflict, fault.MsgConflict)
}

// toggle answers PUT /{db}/_design/checklist/_update/toggle/{checklist id}
// with {"index": n, "text": "…", "done": true|false}: the item at index,
// which must still read text (a concurrent edit gets a 409), is ticked or
// unticked.
func (m *Module) toggle(ctx context.Context, c module.UpdateCall) (module.UpdateResult, error) {
	var in struct {
		Index *int   `json:"index"`
		Text  string `json:"text"`
		Done  *bool  `json:"done"`
	}
	if err := c.Decode(&in); err != nil {
		return module.UpdateResult{}, err
	}
	if in.Index == nil || in.Done == nil {
		return module.UpdateResult{}, fault.Invalid(map[string][]string{"index": {"can't be blank"}})
	}
	d, body, err := m.get(ctx, c.DB, c.DocID)
	if err != nil {
		return module.UpdateResult{}, err
	}
	if body == nil || str(body["klass"]) != KlassChecklist {
		return module.UpdateResult{}, fault.New(fault.NotFound, "missing")
	}
	items := itemsOf(body)
	i := *in.Index
	if i < 0 || i >= len(items) {
		return module.UpdateResult{}, invalid("index", MsgChecklistIndex)
	}
	if in.Text != "" && items[i].Text != in.Text {
		return module.UpdateResult{}, fault.New(fault.Conflict, fault.MsgConflict)
	}
	items[i].Done = *in.Done
	body["payload"] = payloadOf(items)
	saved, err := m.deps.Docs.Save(ctx, c.Principal, c.DB, c.DocID, d.Rev, body)
	return module.UpdateResult{Doc: saved, Extra: map[string]any{"progress": progressOf(body)}}, err
}

func isConflict(err error) bool {
	if fe, ok := fault.As(err); ok {
		return fe.Kind == fault.Conflict
	}
	return errors.Is(err, store.ErrConflict)
}

// withoutChecklist is an open ticket whose category has checklist lines
// but which has no checklist (opened while the feature was off).
type withoutChecklist struct{ ticket, category string }

// missingChecklists lists the open tickets without the checklist their
// category has.
func (m *Module) missingChecklists(ctx context.Context, db string) ([]withoutChecklist, error) {
	open, _, err := m.listAll(ctx, db, store.ListQuery{Klass: KlassTicket, Prefix: openPrefix, Limit: 500}, maxOpen)
	if err != nil {
		return nil, err
	}
	hasLines := map[string]bool{}
	var out []withoutChecklist
	for _, d := range open {
		body, err := docs.Decode(d.Body)
		if err != nil {
			return nil, fmt.Errorf("ticket: decode %s/%s: %w", db, d.ID, err)
		}
		cat := str(body["category_id"])
		if cat == "" {
			continue
		}
		lines, known := hasLines[cat]
		if !known {
			_, c, err := m.get(ctx, db, cat)
			if err != nil {
				return nil, err
			}
			lines = c != nil && len(checklistLines(str(c["checklist"]))) > 0
			hasLines[cat] = lines
		}
		if !lines {
			continue
		}
		_, cl, err := m.get(ctx, db, checklistID(d.ID))
		if err != nil {
			return nil, err
		}
		if cl == nil {
			out = append(out, withoutChecklist{ticket: d.ID, category: cat})
		}
	}
	return out, nil
}

// checklistsRoute answers GET and POST /api/{db}/_tickets/checklists
// (admins): how many open tickets lack their category's checklist, and
// (POST) gives them one — what turning the feature on offers. Each runs
// again safely: a ticket given its checklist is no longer counted.
//
//	GET  → 200 {"tickets": n}
//	POST → 200 {"added": n}; 422 {"fields":{"checklist":["is disabled"]}} while the feature is off
func (m *Module) checklistsRoute(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	db := r.PathValue("db")
	missing, err := m.missingChecklists(ctx, db)
	if err != nil {
		return err
	}
	if r.Method == http.MethodGet {
		httpjson.Write(w, http.StatusOK, map[string]any{"tickets": len(missing)})
		return nil
	}
	on, err := m.feature(ctx, db, "checklist")
	if err != nil {
		return err
	}
	if !on {
		return invalid("checklist", MsgChecklistDisabled)
	}
	p := access.PrincipalFrom(ctx)
	for _, t := range missing {
		if err := m.startChecklist(ctx, p, db, t.ticket, t.category, false); err != nil {
			return err
		}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"added": len(missing)})
	return nil
}
