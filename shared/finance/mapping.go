package finance

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
)

// KlassMapping is a rule the import runs on each new record (SPEC.md §3).
const KlassMapping = "Mapping"

var (
	mapTargets = []string{"exchange", "income", "outgo", "transfer"}
	mapFields  = []string{"description", "third_party", "categories"}
	mapWatches = []string{"contains", "ends_with", "equals", "starts_with"}
	mapChanges = []string{"replace", "append", "prepend"}
)

var mappingSchema = schema.Klass{Name: KlassMapping, Fields: []schema.Field{
	{Name: "description", Type: schema.String, Required: true},
	{Name: "active", Type: schema.Bool, Default: true},
	{Name: "order", Type: schema.Int, Min: zero},
	{Name: "number", Type: schema.Int, Min: zero},
	{Name: "target", Type: schema.Enum, Enum: mapTargets, Required: true},
	{Name: "field_to_watch", Type: schema.Enum, Enum: mapFields, Required: true},
	{Name: "kind_of_watch", Type: schema.Enum, Enum: mapWatches, Required: true},
	{Name: "text_to_match", Type: schema.String, Required: true},
	{Name: "kind_of_change", Type: schema.Enum, Enum: mapChanges, Required: true},
	{Name: "field_to_change", Type: schema.Enum, Enum: mapFields, Required: true},
	{Name: "text_to_change", Type: schema.String},
}}

// Mapping is one rule: when field_to_watch matches text_to_match (case
// insensitive), field_to_change gets text_to_change (replaced, appended or
// prepended with a space between; for categories, as categories).
type Mapping struct {
	ID           string `json:"_id"`
	Active       *bool  `json:"active"`
	Order        int64  `json:"order"`
	Number       int64  `json:"number"`
	CreatedAt    string `json:"created_at"`
	Target       string `json:"target"`
	FieldToWatch string `json:"field_to_watch"`
	KindOfWatch  string `json:"kind_of_watch"`
	TextToMatch  string `json:"text_to_match"`
	KindOfChange string `json:"kind_of_change"`
	FieldToChnge string `json:"field_to_change"`
	TextToChange string `json:"text_to_change"`
}

func (m Mapping) active() bool { return m.Active == nil || *m.Active }

// validate checks a draft like the schema does, for the preview.
func (m Mapping) validate() error {
	errs := map[string][]string{}
	for field, pair := range map[string]struct {
		v    string
		enum []string
	}{
		"target": {m.Target, mapTargets}, "field_to_watch": {m.FieldToWatch, mapFields}, "kind_of_watch": {m.KindOfWatch, mapWatches},
		"kind_of_change": {m.KindOfChange, mapChanges}, "field_to_change": {m.FieldToChnge, mapFields},
	} {
		switch {
		case pair.v == "":
			errs[field] = []string{"can't be blank"}
		case !slices.Contains(pair.enum, pair.v):
			errs[field] = []string{"not in allowed list"}
		}
	}
	if strings.TrimSpace(m.TextToMatch) == "" {
		errs["text_to_match"] = []string{"can't be blank"}
	}
	if len(errs) > 0 {
		return fault.Invalid(errs)
	}
	return nil
}

// matches tells whether the rule fires on a row.
func (m Mapping) matches(r *Row) bool {
	v, want := strings.ToLower(rowField(r, m.FieldToWatch)), strings.ToLower(m.TextToMatch)
	switch m.KindOfWatch {
	case "contains":
		return strings.Contains(v, want)
	case "starts_with":
		return strings.HasPrefix(v, want)
	case "ends_with":
		return strings.HasSuffix(v, want)
	case "equals":
		return v == want
	}
	return false
}

// apply changes the row when the rule fires; it reports whether it did.
func (m Mapping) apply(r *Row) bool {
	if !m.matches(r) {
		return false
	}
	text := m.TextToChange
	if m.FieldToChnge == "categories" {
		add := splitTags(text)
		switch m.KindOfChange {
		case "replace":
			r.Categories = add
		case "append":
			r.Categories = append(r.Categories, add...)
		case "prepend":
			r.Categories = append(add, r.Categories...)
		}
		return true
	}
	p := &r.Description
	if m.FieldToChnge == "third_party" {
		p = &r.ThirdParty
	}
	switch { // texts are trimmed when saved, so a space joins them
	case m.KindOfChange == "replace" || *p == "":
		*p = text
	case m.KindOfChange == "append":
		*p += " " + text
	case m.KindOfChange == "prepend":
		*p = text + " " + *p
	}
	return true
}

func rowField(r *Row, f string) string {
	switch f {
	case "third_party":
		return r.ThirdParty
	case "categories":
		return strings.Join(r.Categories, ",")
	}
	return r.Description
}

// targetOf is a row klass's mapping target.
func targetOf(klass string) string { return strings.ToLower(klass) }

// rules are a Group's active mappings by target, in order of execution:
// order, then number, then created_at (SPEC.md §7).
type rules map[string][]Mapping

func (m *Module) loadRules(ctx context.Context, st store.Store, db string) (rules, error) {
	out := rules{}
	q := store.ListQuery{Klass: KlassMapping, Limit: 500}
	for {
		page, err := st.List(ctx, db, q)
		if err != nil {
			return nil, fmt.Errorf("finance: list mappings: %w", err)
		}
		for _, d := range page.Docs {
			var mp Mapping
			if err := json.Unmarshal(d.Body, &mp); err != nil {
				return nil, fmt.Errorf("finance: decode mapping %s: %w", d.ID, err)
			}
			mp.ID = d.ID
			if mp.active() {
				out[mp.Target] = append(out[mp.Target], mp)
			}
		}
		if page.Next == "" {
			break
		}
		q.After = page.Next
	}
	for _, list := range out {
		slices.SortStableFunc(list, func(a, b Mapping) int {
			if a.Order != b.Order {
				return cmp.Compare(a.Order, b.Order)
			}
			if a.Number != b.Number {
				return cmp.Compare(a.Number, b.Number)
			}
			return strings.Compare(a.CreatedAt, b.CreatedAt)
		})
	}
	return out, nil
}

// apply runs the rules of the row's target in order; it returns the ids of
// the rules that fired.
func (rs rules) apply(r *Row) []string {
	var fired []string
	for _, m := range rs[targetOf(r.Klass)] {
		if m.apply(r) {
			fired = append(fired, m.ID)
		}
	}
	return fired
}

// mappingPreviewRequest is the body of POST _finance/mappings/preview: a
// draft rule and how many of the last imported records to run it on.
type mappingPreviewRequest struct {
	Mapping Mapping `json:"mapping"`
	Limit   int     `json:"limit"`
}

// previewRow is what a draft rule would do to one imported record.
type previewRow struct {
	ID          string   `json:"id"`
	Klass       string   `json:"klass"`
	PostedAt    string   `json:"posted_at"`
	Description string   `json:"description"`
	ThirdParty  string   `json:"third_party"`
	Categories  []string `json:"categories"`
	Matched     bool     `json:"matched"`
	Before      string   `json:"before"`
	After       string   `json:"after"`
}

// previewMapping answers POST /api/{db}/_finance/mappings/preview
// {"mapping": {draft}, "limit": 20}: the draft run on the target's last
// imported records (newest first), nothing written.
func (m *Module) previewMapping(w http.ResponseWriter, r *http.Request) error {
	var in mappingPreviewRequest
	if err := httpjson.Decode(w, r, 64<<10, &in); err != nil {
		return err
	}
	if err := in.Mapping.validate(); err != nil {
		return err
	}
	if in.Limit <= 0 || in.Limit > 100 {
		in.Limit = 20
	}
	klass := ""
	switch in.Mapping.Target {
	case "income":
		klass = KlassIncome
	case "outgo":
		klass = KlassOutgo
	}
	rows := []previewRow{}
	if klass != "" {
		recent, err := m.lastImported(r.Context(), r.PathValue("db"), klass, in.Limit)
		if err != nil {
			return err
		}
		for _, row := range recent {
			p := previewRow{ID: row.FITID, Klass: row.Klass, PostedAt: row.PostedAt, Description: row.Description, ThirdParty: row.ThirdParty, Categories: row.Categories}
			p.Before = rowField(&row, in.Mapping.FieldToChnge)
			p.Matched = in.Mapping.apply(&row)
			p.After = rowField(&row, in.Mapping.FieldToChnge)
			if p.Categories == nil {
				p.Categories = []string{}
			}
			rows = append(rows, p)
		}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"rows": rows})
	return nil
}

// lastImported reads the newest imported records of klass (by import time:
// their created_at), as rows; the record id travels in FITID.
func (m *Module) lastImported(ctx context.Context, db, klass string, limit int) ([]Row, error) {
	type rec struct {
		Row
		ID        string `json:"_id"`
		Imported  bool   `json:"imported"`
		PaidBy    string `json:"paid_by"`
		PaidTo    string `json:"paid_to"`
		CreatedAt string `json:"created_at"`
	}
	var all []rec
	q := store.ListQuery{Klass: klass, Limit: 500}
	for {
		page, err := m.deps.Store.List(ctx, db, q)
		if err != nil {
			return nil, fmt.Errorf("finance: list %s: %w", klass, err)
		}
		for _, d := range page.Docs {
			var x rec
			if err := json.Unmarshal(d.Body, &x); err != nil || !x.Imported {
				continue
			}
			x.ID = d.ID
			all = append(all, x)
		}
		if page.Next == "" {
			break
		}
		q.After = page.Next
	}
	slices.SortFunc(all, func(a, b rec) int { return strings.Compare(b.CreatedAt, a.CreatedAt) })
	out := make([]Row, 0, min(limit, len(all)))
	for _, x := range all[:min(limit, len(all))] {
		row := x.Row
		row.Klass, row.FITID, row.ThirdParty = klass, x.ID, x.PaidBy+x.PaidTo
		out = append(out, row)
	}
	return out, nil
}
