package httpapi

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/ids"
)

func TestRootAndDBInfo(t *testing.T) {
	e := newDocEnv(t, Config{})
	r := e.do("", "GET", "/api/", nil)
	e.expect(r, 200, "")
	if r.json(t)["couchdb"] != "Welcome" {
		t.Fatalf("root: %s", r.Body)
	}
	e.do("alice", "PUT", "/api/"+e.aliceDB+"/"+ids.New("cus"), map[string]any{"name": "Ana"})
	info := e.do("alice", "GET", "/api/"+e.aliceDB, nil).json(t)
	if info["db_name"] != e.aliceDB || info["doc_count"].(float64) != 1 || info["update_seq"].(float64) < 1 {
		t.Fatalf("db info: %v", info)
	}
	e.expect(e.do("alice", "GET", "/api/"+ids.New("acc"), nil), 403, "") // no _security: locked
	e.expect(e.do("alice", "GET", "/api/not_a_db", nil), 400, "invalid database name")
}

func TestDocumentLifecycle(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := "/api/" + e.groupDB + "/"
	id := ids.New("cus")

	// Create: server stamps; forged stamps and klass-less bodies are handled.
	r := e.do("alice", "PUT", db+id, map[string]any{"name": "Ana", "created_at": "1999-01-01", "created_by": map[string]any{"_id": "usr-forged"}})
	e.expect(r, 201, "")
	rev1 := r.json(t)["rev"].(string)
	if !strings.HasPrefix(rev1, "1-") || r.Header.Get("ETag") != `"`+rev1+`"` {
		t.Fatalf("create: rev %q etag %q", rev1, r.Header.Get("ETag"))
	}
	got := e.do("bob", "GET", db+id, nil)
	e.expect(got, 403, "") // bob is not in the group
	got = e.do("alice", "GET", db+id, nil)
	e.expect(got, 200, "")
	doc := got.json(t)
	if doc["_id"] != id || doc["_rev"] != rev1 || doc["klass"] != "Customer" || doc["name"] != "Ana" {
		t.Fatalf("doc: %v", doc)
	}
	if doc["created_at"] == "1999-01-01" || doc["created_by"].(map[string]any)["_id"] != e.aliceDB {
		t.Fatalf("server stamps not applied: %v", doc)
	}
	if got.Header.Get("ETag") != `"`+rev1+`"` {
		t.Fatalf("GET etag %q", got.Header.Get("ETag"))
	}
	e.expect(e.do("alice", "GET", db+id, nil, "If-None-Match", `"`+rev1+`"`), 304, "")

	// Update: rev from body, ?rev= or If-Match; stale revs conflict.
	r = e.do("alice", "PUT", db+id, map[string]any{"_rev": rev1, "name": "Ana Maria"})
	e.expect(r, 201, "")
	rev2 := r.json(t)["rev"].(string)
	e.expect(e.do("alice", "PUT", db+id, map[string]any{"_rev": rev1, "name": "stale"}), 409, "Document update conflict")
	e.expect(e.do("alice", "PUT", db+id, map[string]any{"name": "no rev"}), 409, "")
	e.expect(e.do("alice", "PUT", db+id+"?rev="+rev1, map[string]any{"_rev": rev2}), 400, "different values")
	r = e.do("alice", "PUT", db+id, map[string]any{"name": "via If-Match"}, "If-Match", `"`+rev2+`"`)
	e.expect(r, 201, "")
	rev3 := r.json(t)["rev"].(string)
	doc = e.do("alice", "GET", db+id, nil).json(t)
	if doc["name"] != "via If-Match" || doc["created_at"] == doc["updated_at"] && false {
		t.Fatalf("after updates: %v", doc)
	}
	e.expect(e.do("alice", "GET", db+id+"?rev="+rev1, nil), 404, "missing")

	// Delete: stale rev conflicts; then the doc reads as deleted.
	e.expect(e.do("alice", "DELETE", db+id+"?rev="+rev2, nil), 409, "")
	e.expect(e.do("alice", "DELETE", db+id, nil), 409, "")
	e.expect(e.do("alice", "DELETE", db+id+"?rev="+rev3, nil), 200, "")
	r = e.do("alice", "GET", db+id, nil)
	e.expect(r, 404, "deleted")
	if r.json(t)["error"] != "not_found" {
		t.Fatalf("deleted envelope: %s", r.Body)
	}
	e.expect(e.do("alice", "GET", db+ids.New("cus"), nil), 404, "missing")
	// Re-creating a deleted document continues its history.
	r = e.do("alice", "PUT", db+id, map[string]any{"name": "back"})
	e.expect(r, 201, "")
	if !strings.HasPrefix(r.json(t)["rev"].(string), "5-") {
		t.Fatalf("re-create rev: %s", r.Body)
	}
}

func TestPostAndFields(t *testing.T) {
	e := newDocEnv(t, Config{})
	r := e.do("alice", "POST", "/api/"+e.aliceDB, map[string]any{"klass": "Ticket", "title": "Broken screen", "content": "long text"})
	e.expect(r, 201, "")
	id := r.json(t)["id"].(string)
	if ids.Klass(id) != "Ticket" {
		t.Fatalf("generated id %q", id)
	}
	doc := e.do("alice", "GET", "/api/"+e.aliceDB+"/"+id+"?fields=title", nil).json(t)
	if doc["title"] != "Broken screen" || doc["content"] != nil || doc["_id"] != id {
		t.Fatalf("projected doc: %v", doc)
	}
	e.expect(e.do("alice", "POST", "/api/"+e.aliceDB, map[string]any{"title": "x"}), 400, `needs an "_id" or a "klass"`)
	e.expect(e.do("alice", "POST", "/api/"+e.aliceDB, map[string]any{"klass": "Spaceship"}), 400, "unknown klass")
}

// TestBadInputChangesNothing sends every kind of malformed write and checks
// the reason names the problem and the db's update_seq does not move.
func TestBadInputChangesNothing(t *testing.T) {
	e := newDocEnv(t, Config{MaxBodyBytes: 4096})
	db := "/api/" + e.aliceDB
	id := ids.New("cus")
	e.expect(e.do("alice", "PUT", db+"/"+id, map[string]any{"name": "x"}), 201, "")
	before := e.updateSeq(e.aliceDB)
	big := `{"name":"` + strings.Repeat("a", 5000) + `"}`
	tests := []struct {
		name, method, path string
		body               any
		headers            []string
		code               int
		reason             string
	}{
		{"malformed json", "PUT", db + "/" + ids.New("cus"), `{"name": `, nil, 400, "invalid UTF-8 JSON"},
		{"trailing garbage", "PUT", db + "/" + ids.New("cus"), `{"name":"a"} {}`, nil, 400, "trailing data"},
		{"array body", "PUT", db + "/" + ids.New("cus"), `[1,2]`, nil, 400, ""},
		{"wrong content type", "PUT", db + "/" + ids.New("cus"), `{"name":"a"}`, []string{"Content-Type", "text/plain"}, 415, "application/json"},
		{"too large", "PUT", db + "/" + ids.New("cus"), big, nil, 413, "larger than 4096"},
		{"invalid id", "PUT", db + "/customer-1", map[string]any{"name": "a"}, nil, 400, "invalid document id"},
		{"unknown prefix", "PUT", db + "/zzz-0123456789abcdef0123456789abcdef", map[string]any{}, nil, 400, "invalid document id"},
		{"klass mismatch", "PUT", db + "/" + ids.New("cus"), map[string]any{"klass": "Ticket"}, nil, 400, "does not match the id prefix"},
		{"klass wrong type", "PUT", db + "/" + ids.New("cus"), map[string]any{"klass": 7}, nil, 400, `"klass" must be a string`},
		{"design doc", "PUT", db + "/_design/views", map[string]any{}, nil, 403, "built in"},
		{"bad special member", "PUT", db + "/" + ids.New("cus"), map[string]any{"_foo": 1}, nil, 400, "Bad special document member: _foo"},
		{"rev wrong type", "PUT", db + "/" + id, map[string]any{"_rev": 3}, nil, 400, "_rev must be a string"},
		{"bad rev format", "PUT", db + "/" + id + "?rev=abc", map[string]any{}, nil, 400, "Invalid rev format"},
		{"id mismatch", "PUT", db + "/" + id, map[string]any{"_id": ids.New("cus")}, nil, 400, "must match the id in the URL"},
		{"bulk without docs", "POST", db + "/_bulk_docs", map[string]any{}, nil, 400, "`docs`"},
		{"bulk member not object", "POST", db + "/_bulk_docs", map[string]any{"docs": []any{map[string]any{"klass": "Customer"}, 5}}, nil, 400, "docs[1] must be a JSON object"},
		{"bulk bad member", "POST", db + "/_bulk_docs", map[string]any{"docs": []any{map[string]any{"klass": "Customer"}, map[string]any{"_x": 1}}}, nil, 400, "Bad special"},
		{"bulk new_edits", "POST", db + "/_bulk_docs", map[string]any{"docs": []any{}, "new_edits": false}, nil, 400, "not supported"},
		{"find bad selector", "POST", db + "/_find", map[string]any{"selector": map[string]any{"a": map[string]any{"$foo": 1}}}, nil, 400, "$foo"},
		{"find no selector", "POST", db + "/_find", map[string]any{}, nil, 400, "selector"},
		{"security by member", "PUT", db + "/_security", map[string]any{"admins": "x"}, nil, 400, "_security must be"},
		{"read token writes", "PUT", "/api/" + e.aliceDB + "/" + ids.New("cus"), map[string]any{}, []string{"Authorization", "Bearer alice-read"}, 403, "Permission denied"},
		{"other user's db", "PUT", "/api/" + e.bobDB + "/" + ids.New("cus"), map[string]any{}, nil, 403, ""},
		{"anonymous", "PUT", db + "/" + ids.New("cus"), map[string]any{}, []string{"Authorization", ""}, 401, ""},
		{"bad authorization", "PUT", db + "/" + ids.New("cus"), map[string]any{}, []string{"Authorization", "Basic abc"}, 401, "Bearer"},
		{"unknown token", "PUT", db + "/" + ids.New("cus"), map[string]any{}, []string{"Authorization", "Bearer nobody"}, 401, "Invalid or revoked token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.with(t)
			r := e.do("alice", tt.method, tt.path, tt.body, tt.headers...)
			e.expect(r, tt.code, tt.reason)
			if strings.Contains(string(r.Body), "goroutine") || strings.Contains(string(r.Body), ".go:") {
				t.Fatalf("internal detail leaked: %s", r.Body)
			}
		})
	}
	if after := e.updateSeq(e.aliceDB); after != before {
		t.Fatalf("bad input wrote something: update_seq %d → %d", before, after)
	}
}

func TestBulkDocs(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := "/api/" + e.aliceDB
	existing := ids.New("cus")
	r := e.do("alice", "PUT", db+"/"+existing, map[string]any{"name": "a"})
	rev := r.json(t)["rev"].(string)
	r = e.do("alice", "POST", db+"/_bulk_docs", map[string]any{"docs": []any{
		map[string]any{"klass": "Customer", "name": "new"},
		map[string]any{"_id": existing, "_rev": "1-00000000000000000000000000000000", "name": "stale"},
		map[string]any{"_id": existing, "_rev": rev, "_deleted": true},
		map[string]any{"_id": "bad-id"},
	}})
	e.expect(r, 201, "")
	rows := r.list(t)
	if len(rows) != 4 {
		t.Fatalf("rows: %s", r.Body)
	}
	want := []string{"ok", "conflict", "ok", "bad_request"}
	for i, w := range want {
		row := rows[i].(map[string]any)
		if w == "ok" && row["ok"] != true || w != "ok" && row["error"] != w {
			t.Errorf("row %d = %v, want %s", i, row, w)
		}
	}
	e.expect(e.do("alice", "GET", db+"/"+existing, nil), 404, "deleted")
}

func TestAllDocs(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := "/api/" + e.aliceDB
	var created []string
	for i := 0; i < 5; i++ {
		id := fmt.Sprintf("cus-%032x", i+1)
		created = append(created, id)
		e.expect(e.do("alice", "PUT", db+"/"+id, map[string]any{"n": i}), 201, "")
	}
	all := e.do("alice", "GET", db+"/_all_docs", nil).json(t)
	if all["total_rows"].(float64) != 5 || len(all["rows"].([]any)) != 5 {
		t.Fatalf("all_docs: %v", all)
	}
	r := e.do("alice", "GET", db+`/_all_docs?startkey="`+created[1]+`"&endkey="`+created[3]+`"&include_docs=true`, nil).json(t)
	rows := r["rows"].([]any)
	if len(rows) != 3 || rows[0].(map[string]any)["id"] != created[1] || rows[0].(map[string]any)["doc"].(map[string]any)["n"].(float64) != 1 {
		t.Fatalf("range: %v", r)
	}
	r = e.do("alice", "GET", db+"/_all_docs?descending=true&limit=2&skip=1", nil).json(t)
	rows = r["rows"].([]any)
	if len(rows) != 2 || rows[0].(map[string]any)["id"] != created[3] {
		t.Fatalf("descending: %v", r)
	}
	r = e.do("alice", "POST", db+"/_all_docs", map[string]any{"keys": []string{created[0], "cus-ffffffffffffffffffffffffffffffff"}}).json(t)
	rows = r["rows"].([]any)
	if rows[0].(map[string]any)["id"] != created[0] || rows[1].(map[string]any)["error"] != "not_found" {
		t.Fatalf("keys: %v", r)
	}
	e.expect(e.do("alice", "GET", db+"/_all_docs?startkey=abc", nil), 400, "JSON string")
	e.expect(e.do("alice", "GET", db+"/_all_docs?limit=-1", nil), 400, "limit")
}

func TestFind(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := "/api/" + e.groupDB
	for i := 0; i < 30; i++ {
		body := map[string]any{"klass": "Wallet", "name": fmt.Sprintf("w%02d", i), "active": i%3 != 0, "currency": []string{"USD", "BRL"}[i%2]}
		e.expect(e.do("alice", "POST", db, body), 201, "")
	}
	e.expect(e.do("alice", "POST", db, map[string]any{"klass": "Customer", "name": "not a wallet", "active": true}), 201, "")
	query := map[string]any{
		"selector": map[string]any{"klass": "Wallet", "active": true, "currency": map[string]any{"$in": []string{"BRL"}}},
		"fields":   []string{"_id", "name"},
		"sort":     []any{map[string]any{"name": "desc"}},
		"limit":    4,
	}
	var names []string
	for page := 0; page < 5; page++ {
		r := e.do("alice", "POST", db+"/_find", query)
		e.expect(r, 200, "")
		res := r.json(t)
		docs := res["docs"].([]any)
		for _, d := range docs {
			doc := d.(map[string]any)
			if doc["currency"] != nil {
				t.Fatalf("fields not projected: %v", doc)
			}
			names = append(names, doc["name"].(string))
		}
		if len(docs) < 4 {
			break
		}
		query["bookmark"] = res["bookmark"]
	}
	// Odd i are BRL; active unless i%3==0: 1,5,7,11,13,17,19,23,25,29 → 10 docs, name desc.
	want := "w29 w25 w23 w19 w17 w13 w11 w07 w05 w01"
	if strings.Join(names, " ") != want {
		t.Fatalf("find pages = %q, want %q", strings.Join(names, " "), want)
	}
	// No match: an empty array, as CouchDB answers, not null.
	r0 := e.do("alice", "POST", db+"/_find", map[string]any{"selector": map[string]any{"klass": "Wallet", "name": "none"}})
	if !strings.Contains(string(r0.Body), `"docs":[]`) {
		t.Fatalf("empty find: %s", r0.Body)
	}
	// Without a klass the planner scans the db.
	r := e.do("alice", "POST", db+"/_find", map[string]any{"selector": map[string]any{"name": "not a wallet"}})
	if docs := r.json(t)["docs"].([]any); len(docs) != 1 {
		t.Fatalf("scan find: %s", r.Body)
	}
}

func TestSecurity(t *testing.T) {
	e := newDocEnv(t, Config{})
	path := "/api/" + e.groupDB + "/_security"
	sec := e.do("alice", "GET", path, nil).json(t)
	if sec["admins"].(map[string]any)["names"].([]any)[0] != e.aliceDB {
		t.Fatalf("security: %v", sec)
	}
	e.expect(e.do("bob", "GET", path, nil), 403, "")
	e.expect(e.do("alice-read", "PUT", path, map[string]any{"members": map[string]any{"roles": []string{}}}), 403, "")
	e.expect(e.do("alice", "PUT", path, map[string]any{"admins": map[string]any{"names": []string{e.aliceDB}}, "members": map[string]any{"roles": []string{e.groupDB}, "names": []string{e.bobDB}}}), 200, "")
	e.expect(e.do("bob", "GET", "/api/"+e.groupDB, nil), 200, "") // bob is now a member by name
	e.expect(e.do("bob", "PUT", path, map[string]any{}), 403, "Permission denied")
	e.expect(e.do("alice", "PUT", path, map[string]any{"owners": map[string]any{}}), 400, "unknown _security member")
}

func TestUsersDBNotExposed(t *testing.T) {
	e := newDocEnv(t, Config{})
	for _, p := range []string{"/api/_users", "/api/_users/_all_docs"} {
		if r := e.do("alice", http.MethodGet, p, nil); r.Code < 400 {
			t.Errorf("%s: %d %s", p, r.Code, r.Body)
		}
	}
}
