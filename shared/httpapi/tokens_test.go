package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/ids"
)

func TestAPITokens(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana, bia := g.user("ana@example.com", "en", true), g.user("bia@example.com", "en", true)
	acc := g.createGroup(ana, "Ana's")
	other := g.createGroup(bia, "Bia's")
	create := func(m *member, body map[string]any) hres {
		return m.b.do("POST", "/api/"+m.id+"/_design/token/_update/create", body)
	}
	bearer := func(tok string) *browser {
		b := g.browser()
		b.bearer = tok
		return b
	}

	// Create: the secret once, stored only hashed.
	r := expect(t, create(ana, map[string]any{"description": "CI", "permissions": "read-write"}), http.StatusCreated, "")
	rw, rwID := r["token"].(string), r["id"].(string)
	if !strings.HasPrefix(rw, "oft_") || r["ok"] != true || ids.Klass(rwID) != "UserToken" {
		t.Fatalf("answer %v", r)
	}
	d := g.doc(ana.id, rwID)
	for k, want := range map[string]any{"klass": "UserToken", "description": "CI", "permissions": "read-write", "active": true, "user_id": ana.id} {
		if d[k] != want {
			t.Errorf("token doc %s = %v, want %v", k, d[k], want)
		}
	}
	if dbs, ok := d["dbs"].([]any); !ok || len(dbs) != 0 || d["created_at"] == nil {
		t.Errorf("token doc %v", d)
	}
	if strings.Contains(string(mustJSON(t, d)), strings.TrimPrefix(rw, "oft_")) || strings.Contains(string(mustJSON(t, d)), auth.HashToken(rw)) {
		t.Error("the document holds the secret or its hash")
	}
	if _, err := g.st.GetRecord(context.Background(), auth.TokenRecordKind, auth.HashToken(rw)); err != nil {
		t.Errorf("no token record: %v", err)
	}
	r = expect(t, create(ana, map[string]any{"description": "reports", "permissions": "read", "dbs": []string{acc, acc}}), http.StatusCreated, "")
	ro, roID := r["token"].(string), r["id"].(string)
	if dbs := g.doc(ana.id, roID)["dbs"].([]any); len(dbs) != 1 || dbs[0] != acc {
		t.Errorf("dbs %v", dbs)
	}
	r = expect(t, create(ana, map[string]any{"description": "third", "permissions": "read"}), http.StatusCreated, "")
	third, thirdID := r["token"].(string), r["id"].(string)

	// Validation.
	for _, c := range []struct {
		body  map[string]any
		field string
		msg   string
	}{
		{map[string]any{"description": "x"}, "permissions", "can't be blank"},
		{map[string]any{"permissions": "admin"}, "permissions", "not in allowed list"},
		{map[string]any{"permissions": "read", "dbs": []string{other}}, "dbs", "is invalid"}, // not her Group
		{map[string]any{"permissions": "read", "dbs": []string{ana.id}}, "dbs", "is invalid"},
	} {
		m := expect(t, create(ana, c.body), http.StatusUnprocessableEntity, "")
		if f := fieldErr(t, m, c.field); len(f) != 1 || f[0] != c.msg {
			t.Errorf("%v: %v", c.body, m["fields"])
		}
	}
	expect(t, create(bia, map[string]any{"permissions": "read"}), http.StatusCreated, "")
	expect(t, bia.b.do("POST", "/api/"+ana.id+"/_design/token/_update/create", map[string]any{"permissions": "read"}), http.StatusForbidden, "")
	// Tokens are made by the handler only.
	expect(t, ana.b.do("POST", "/api/"+ana.id, map[string]any{"klass": "UserToken", "permissions": "read-write", "active": true}), http.StatusForbidden, "Permission denied")

	// List: active ones, newest first (SPEC §7).
	list := g.find(ana, ana.id, map[string]any{"selector": map[string]any{"klass": "UserToken", "active": true}, "sort": []any{map[string]any{"created_at": "desc"}}})
	if len(list) != 3 || list[0]["_id"] != thirdID || list[1]["_id"] != roID || list[2]["_id"] != rwID {
		t.Errorf("list %v", list)
	}
	for _, tok := range list {
		if _, ok := tok["token"]; ok {
			t.Errorf("listed token has a secret: %v", tok)
		}
	}

	// A read-write token works on the whole API; a read token reads only.
	expect(t, bearer(rw).do("GET", "/api/"+acc, nil), http.StatusOK, "")
	expect(t, bearer(rw).do("POST", "/api/"+acc, map[string]any{"klass": "Customer", "name": "Zé"}), http.StatusCreated, "")
	expect(t, bearer(ro).do("GET", "/api/"+acc+"/_all_docs", nil), http.StatusOK, "")
	expect(t, bearer(ro).do("POST", "/api/"+acc+"/_find", map[string]any{"selector": map[string]any{"klass": "Customer"}}), http.StatusOK, "")
	seq := g.updateSeqOf(acc)
	expect(t, bearer(ro).do("POST", "/api/"+acc, map[string]any{"klass": "Customer", "name": "Zé"}), http.StatusForbidden, "Permission denied")
	expect(t, bearer(ro).do("POST", "/api/"+acc+"/_bulk_docs", map[string]any{"docs": []any{map[string]any{"klass": "Customer"}}}), http.StatusForbidden, "Permission denied")
	if g.updateSeqOf(acc) != seq {
		t.Error("a read token wrote")
	}
	// Limited to its dbs: the read token cannot read Ana's own db.
	expect(t, bearer(ro).do("GET", "/api/"+ana.id, nil), http.StatusForbidden, "")
	// Tokens cannot make (or revoke) tokens.
	expect(t, bearer(rw).do("POST", "/api/"+ana.id+"/_design/token/_update/create", map[string]any{"permissions": "read-write"}), http.StatusForbidden, "Permission denied")
	expect(t, bearer(rw).do("PUT", "/api/"+ana.id+"/_design/token/_update/revoke/"+roID, map[string]any{}), http.StatusForbidden, "Permission denied")

	// Revoke: at once.
	r = expect(t, ana.b.do("PUT", "/api/"+ana.id+"/_design/token/_update/revoke/"+rwID, map[string]any{}), http.StatusOK, "")
	if r["id"] != rwID || g.doc(ana.id, rwID)["active"] != false {
		t.Errorf("revoke: %v %v", r, g.doc(ana.id, rwID))
	}
	expect(t, bearer(rw).do("GET", "/api/"+acc, nil), http.StatusUnauthorized, "Invalid or revoked token")
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/_design/token/_update/revoke/"+rwID, map[string]any{}), http.StatusOK, "")
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/_design/token/_update/revoke/"+ids.New("tok"), map[string]any{}), http.StatusNotFound, "")
	list = g.find(ana, ana.id, map[string]any{"selector": map[string]any{"klass": "UserToken", "active": true}})
	if len(list) != 2 {
		t.Errorf("active after revoke: %v", list)
	}
	// A revoked token stays revoked.
	d = g.doc(ana.id, rwID)
	m := expect(t, ana.b.do("PUT", "/api/"+ana.id+"/"+rwID+"?rev="+d["_rev"].(string), map[string]any{"active": true}), http.StatusUnprocessableEntity, "")
	if f := fieldErr(t, m, "active"); len(f) != 1 {
		t.Errorf("reactivate: %v", m)
	}
	// Deactivating or deleting the document through the document API revokes too.
	d = g.doc(ana.id, roID)
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/"+roID+"?rev="+d["_rev"].(string), map[string]any{"active": false, "permissions": "read-write"}), http.StatusCreated, "")
	if d = g.doc(ana.id, roID); d["active"] != false || d["permissions"] != "read" {
		t.Errorf("after deactivate: %v", d)
	}
	expect(t, bearer(ro).do("GET", "/api/"+acc, nil), http.StatusUnauthorized, "")
	expect(t, bearer(third).do("GET", "/api/_session", nil), http.StatusOK, "")
	d = g.doc(ana.id, thirdID)
	expect(t, ana.b.do("DELETE", "/api/"+ana.id+"/"+thirdID+"?rev="+d["_rev"].(string), nil), http.StatusOK, "")
	expect(t, bearer(third).do("GET", "/api/_session", nil), http.StatusUnauthorized, "Invalid or revoked token")
	if _, err := g.st.GetRecord(context.Background(), auth.TokenRecordKind, auth.HashToken(third)); err == nil {
		t.Error("deleting the document left the credential")
	}
}
