package servicedocs

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/store"
)

// maxPlanned bounds the maintenances one plan reads.
const maxPlanned = 5000

// listAll reads every live document of klass in db, up to max.
func (m *Module) listAll(ctx context.Context, db, klass string, max int) ([]store.Doc, error) {
	var out []store.Doc
	q := store.ListQuery{Klass: klass, Limit: 500}
	for len(out) < max {
		page, err := m.deps.Store.List(ctx, db, q)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Docs...)
		if page.Next == "" {
			break
		}
		q.After = page.Next
	}
	return out, nil
}

// plan answers GET /api/{db}/_maintenances/plan?days=90: the maintenances
// whose next date falls within the coming days, overdue ones first (the
// earliest date first), with the names of their equipment and customers.
//
//	200 {"rows":[{"maintenance":{…},"days_left":-3,"customer_id":"cus-…"}],"equipment":{"eqi-…":"name"},"customers":{"cus-…":"name"}}
func (m *Module) plan(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	db := r.PathValue("db")
	days, err := httpjson.IntParam(r.URL.Query().Get("days"), "days", 90)
	if err != nil {
		return err
	}
	if days < 1 || days > 366 {
		return fault.Newf(fault.BadRequest, "days: from 1 to 366")
	}
	all, err := m.listAll(ctx, db, KlassMaintenance, maxPlanned)
	if err != nil {
		return err
	}
	today := m.now().Truncate(24 * time.Hour)
	type row struct {
		Maintenance json.RawMessage `json:"maintenance"`
		DaysLeft    int             `json:"days_left"`
		// CustomerID is the equipment's customer (a key of "customers").
		CustomerID string `json:"customer_id,omitempty"`
		next       string
		equipment  string
	}
	rows := []row{}
	equipment, customers, owner := map[string]string{}, map[string]string{}, map[string]string{}
	for _, d := range all {
		var f struct {
			Next      string `json:"next_maintenance"`
			Equipment string `json:"equipment_id"`
		}
		if json.Unmarshal(d.Body, &f) != nil || f.Next == "" {
			continue
		}
		next, err := time.Parse(time.DateOnly, f.Next)
		if err != nil {
			continue
		}
		left := int(next.Sub(today).Hours() / 24)
		if left > days {
			continue
		}
		rows = append(rows, row{Maintenance: docs.WithMeta(d), DaysLeft: left, next: f.Next, equipment: f.Equipment})
		equipment[f.Equipment] = ""
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].next < rows[j].next })
	for id := range equipment {
		_, e, err := m.get(ctx, db, id)
		if err != nil {
			return err
		}
		equipment[id] = equipmentName(e)
		if c := str(e["customer_id"]); c != "" {
			owner[id] = c
			if _, ok := customers[c]; !ok {
				_, cb, err := m.get(ctx, db, c)
				if err != nil {
					return err
				}
				customers[c] = str(cb["name"])
			}
		}
	}
	for i := range rows {
		rows[i].CustomerID = owner[rows[i].equipment]
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"rows": rows, "equipment": equipment, "customers": customers})
	return nil
}
