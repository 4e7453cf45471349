package httpapi

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/oficina/oficina/shared/ids"
)

func TestGroupAdjustments(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana, bia := g.user("ana@example.com", "en", true), g.user("bia@example.com", "en", true)
	acc := g.createGroup(ana, "Ana's")
	g.join(ana, bia, acc, false)
	post := func(m *member, key string, value any) hres {
		return m.b.do("POST", "/api/"+acc, map[string]any{"_id": ids.New("adj"), "klass": "Adjustment", "key": key, "label": key, "value": value})
	}
	put := func(m *member, key string, value any) hres {
		a := g.adjustment(ana, acc, key)
		return m.b.do("PUT", "/api/"+acc+"/"+a["_id"].(string)+"?rev="+a["_rev"].(string), map[string]any{"key": key, "label": key, "value": value})
	}
	field := func(r hres, name, msg string) {
		t.Helper()
		m := expect(t, r, http.StatusUnprocessableEntity, "")
		if f := fieldErr(t, m, name); len(f) != 1 || f[0] != msg {
			t.Errorf("fields %v, want %s: %s", m["fields"], name, msg)
		}
	}

	// Regular members read the configuration but change none of it.
	expect(t, put(bia, "checklist", "enabled"), http.StatusForbidden, "Permission denied")
	expect(t, post(bia, "phones", []any{}), http.StatusForbidden, "Permission denied")

	// Values by key.
	field(put(ana, "name", "   "), "value", "can't be blank")
	field(put(ana, "name", nil), "value", "can't be blank")
	field(put(ana, "billing-email", ""), "value", "is invalid")
	field(put(ana, "billing-email", "nope"), "value", "is invalid")
	field(put(ana, "checklist", "on"), "value", "not in allowed list")
	field(put(ana, "contract-receipt", "sometimes"), "value", "not in allowed list")
	expect(t, put(ana, "contract-receipt", "always"), http.StatusCreated, "")
	expect(t, put(ana, "billing-email", "Pay@Example.com"), http.StatusCreated, "")
	if a := g.adjustment(ana, acc, "billing-email"); a["value"] != "pay@example.com" {
		t.Errorf("billing-email %v", a)
	}
	if rec := expect(t, ana.b.do("GET", "/api/accounts/"+acc, nil), http.StatusOK, ""); rec["billing_email"] != "pay@example.com" {
		t.Errorf("account billing_email %v", rec["billing_email"])
	}
	// The Group's own facts are the server's.
	for _, key := range []string{"confirmed-plan", "created-by", "created-by-id", "created-at", "admin"} {
		expect(t, put(ana, key, "corp"), http.StatusForbidden, "Permission denied")
	}
	a := g.adjustment(ana, acc, "budget")
	expect(t, ana.b.do("DELETE", "/api/"+acc+"/"+a["_id"].(string)+"?rev="+a["_rev"].(string), nil), http.StatusForbidden, "Permission denied")
	// One document per key; a document keeps its key.
	field(post(ana, "checklist", "enabled"), "key", "has already been taken")
	field(post(ana, "", "x"), "key", "can't be blank")
	field(post(ana, "bad key!", "x"), "key", "is invalid")
	a = g.adjustment(ana, acc, "checklist")
	field(ana.b.do("PUT", "/api/"+acc+"/"+a["_id"].(string)+"?rev="+a["_rev"].(string), map[string]any{"key": "maintenance", "value": "enabled"}), "key", "is invalid")

	// Phones and addresses: one adjustment each, the whole list as its value;
	// numbers in E.164, read in the Group's country (US: its creator's is en).
	phones := []any{
		map[string]any{"main": true, "description": "shop", "number": "+55 11 5555-0000"},
		map[string]any{"main": false, "description": "old", "number": "1", "marktodelete": true},
		map[string]any{"description": "cell", "number": 6502530000},
	}
	r := expect(t, post(ana, "phones", phones), http.StatusCreated, "")
	stored := g.doc(acc, r["id"].(string))
	want := []any{
		map[string]any{"main": true, "description": "shop", "number": "+551155550000"},
		map[string]any{"description": "cell", "number": "+16502530000"},
	}
	if !reflect.DeepEqual(stored["value"], want) {
		t.Errorf("phones stored as %#v", stored["value"])
	}
	addresses := []any{map[string]any{"main": true, "description": "shop", "zip_code": "01001-000", "street": "Praça da Sé", "number": "1",
		"neighborhood": "Sé", "complement": "", "city": "São Paulo", "state": "SP"}}
	expect(t, post(ana, "addresses", addresses), http.StatusCreated, "")
	for _, bad := range []any{
		"555-0000",
		[]any{"555-0000"},
		[]any{map[string]any{"number": "1", "color": "red"}},
		[]any{map[string]any{"main": "yes"}},
		[]any{map[string]any{"number": []any{1}}},
		map[string]any{"number": "1"},
	} {
		field(put(ana, "phones", bad), "value", "is invalid")
	}
	field(put(ana, "addresses", []any{map[string]any{"street": "x", "description": "y", "phone": "z"}}), "value", "is invalid")
	// Phones and addresses are one configuration document each, not
	// Phone/Address records.
	if got := g.doc(acc, r["id"].(string))["klass"]; got != "Adjustment" {
		t.Errorf("klass %v", got)
	}
	// Receipt text and other free-form settings.
	expect(t, post(ana, "receipt-configuration", map[string]any{"header": "Oficina do Zé"}), http.StatusCreated, "")
	expect(t, post(ana, "estimate-observation", "Valid for 10 days"), http.StatusCreated, "")
}

func TestUserAdjustments(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana, bia := g.user("ana@example.com", "en", true), g.user("bia@example.com", "en", true)
	post := func(key string, value any) hres {
		return ana.b.do("POST", "/api/"+ana.id, map[string]any{"_id": ids.New("adj"), "klass": "Adjustment", "key": key, "label": key, "value": value})
	}
	for _, bad := range []any{"fr", "pt_BR", "", nil, 1} {
		m := expect(t, post("locale", bad), http.StatusUnprocessableEntity, "")
		if f := fieldErr(t, m, "value"); len(f) != 1 || f[0] != "not in allowed list" {
			t.Errorf("locale %v: %v", bad, m["fields"])
		}
	}
	r := expect(t, post("locale", "pt-BR"), http.StatusCreated, "")
	// The session reads the locale from the user: it follows the adjustment.
	if s := expect(t, ana.b.do("GET", "/api/_session", nil), http.StatusOK, ""); s["userCtx"].(map[string]any)["locale"] != "pt-BR" {
		t.Errorf("session locale %v", s["userCtx"])
	}
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/"+r["id"].(string)+"?rev="+r["rev"].(string), map[string]any{"key": "locale", "value": "en"}), http.StatusCreated, "")
	if s := expect(t, ana.b.do("GET", "/api/_session", nil), http.StatusOK, ""); s["userCtx"].(map[string]any)["locale"] != "en" {
		t.Errorf("session locale %v", s["userCtx"])
	}
	expect(t, post("newsletter", true), http.StatusCreated, "")
	if u := expect(t, ana.b.do("GET", "/api/_users/"+ana.id, nil), http.StatusOK, ""); u["newsletter"] != true {
		t.Errorf("newsletter not on the user: %v", u["newsletter"])
	}
	expect(t, post("newsletter-topics", []any{"ticket_app", "api"}), http.StatusCreated, "")
	m := expect(t, ana.b.do("PUT", "/api/"+ana.id+"/"+ids.New("adj"), map[string]any{"klass": "Adjustment", "key": "newsletter-topics", "value": "api"}), http.StatusUnprocessableEntity, "")
	if f := fieldErr(t, m, "value"); len(f) != 1 || f[0] != "is invalid" {
		t.Errorf("topics: %v", m["fields"])
	}
	// Only in one's own db.
	expect(t, bia.b.do("POST", "/api/"+ana.id, map[string]any{"klass": "Adjustment", "key": "locale", "value": "en"}), http.StatusForbidden, "")
}
