package module

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/mango"
	"github.com/oficina/oficina/shared/stream"
)

// ViewRow is one row of a view answer, CouchDB style.
type ViewRow struct {
	ID    string          `json:"id,omitempty"`
	Key   any             `json:"key"`
	Value any             `json:"value"`
	Doc   json.RawMessage `json:"doc,omitempty"`
}

// CounterView is a reduce-only view over the counts the change stream
// keeps (never computed from documents at read time): rows gives the grouped
// rows (group_level=1) with int64 values. It answers group_level (or group),
// reduce, key, keys, descending, skip and limit like CouchDB; group_level=0
// (the default) gives one row with key null and the total, and a database
// with nothing counted gives no rows.
func CounterView(ddoc, name string, rows func(c stream.Counts) []ViewRow) View {
	return CountsView(ddoc, name, func(_ context.Context, _ ViewCall, c stream.Counts) ([]ViewRow, error) { return rows(c), nil })
}

// CountsView is CounterView for rows that need a little more than the
// counts (the finance balances add each wallet's opening balance and group
// by its currency): rows may read the db, but only what does not grow with
// the records (settings, the wallets), never the records themselves.
func CountsView(ddoc, name string, rows func(ctx context.Context, c ViewCall, counts stream.Counts) ([]ViewRow, error)) View {
	return View{DDoc: ddoc, Name: name, Serve: func(ctx context.Context, c ViewCall) (any, error) {
		q, err := parseCounterViewQuery(c.Query)
		if err != nil {
			return nil, err
		}
		counts, err := stream.Read(ctx, c.Store, c.DB)
		if err != nil {
			return nil, err
		}
		out, err := rows(ctx, c, counts)
		if err != nil {
			return nil, err
		}
		return map[string]any{"rows": q.apply(out)}, nil
	}}
}

// TallyRows turns one tally into grouped rows; the empty key becomes null,
// as a CouchDB view emitting a missing field would.
func TallyRows(m map[string]int64) []ViewRow {
	rows := make([]ViewRow, 0, len(m))
	for k, n := range m {
		var key any = k
		if k == "" {
			key = nil
		}
		rows = append(rows, ViewRow{Key: key, Value: n})
	}
	return rows
}

type counterViewQuery struct {
	groupLevel  int
	keys        []any // nil = every key
	descending  bool
	skip, limit int // limit -1 = none
}

func (q counterViewQuery) apply(rows []ViewRow) []ViewRow {
	slices.SortFunc(rows, func(a, b ViewRow) int { return mango.Collate(a.Key, b.Key) })
	if q.keys != nil {
		var picked []ViewRow
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
			n, _ := row.Value.(int64)
			total += n
		}
		rows = []ViewRow{{Key: nil, Value: total}}
	}
	if q.descending {
		slices.Reverse(rows)
	}
	rows = rows[min(q.skip, len(rows)):]
	if q.limit >= 0 && q.limit < len(rows) {
		rows = rows[:q.limit]
	}
	if rows == nil {
		rows = []ViewRow{}
	}
	return rows
}

func parseCounterViewQuery(v url.Values) (counterViewQuery, error) {
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
	if includeDocs, err := httpjson.BoolParam(v.Get("include_docs"), "include_docs"); err != nil {
		return q, err
	} else if includeDocs {
		return q, fault.New(fault.BadRequest, "`include_docs` is invalid for reduce")
	}
	group, err := httpjson.BoolParam(v.Get("group"), "group")
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
	if q.descending, err = httpjson.BoolParam(v.Get("descending"), "descending"); err != nil {
		return q, err
	}
	if q.skip, err = httpjson.IntParam(v.Get("skip"), "skip", 0); err != nil {
		return q, err
	}
	if q.limit, err = httpjson.IntParam(v.Get("limit"), "limit", -1); err != nil {
		return q, err
	}
	return q, nil
}
