package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

func TestCreateGroup(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana := g.user("ana@example.com", "en", true)
	if g.hasRole(ana, "acc-") {
		t.Fatal("role before any Group")
	}
	r := expect(t, ana.b.do("POST", "/api/accounts", map[string]any{"name": "  Oficina do Zé  "}), http.StatusCreated, "")
	acc := r["id"].(string)
	if r["ok"] != true || !store.ValidRev(r["rev"].(string)) {
		t.Errorf("answer %v", r)
	}

	// The account record.
	rec := expect(t, ana.b.do("GET", "/api/accounts/"+acc, nil), http.StatusOK, "")
	for k, want := range map[string]any{"_id": acc, "klass": "Account", "name": "Oficina do Zé", "billing_email": "", "v7_plan": "free", "livemode": false, "created_by_id": ana.id} {
		if rec[k] != want {
			t.Errorf("account %s = %v, want %v", k, rec[k], want)
		}
	}
	if roles, _ := rec["admin_roles"].([]any); len(roles) != 1 || roles[0] != ana.id {
		t.Errorf("admin_roles %v", rec["admin_roles"])
	}
	if rec["created_at"] == nil || rec["created_by"] == nil {
		t.Errorf("stamps missing: %v", rec)
	}
	proj := expect(t, ana.b.do("GET", "/api/accounts/"+acc+"?fields=name,v7_plan", nil), http.StatusOK, "")
	if len(proj) != 4 || proj["name"] != "Oficina do Zé" || proj["_rev"] == nil {
		t.Errorf("fields: %v", proj)
	}

	// The db, its _security and the creator's role, effective on this (the next) request.
	if !g.hasRole(ana, acc) {
		t.Fatalf("no role %s: %v", acc, g.roles(ana))
	}
	expect(t, ana.b.do("GET", "/api/"+acc, nil), http.StatusOK, "")
	sec := expect(t, ana.b.do("GET", "/api/"+acc+"/_security", nil), http.StatusOK, "")
	if !strings.Contains(string(mustJSON(t, sec)), `"admins":{"names":["`+ana.id+`"],"roles":[]},"members":{"names":[],"roles":["`+acc+`"]}`) {
		t.Errorf("_security %v", sec)
	}

	// The creator's membership, and its mirror with the same id.
	mems := g.find(ana, acc, map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": map[string]any{"$exists": true}}})
	if len(mems) != 1 {
		t.Fatalf("memberships %v", mems)
	}
	mem := mems[0]
	want := map[string]any{"user_id": ana.id, "email": "ana@example.com", "editor": true, "admin": true, "report_view": true,
		"status": "accepted", "bookmark": false, "db_name": acc, "name": "Oficina do Zé", "created_by_id": ana.id, "confirmed-plan": "free"}
	for k, v := range want {
		if mem[k] != v {
			t.Errorf("membership %s = %v, want %v", k, mem[k], v)
		}
	}
	if u, _ := mem["user"].(map[string]any); u["_id"] != ana.id || u["label"] != "Ana Souza" {
		t.Errorf("membership user %v", mem["user"])
	}
	mirrors := g.find(ana, ana.id, map[string]any{"selector": map[string]any{"klass": "Membership"}})
	if len(mirrors) != 1 || mirrors[0]["_id"] != mem["_id"] || mirrors[0]["status"] != "accepted" || mirrors[0]["db_name"] != acc {
		t.Errorf("mirror %v", mirrors)
	}
	// SPEC §7: Membership by user_id, limit 1, fields.
	one := g.find(ana, acc, map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": ana.id}, "limit": 1, "fields": []string{"_id", "editor", "status", "bookmark"}})
	if len(one) != 1 || len(one[0]) != 4 || one[0]["editor"] != true {
		t.Errorf("membership by user_id: %v", one)
	}

	// Every configuration key of SPEC §3 with its default.
	defaults := map[string]any{
		"name": "Oficina do Zé", "created-by": "Ana Souza", "created-by-id": ana.id, "confirmed-plan": "free",
		"admin": false, "checklist": "enabled", "project-management": "disabled", "budget": "enabled", "rdisk": "enabled",
		"textnotes": "enabled", "exoreader": "disabled", "maintenance": "disabled", "billing": "disabled",
		"contract-receipt": "on-demand", "billing-email": "", "country": "US",
	}
	adjs := g.find(ana, acc, map[string]any{"selector": map[string]any{"klass": "Adjustment"}, "limit": 100})
	got := map[string]any{}
	for _, a := range adjs {
		got[a["key"].(string)] = a["value"]
		if a["label"] != a["key"] {
			t.Errorf("adjustment %v: label", a)
		}
	}
	for k, v := range defaults {
		if got[k] != v {
			t.Errorf("adjustment %s = %v, want %v", k, got[k], v)
		}
	}
	if ca, _ := got["created-at"].(string); len(ca) != len("2006-01-02T15:04:05.000Z") {
		t.Errorf("created-at %v", got["created-at"])
	}
	if len(adjs) != len(defaults)+1 {
		t.Errorf("%d adjustments", len(adjs))
	}
	// SPEC §7: adjustments by key in (…), fields _id, key, value.
	sel := g.find(ana, acc, map[string]any{"selector": map[string]any{"klass": "Adjustment", "key": map[string]any{"$in": []string{"name", "created-by", "created-by-id", "created-at", "confirmed-plan"}}}, "fields": []string{"_id", "key", "value"}})
	if len(sel) != 5 {
		t.Errorf("adjustments by key: %v", sel)
	}
}

func TestCreateGroupValidationAndFreeLimits(t *testing.T) {
	g := newGroupEnv(t, nil)
	una := g.user("una@example.com", "en", false)
	for _, body := range []any{map[string]any{"name": "  "}, map[string]any{}} {
		m := expect(t, una.b.do("POST", "/api/accounts", body), http.StatusUnprocessableEntity, "")
		if f := fieldErr(t, m, "name"); len(f) != 1 || f[0] != "can't be blank" {
			t.Errorf("fields %v", m["fields"])
		}
	}
	expect(t, una.b.do("POST", "/api/accounts", map[string]any{"name": 42}), http.StatusBadRequest, `field "name" must be a string`)
	expect(t, g.browser().do("POST", "/api/accounts", map[string]any{"name": "x"}), http.StatusUnauthorized, "")

	// Unconfirmed: one free Group.
	g.createGroup(una, "First")
	expect(t, una.b.do("POST", "/api/accounts", map[string]any{"name": "Second"}), http.StatusForbidden, accounts.MsgFreeLimitUnconfirmed)
	g.confirm("una@example.com")
	g.createGroup(una, "Second")

	// Confirmed: five, counting the free Groups the user is a member of.
	other := g.user("other@example.com", "en", true)
	theirs := g.createGroup(other, "Theirs")
	g.join(other, una, theirs, false)
	g.createGroup(una, "Third")
	g.createGroup(una, "Fourth") // 2 created + 1 membership + 2 = 5
	expect(t, una.b.do("POST", "/api/accounts", map[string]any{"name": "Sixth"}), http.StatusForbidden, accounts.MsgFreeLimit)

	// A Group that is no longer free stops counting.
	g.setPlan(theirs, "pro")
	g.createGroup(una, "Fifth free")
	expect(t, una.b.do("POST", "/api/accounts", map[string]any{"name": "Sixth"}), http.StatusForbidden, accounts.MsgFreeLimit)

	// Being member counts at accept time too.
	another := g.user("another@example.com", "en", true)
	grp := g.createGroup(another, "Another")
	mem := g.invite(another, grp, una.email, false)
	expect(t, una.b.do("PUT", "/api/"+grp+"/_design/status/_update/accept/"+mem, map[string]any{}), http.StatusForbidden, accounts.MsgFreeLimit)
	if g.hasRole(una, grp) {
		t.Error("refused accept gave the role")
	}
}

// TestGroupCreationFailureLeavesNothing makes the step before the role
// (the mirror in the creator's db) fail on a document that is already
// there, and checks that no part of the Group can be seen.
func TestGroupCreationFailureLeavesNothing(t *testing.T) {
	memID := ids.New("mem")
	var accIDs []string
	pin := func(prefix string) string {
		switch prefix {
		case "mem":
			return memID
		case "acc":
			id := ids.New("acc")
			accIDs = append(accIDs, id)
			return id
		}
		return ids.New(prefix)
	}
	g := newGroupEnv(t, pin)
	ana := g.user("ana@example.com", "en", false)
	// Ana's own document where the mirror will go.
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/"+memID, map[string]any{"klass": "Membership"}), http.StatusForbidden, "Permission denied")
	if _, err := g.st.Put(context.Background(), ana.id, store.Doc{ID: memID, Klass: "Membership", Body: []byte(`{"klass":"Membership","note":"in the way"}`)}); err != nil {
		t.Fatal(err)
	}
	r := ana.b.do("POST", "/api/accounts", map[string]any{"name": "Doomed"})
	if r.code != http.StatusConflict && r.code != http.StatusInternalServerError {
		t.Fatalf("status %d: %s", r.code, r.body)
	}
	if len(accIDs) != 1 {
		t.Fatalf("acc ids %v", accIDs)
	}
	acc := accIDs[0]
	if strings.Contains(string(r.body), acc) {
		t.Errorf("error names the Group: %s", r.body)
	}
	if g.hasRole(ana, acc) {
		t.Error("role kept")
	}
	expect(t, ana.b.do("GET", "/api/accounts/"+acc, nil), http.StatusNotFound, "")
	for _, path := range []string{"/api/" + acc, "/api/" + acc + "/_all_docs", "/api/" + acc + "/_security", "/api/" + acc + "/_changes"} {
		if c := ana.b.do("GET", path, nil).code; c != http.StatusForbidden {
			t.Errorf("GET %s: %d", path, c)
		}
	}
	mirrors := g.find(ana, ana.id, map[string]any{"selector": map[string]any{"klass": "Membership", "db_name": acc}})
	if len(mirrors) != 0 {
		t.Errorf("mirror left: %v", mirrors)
	}
	ctx := context.Background()
	if d, err := g.st.Get(ctx, "accounts", acc); err == nil {
		t.Errorf("account record left: %s", d.Body)
	}
	for _, kl := range []string{"Membership", "Adjustment"} {
		if page, err := g.st.List(ctx, acc, store.ListQuery{Klass: kl}); err != nil || len(page.Docs) != 0 {
			t.Errorf("%s left in the db: %d (%v)", kl, len(page.Docs), err)
		}
	}
	if sec, _ := access.LoadSecurity(ctx, g.st, acc); slices.Contains(sec.Admins.Names, ana.id) {
		t.Errorf("security left: %v", sec)
	}
	// Nothing counts against the free limit: the one free Group is still there to create.
	memID = ids.New("mem")
	g.createGroup(ana, "Second try")
}

func TestAccountRecordAccess(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana, bia, caio := g.user("ana@example.com", "en", true), g.user("bia@example.com", "en", true), g.user("caio@example.com", "en", true)
	acc := g.createGroup(ana, "Ana's")
	g.join(ana, bia, acc, false)

	// Members read it; the payment details only admins.
	m := expect(t, bia.b.do("GET", "/api/accounts/"+acc, nil), http.StatusOK, "")
	if m["name"] != "Ana's" {
		t.Errorf("member view %v", m)
	}
	if _, ok := m["billing_email"]; ok {
		t.Errorf("member sees billing_email: %v", m)
	}
	if _, ok := expect(t, ana.b.do("GET", "/api/accounts/"+acc, nil), http.StatusOK, "")["billing_email"]; !ok {
		t.Error("admin does not see billing_email")
	}
	// Others: 404 (as if it did not exist), anonymous 401.
	expect(t, caio.b.do("GET", "/api/accounts/"+acc, nil), http.StatusNotFound, "missing")
	expect(t, caio.b.do("GET", "/api/accounts/"+ids.New("acc"), nil), http.StatusNotFound, "missing")
	expect(t, g.browser().do("GET", "/api/accounts/"+acc, nil), http.StatusUnauthorized, "")
	// The accounts db is closed to the document API.
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/accounts"}, {"GET", "/api/accounts/_all_docs"}, {"GET", "/api/accounts/_changes"}, {"GET", "/api/accounts/_security"},
		{"POST", "/api/accounts/_find"}, {"POST", "/api/accounts/_bulk_docs"}, {"DELETE", "/api/accounts/" + acc},
	} {
		var body any
		if c.method == "POST" {
			body = map[string]any{"selector": map[string]any{}, "docs": []any{}}
		}
		if r := ana.b.do(c.method, c.path, body); r.code != http.StatusForbidden {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.code, r.body)
		}
	}

	// PUT: admins only, name required, billing_email "is invalid" when empty.
	rev := m["_rev"].(string)
	expect(t, bia.b.do("PUT", "/api/accounts/"+acc+"?rev="+rev, map[string]any{"name": "Bia's"}), http.StatusForbidden, "Permission denied")
	expect(t, caio.b.do("PUT", "/api/accounts/"+acc+"?rev="+rev, map[string]any{"name": "Caio's"}), http.StatusNotFound, "")
	r := expect(t, ana.b.do("PUT", "/api/accounts/"+acc+"?rev="+rev, map[string]any{"name": " ", "billing_email": ""}), http.StatusUnprocessableEntity, "")
	if f := fieldErr(t, r, "name"); len(f) != 1 || f[0] != "can't be blank" {
		t.Errorf("name: %v", r["fields"])
	}
	if f := fieldErr(t, r, "billing_email"); len(f) != 1 || f[0] != "is invalid" {
		t.Errorf("billing_email: %v", r["fields"])
	}
	expect(t, ana.b.do("PUT", "/api/accounts/"+acc+"?rev=1-00000000000000000000000000000000", map[string]any{"name": "X"}), http.StatusConflict, "")
	r = expect(t, ana.b.do("PUT", "/api/accounts/"+acc+"?rev="+rev, map[string]any{"name": "Renamed", "billing_email": "Pay@Example.com", "v7_plan": "corp", "admin_roles": []string{caio.id}}), http.StatusCreated, "")
	rec := expect(t, ana.b.do("GET", "/api/accounts/"+acc, nil), http.StatusOK, "")
	if rec["_rev"] != r["rev"] || rec["name"] != "Renamed" || rec["billing_email"] != "pay@example.com" || rec["v7_plan"] != "free" {
		t.Errorf("after PUT: %v", rec)
	}
	if roles := rec["admin_roles"].([]any); len(roles) != 1 {
		t.Errorf("client changed admin_roles: %v", roles)
	}
	// The name and billing e-mail adjustments, and the memberships, follow.
	if a := g.adjustment(ana, acc, "name"); a["value"] != "Renamed" {
		t.Errorf("name adjustment %v", a)
	}
	if a := g.adjustment(ana, acc, "billing-email"); a["value"] != "pay@example.com" {
		t.Errorf("billing-email adjustment %v", a)
	}
	for _, mm := range g.find(bia, bia.id, map[string]any{"selector": map[string]any{"klass": "Membership"}}) {
		if mm["name"] != "Renamed" {
			t.Errorf("mirror not renamed: %v", mm)
		}
	}
	// And the other way: the SPA renames through the adjustment.
	a := g.adjustment(ana, acc, "name")
	expect(t, ana.b.do("PUT", "/api/"+acc+"/"+a["_id"].(string)+"?rev="+a["_rev"].(string), map[string]any{"key": "name", "label": "name", "value": "Via adjustment"}), http.StatusCreated, "")
	if rec := expect(t, ana.b.do("GET", "/api/accounts/"+acc+"?fields=name", nil), http.StatusOK, ""); rec["name"] != "Via adjustment" {
		t.Errorf("record not renamed: %v", rec)
	}
}
