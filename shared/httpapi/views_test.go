package httpapi

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// drain applies everything in the store's outbox, as the in-process
// drain does in the running product.
func (e *docEnv) drain() {
	e.t.Helper()
	ob := e.st.(store.Outbox)
	c := e.consumer
	for {
		es, err := ob.ReadOutbox(e.t.Context(), 0)
		if err != nil {
			e.t.Fatal(err)
		}
		if len(es) == 0 {
			return
		}
		changes := make([]store.Change, len(es))
		keys := make([]uint64, len(es))
		for i, en := range es {
			changes[i], keys[i] = en.Change, en.Key
		}
		if err := c.Apply(e.t.Context(), changes); err != nil {
			e.t.Fatal(err)
		}
		if err := ob.AckOutbox(e.t.Context(), keys); err != nil {
			e.t.Fatal(err)
		}
	}
}

// rows reads a view answer as [key, value] pairs.
func rows(t *testing.T, r resp) [][2]any {
	t.Helper()
	var body struct {
		Rows []struct {
			Key   any     `json:"key"`
			Value float64 `json:"value"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || body.Rows == nil {
		t.Fatalf("view answer without rows (%v): %s", err, r.Body)
	}
	out := [][2]any{}
	for _, row := range body.Rows {
		out = append(out, [2]any{row.Key, row.Value})
	}
	return out
}

func TestCounterViews(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := e.groupDB
	view := func(ddoc, query string) string {
		return "/api/" + db + "/_design/" + ddoc + "/_view/all" + query
	}
	get := func(user, target string) [][2]any {
		t.Helper()
		r := e.do(user, "GET", target, nil)
		e.expect(r, 200, "")
		return rows(t, r)
	}
	want := func(what string, got, want [][2]any) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Fatalf("%s: rows %v, want %v", what, got, want)
		}
	}

	// An empty db has no rows, so the SPA shows 0.
	want("empty, group_level=0", get("alice", view("count-by-open-ticket-priority", "?group_level=0")), [][2]any{})
	want("empty, group_level=1", get("alice", view("count-by-klass", "?group_level=1")), [][2]any{})

	tickets := []map[string]any{
		{"priority": "high", "status": "open"},
		{"priority": "high", "status": "doing"},
		{"priority": "low", "status": "done"},
		{"priority": "medium", "status": "open"},
		{"status": "open"}, // no priority: key null
		{"priority": "low", "status": "cancel"},
	}
	for _, tk := range tickets {
		tk["klass"] = "Ticket"
		e.expect(e.do("alice", "POST", "/api/"+db, tk), 201, "")
	}
	for range 2 {
		e.expect(e.do("alice", "POST", "/api/"+db, map[string]any{"klass": "Customer", "name": "Zé"}), 201, "")
	}
	// Configuration does not count as records.
	e.expect(e.do("alice", "POST", "/api/"+db, map[string]any{"klass": "Adjustment", "key": "name", "label": "name", "value": "G"}), 201, "")
	e.drain()

	want("klass, grouped", get("alice", view("count-by-klass", "?group_level=1")), [][2]any{{"Customer", 2.0}, {"Ticket", 6.0}})
	want("klass, total", get("alice", view("count-by-klass", "?group_level=0")), [][2]any{{nil, 8.0}})
	want("klass, default is reduced", get("alice", view("count-by-klass", "")), [][2]any{{nil, 8.0}})
	want("open, grouped", get("alice", view("count-by-open-ticket-priority", "?group_level=1&reduce=true")),
		[][2]any{{nil, 1.0}, {"high", 2.0}, {"medium", 1.0}})
	want("open, total (the open-ticket badge)", get("alice", view("count-by-open-ticket-priority", "?group_level=0")), [][2]any{{nil, 4.0}})
	want("all, grouped", get("alice", view("count-by-ticket-priority", "?group=true")),
		[][2]any{{nil, 1.0}, {"high", 2.0}, {"low", 2.0}, {"medium", 1.0}})
	want("key", get("alice", view("count-by-ticket-priority", "?group_level=1&key="+url.QueryEscape(`"low"`))), [][2]any{{"low", 2.0}})
	want("keys", get("alice", view("count-by-ticket-priority", "?group_level=1&keys="+url.QueryEscape(`["medium",null,"none"]`))),
		[][2]any{{"medium", 1.0}, {nil, 1.0}})
	want("keys reduced", get("alice", view("count-by-ticket-priority", "?keys="+url.QueryEscape(`["high","low"]`))), [][2]any{{nil, 4.0}})
	want("descending, limit", get("alice", view("count-by-ticket-priority", "?group_level=1&descending=true&limit=2")),
		[][2]any{{"medium", 1.0}, {"low", 2.0}})

	e.expect(e.do("alice", "GET", view("count-by-klass", "?reduce=false"), nil), 400, "reduce=false is not supported")
	e.expect(e.do("alice", "GET", view("count-by-klass", "?group_level=x"), nil), 400, "group_level")
	e.expect(e.do("alice", "GET", view("count-by-klass", "?key=high"), nil), 400, "key must be a JSON value")
	e.expect(e.do("alice", "GET", "/api/"+db+"/_design/count-by-klass/_view/nope", nil), 404, "missing_named_view")
	e.expect(e.do("alice", "GET", "/api/"+db+"/_design/nope/_view/all", nil), 404, "missing_named_view")
	if m := e.do("alice", "GET", "/api/"+db+"/_design/nope/_view/all", nil).json(t); m["error"] != "not_found" {
		t.Fatalf("unknown view: %v", m)
	}

	// Someone else's db, anonymous, and a db that does not exist.
	e.expect(e.do("bob", "GET", view("count-by-klass", "?group_level=1"), nil), 403, "")
	e.expect(e.do("", "GET", view("count-by-klass", "?group_level=1"), nil), 401, "")
	e.expect(e.do("bob", "GET", "/api/"+e.aliceDB+"/_design/count-by-open-ticket-priority/_view/all?group_level=0", nil), 403, "")
	e.expect(e.do("alice", "GET", "/api/"+ids.New("acc")+"/_design/count-by-klass/_view/all", nil), 403, "")
	// A read-only token reads views.
	want("read token", get("alice-read", view("count-by-open-ticket-priority", "?group_level=0")), [][2]any{{nil, 4.0}})
}

func TestCounterDocuments(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := e.groupDB
	find := func(user string, q map[string]any) []map[string]any {
		t.Helper()
		r := e.do(user, "POST", "/api/"+db+"/_find", q)
		e.expect(r, 200, "")
		var body struct {
			Docs []map[string]any `json:"docs"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		return body.Docs
	}
	if docs := find("alice", map[string]any{"selector": map[string]any{"klass": "Counter"}}); len(docs) != 0 {
		t.Fatalf("counters of an empty db: %v", docs)
	}
	for range 3 {
		e.expect(e.do("alice", "POST", "/api/"+db, map[string]any{"klass": "Ticket", "priority": "low"}), 201, "")
	}
	e.expect(e.do("alice", "POST", "/api/"+db, map[string]any{"klass": "Wallet", "name": "Caixa"}), 201, "")
	e.drain()
	seq := e.updateSeq(db)

	docs := find("alice", map[string]any{"selector": map[string]any{"klass": "Counter"}, "sort": []any{map[string]any{"kind": "asc"}}})
	if len(docs) != 2 || docs[0]["kind"] != "Ticket" || docs[0]["amount"] != 3.0 || docs[1]["kind"] != "Wallet" || docs[1]["amount"] != 1.0 {
		t.Fatalf("counter docs: %v", docs)
	}
	for _, d := range docs {
		id, _ := d["_id"].(string)
		rev, _ := d["_rev"].(string)
		if ids.Klass(id) != "Counter" || !store.ValidRev(rev) || d["klass"] != "Counter" || d["size"].(float64) <= 0 {
			t.Fatalf("counter doc: %v", d)
		}
	}
	// Selectors, fields and stable ids work as on stored documents.
	again := find("alice", map[string]any{"selector": map[string]any{"klass": "Counter", "kind": "Ticket"}, "fields": []any{"_id", "amount"}})
	if len(again) != 1 || again[0]["_id"] != docs[0]["_id"] || again[0]["amount"] != 3.0 || len(again[0]) != 2 {
		t.Fatalf("counter by kind: %v", again)
	}

	// Counting wrote nothing into the db: no Counter docs, same update_seq.
	if got := e.updateSeq(db); got != seq {
		t.Fatalf("update_seq moved from %d to %d by reading counters", seq, got)
	}
	ch := e.do("alice", "GET", "/api/"+db+"/_changes?include_docs=true", nil)
	e.expect(ch, 200, "")
	for _, row := range ch.json(t)["results"].([]any) {
		if doc := row.(map[string]any)["doc"].(map[string]any); doc["klass"] == "Counter" {
			t.Fatalf("a Counter document in the changes feed: %v", doc)
		}
	}

	// The rev follows the values.
	e.expect(e.do("alice", "POST", "/api/"+db, map[string]any{"klass": "Ticket"}), 201, "")
	e.drain()
	after := find("alice", map[string]any{"selector": map[string]any{"klass": "Counter", "kind": "Ticket"}})
	if len(after) != 1 || after[0]["_id"] != docs[0]["_id"] || after[0]["_rev"] == docs[0]["_rev"] || after[0]["amount"] != 4.0 {
		t.Fatalf("counter after a create: %v (before %v)", after, docs[0])
	}

	e.expect(e.do("bob", "POST", "/api/"+db+"/_find", map[string]any{"selector": map[string]any{"klass": "Counter"}}), 403, "")
}

// TestDeleteHistory: a delete through the API leaves a tombstone naming
// who deleted, so its history entry says who and when.
func TestDeleteHistory(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := e.groupDB
	id := ids.New("tik")
	r := e.do("alice", "PUT", "/api/"+db+"/"+id, map[string]any{"title": "Tela", "status": "open"})
	e.expect(r, 201, "")
	rev := r.json(t)["rev"].(string)
	r = e.do("alice", "DELETE", "/api/"+db+"/"+id+"?rev="+rev, nil)
	e.expect(r, 200, "")
	tomb := r.json(t)["rev"].(string)
	e.drain()

	entries, err := stream.HistoryOf(t.Context(), e.st, db, id)
	if err != nil || len(entries) != 2 {
		t.Fatalf("history of %s: %d entries, %v", id, len(entries), err)
	}
	d := entries[0] // newest first
	if !strings.Contains(string(d.Body), `"rev":"`+tomb+`"`) {
		t.Fatalf("newest entry is not the delete's: %s", d.Body)
	}
	var h stream.History
	if err := json.Unmarshal(d.Body, &h); err != nil {
		t.Fatal(err)
	}
	if h.Event != "destroy" || h.ItemType != "Ticket" || h.Label != "Tela" || h.Whodunnit == nil || h.Whodunnit.ID != e.aliceDB || h.Whodunnit.Label != "Alice" || h.CreatedAt == "" {
		t.Fatalf("history of the delete: %s", d.Body)
	}
	// Through the API the tombstone reads as deleted, as before.
	e.expect(e.do("alice", "GET", "/api/"+db+"/"+id, nil), 404, "deleted")
}
