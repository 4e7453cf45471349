package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// viewRow is one row of a view answer, CouchDB style.
type viewRow struct {
	Key   any   `json:"key"`
	Value int64 `json:"value"`
}

// counterView reads the grouped rows (group_level=1) of a built-in view
// from a database's counts. These views are reduce-only: their values are
// kept by the change stream (shared/stream), not computed from documents.
type counterView func(c stream.Counts) []viewRow

// counterViews are the built-in views the SPA reads (SPEC.md §7), by
// design document and view name.
var counterViews = map[string]map[string]counterView{
	"count-by-klass": {"all": func(c stream.Counts) []viewRow {
		rows := make([]viewRow, 0, len(c.Klass))
		for k, v := range c.Klass {
			rows = append(rows, viewRow{Key: k, Value: v.Records})
		}
		return rows
	}},
	"count-by-open-ticket-priority": {"all": func(c stream.Counts) []viewRow { return priorityRows(c.OpenTickets) }},
	"count-by-ticket-priority":      {"all": func(c stream.Counts) []viewRow { return priorityRows(c.Tickets) }},
}

// priorityRows keys tickets without a priority by null, as a CouchDB view
// emitting doc.priority would.
func priorityRows(m map[string]int64) []viewRow {
	rows := make([]viewRow, 0, len(m))
	for p, n := range m {
		var key any = p
		if p == "" {
			key = nil
		}
		rows = append(rows, viewRow{Key: key, Value: n})
	}
	return rows
}

// view answers GET /api/{db}/_design/{ddoc}/_view/{view} for the counter
// views, with group_level (or group), reduce, key, keys, descending, skip
// and limit. group_level=0 (the default, as in CouchDB) gives one row with
// key null and the total; a database with nothing counted gives no rows.
func (s *Server) view(w http.ResponseWriter, r *http.Request) error {
	db, _, err := s.dbAccess(r, access.Read)
	if err != nil {
		return err
	}
	def, ok := counterViews[r.PathValue("ddoc")][r.PathValue("view")]
	if !ok {
		return fault.New(fault.NotFound, "missing_named_view")
	}
	q, err := parseCounterViewQuery(r)
	if err != nil {
		return err
	}
	if _, err := s.store.DBInfo(r.Context(), db); err != nil {
		return err
	}
	counts, err := stream.Read(r.Context(), s.store, db)
	if err != nil {
		return err
	}
	rows := def(counts)
	slices.SortFunc(rows, func(a, b viewRow) int { return mango.Collate(a.Key, b.Key) })
	if q.keys != nil {
		var picked []viewRow
		for _, k := range q.keys {
			for _, row := range rows {
				if mango.Collate(row.Key, k) == 0 {
					picked = append(picked, row)
				}
			}
		}
		rows = picked
	}
	if q.groupLevel == 0 && len(rows) > 0 {
		total := int64(0)
		for _, row := range rows {
			total += row.Value
		}
		rows = []viewRow{{Key: nil, Value: total}}
	}
	if q.descending {
		slices.Reverse(rows)
	}
	rows = rows[min(q.skip, len(rows)):]
	if q.limit >= 0 && q.limit < len(rows) {
		rows = rows[:q.limit]
	}
	if rows == nil {
		rows = []viewRow{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"rows": rows})
	return nil
}

type counterViewQuery struct {
	groupLevel  int
	keys        []any // nil = every key
	descending  bool
	skip, limit int // limit -1 = none
}

func parseCounterViewQuery(r *http.Request) (counterViewQuery, error) {
	v := r.URL.Query()
	q := counterViewQuery{limit: -1}
	reduce := true
	var err error
	if raw := v.Get("reduce"); raw != "" {
		if reduce, err = strconv.ParseBool(raw); err != nil {
			return q, fault.New(fault.BadRequest, "Invalid value for reduce: must be true or false")
		}
	}
	if !reduce {
		return q, fault.New(fault.BadRequest, "reduce=false is not supported: this view is a counter kept by the server, with no rows to map")
	}
	if includeDocs, err := boolParam(v.Get("include_docs"), "include_docs"); err != nil {
		return q, err
	} else if includeDocs {
		return q, fault.New(fault.BadRequest, "`include_docs` is invalid for reduce")
	}
	group, err := boolParam(v.Get("group"), "group")
	if err != nil {
		return q, err
	}
	if group {
		q.groupLevel = 1
	}
	if raw := v.Get("group_level"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 {
			return q, fault.New(fault.BadRequest, "Invalid value for group_level: must be a non-negative integer")
		}
		// Keys are not arrays, so every level above 0 is exact grouping.
		q.groupLevel = min(n, 1)
	}
	if raw := v.Get("key"); raw != "" {
		var k any
		if err := json.Unmarshal([]byte(raw), &k); err != nil {
			return q, fault.New(fault.BadRequest, `key must be a JSON value, e.g. key="high"`)
		}
		q.keys = []any{k}
	}
	if raw := v.Get("keys"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &q.keys); err != nil || q.keys == nil {
			return q, fault.New(fault.BadRequest, `keys must be a JSON array, e.g. keys=["high","low"]`)
		}
	}
	if q.descending, err = boolParam(v.Get("descending"), "descending"); err != nil {
		return q, err
	}
	if q.skip, err = intParam(v.Get("skip"), "skip", 0); err != nil {
		return q, err
	}
	if q.limit, err = intParam(v.Get("limit"), "limit", -1); err != nil {
		return q, err
	}
	return q, nil
}

// counterDocs renders a database's counts as the virtual Counter documents
// a _find on klass "Counter" answers with (one per counted klass: kind,
// amount = records, size = bytes). They are never stored, so counting
// writes nothing into the database's changes feed; ids are stable per
// klass and the rev changes exactly when the values do.
func (s *Server) counterDocs(ctx context.Context, db string) ([]store.Doc, error) {
	counts, err := stream.Read(ctx, s.store, db)
	if err != nil {
		return nil, err
	}
	docs := make([]store.Doc, 0, len(counts.Klass))
	for klass, kc := range counts.Klass {
		body, err := json.Marshal(map[string]any{"klass": stream.KlassCounter, "kind": klass, "amount": kc.Records, "size": kc.Bytes})
		if err != nil {
			return nil, err
		}
		h := sha256.Sum256([]byte(db + "\x00" + klass))
		docs = append(docs, store.Doc{
			ID:    "cnr-" + hex.EncodeToString(h[:16]),
			Rev:   store.NextRev("", false, body),
			Klass: stream.KlassCounter,
			Body:  body,
		})
	}
	slices.SortFunc(docs, func(a, b store.Doc) int { return strings.Compare(a.ID, b.ID) })
	return docs, nil
}
