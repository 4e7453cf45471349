package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
)

func TestInvite(t *testing.T) {
	g := newGroupEnv(t, nil)
	una := g.user("una@example.com", "en", false)
	ana := g.user("ana@example.com", "en", true)
	joao := g.user("joao@example.com", "pt-BR", true)
	bia := g.user("bia@example.com", "en", true)

	// The inviter's e-mail must be confirmed.
	unaGroup := g.createGroup(una, "Una's")
	expect(t, una.b.do("POST", "/api/"+unaGroup, map[string]any{"klass": "Membership", "email": "x@example.com"}), http.StatusForbidden, fault.MsgConfirmEmailFirst)

	acc := g.createGroup(ana, "Ana's")
	g.join(ana, bia, acc, false)
	seq := g.updateSeqOf(acc)

	// Only admins invite; bad input is refused with field errors.
	expect(t, bia.b.do("POST", "/api/"+acc, map[string]any{"klass": "Membership", "email": "x@example.com"}), http.StatusForbidden, "Permission denied")
	cases := []struct {
		body  map[string]any
		field string
		msg   string
	}{
		{map[string]any{"klass": "Membership"}, "email", "can't be blank"},
		{map[string]any{"klass": "Membership", "email": "not-an-address"}, "email", "is invalid"},
		{map[string]any{"klass": "Membership", "email": 7}, "email", "is invalid"},
		{map[string]any{"klass": "Membership", "email": "BIA@example.com"}, "email", "has already been taken"},
		{map[string]any{"klass": "Membership", "email": "x@example.com", "editor": "yes"}, "editor", "is invalid"},
		// Free Groups: only one administrator (the creator).
		{map[string]any{"klass": "Membership", "email": "x@example.com", "editor": true}, "editor", accounts.MsgOneAdmin},
	}
	for _, c := range cases {
		m := expect(t, ana.b.do("POST", "/api/"+acc, c.body), http.StatusUnprocessableEntity, "")
		if f := fieldErr(t, m, c.field); len(f) != 1 || f[0] != c.msg {
			t.Errorf("%v: fields %v, want %s: %s", c.body, m["fields"], c.field, c.msg)
		}
	}
	if got := g.updateSeqOf(acc); got != seq {
		t.Errorf("refused invitations wrote: seq %d → %d", seq, got)
	}

	// A good invitation to a known user (pt-BR): pending, no user_id, the
	// server's fields, mirrored into their db, mailed in their language.
	mem := g.invite(ana, acc, " JOAO@example.com ", false)
	stored := g.doc(acc, mem)
	for k, want := range map[string]any{"email": "joao@example.com", "status": "pending", "editor": false, "admin": false, "report_view": false,
		"db_name": acc, "name": "Ana's", "created_by_id": ana.id, "confirmed-plan": "free", "bookmark": false} {
		if stored[k] != want {
			t.Errorf("membership %s = %v, want %v", k, stored[k], want)
		}
	}
	if _, ok := stored["user_id"]; ok {
		t.Errorf("pending membership has user_id: %v", stored)
	}
	invites := g.find(joao, joao.id, map[string]any{"selector": map[string]any{"klass": "Membership", "status": "pending"}})
	if len(invites) != 1 || invites[0]["_id"] != mem || invites[0]["name"] != "Ana's" {
		t.Errorf("invites %v", invites)
	}
	if ms := g.mailsTo("joao@example.com", "Ana Souza convidou você para Ana's"); len(ms) != 1 || !strings.Contains(ms[0].text, "https://app.oficina.test/invite") {
		t.Errorf("invitation mail to joao: %v", g.mailsTo("joao@example.com", ""))
	}
	// Server fields a client sends are overwritten.
	forged := expect(t, ana.b.do("POST", "/api/"+acc, map[string]any{"klass": "Membership", "email": "f@example.com", "status": "accepted", "user_id": bia.id, "db_name": "x"}), http.StatusCreated, "")
	if d := g.doc(acc, forged["id"].(string)); d["status"] != "pending" || d["user_id"] != nil || d["db_name"] != acc {
		t.Errorf("forged fields kept: %v", d)
	}

	// An invitation to an address nobody has yet: mailed in the inviter's
	// language, mirrored once that user registers and confirms the address
	// (a registration alone shows nothing of it).
	later := g.invite(ana, acc, "later@example.com", false)
	if len(g.mailsTo("later@example.com", "Ana Souza invited you to Ana's")) != 1 {
		t.Errorf("invitation mail to later: %v", g.mailsTo("later@example.com", ""))
	}
	lu := g.user("later@example.com", "en", false)
	if inv := g.find(lu, lu.id, map[string]any{"selector": map[string]any{"klass": "Membership"}}); len(inv) != 0 {
		t.Errorf("invitation mirrored to an unconfirmed address: %v", inv)
	}
	g.confirm("later@example.com")
	if inv := g.find(lu, lu.id, map[string]any{"selector": map[string]any{"klass": "Membership"}}); len(inv) != 1 || inv[0]["_id"] != later || inv[0]["status"] != "pending" {
		t.Errorf("invitation not mirrored at confirmation: %v", inv)
	}
	// SPEC §7: membership by email, limit 1.
	if one := g.find(lu, lu.id, map[string]any{"selector": map[string]any{"klass": "Membership", "email": "later@example.com"}, "limit": 1, "fields": []string{"_id", "editor", "status", "bookmark"}}); len(one) != 1 {
		t.Errorf("membership by email: %v", one)
	}
	// A user who changes to the invited address gets it when they confirm it.
	mover := g.user("mover@example.com", "en", true)
	moved := g.invite(ana, acc, "moved@example.com", false)
	u := expect(t, mover.b.do("GET", "/api/_users/"+mover.id, nil), http.StatusOK, "")
	expect(t, mover.b.do("PUT", "/api/_users/"+mover.id+"?rev="+u["_rev"].(string), map[string]any{"unconfirmed_email": "moved@example.com", "current_password": "password1"}), http.StatusCreated, "")
	expect(t, mover.b.do("PUT", "/api/_users/_confirmation", map[string]any{"token": g.lastLink("moved@example.com", "confirm")}), http.StatusOK, "") // signed in: a new address
	if inv := g.find(mover, mover.id, map[string]any{"selector": map[string]any{"klass": "Membership", "_id": moved}}); len(inv) != 1 {
		t.Errorf("invitation not mirrored after e-mail change: %v", inv)
	}
	g.accept(&member{id: mover.id, email: "moved@example.com", b: mover.b}, acc, moved)
}

func TestAccept(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana := g.user("ana@example.com", "en", true)
	bia := g.user("bia@example.com", "en", false)
	caio := g.user("caio@example.com", "en", true)
	acc := g.createGroup(ana, "Ana's")
	g.setPlan(acc, "pro") // so that an admin can be invited
	mem := g.invite(ana, acc, bia.email, true)
	path := "/api/" + acc + "/_design/status/_update/accept/" + mem

	// Anyone but the invitee: the invitation does not exist.
	expect(t, caio.b.do("PUT", path, map[string]any{}), http.StatusNotFound, "missing")
	expect(t, ana.b.do("PUT", path, map[string]any{}), http.StatusNotFound, "missing")
	expect(t, caio.b.do("PUT", "/api/"+acc+"/_design/status/_update/accept/"+ids.New("mem"), map[string]any{}), http.StatusNotFound, "missing")
	expect(t, g.browser().do("PUT", path, map[string]any{}), http.StatusUnauthorized, "")
	// The invitee before confirming the e-mail.
	expect(t, bia.b.do("PUT", path, map[string]any{}), http.StatusForbidden, accounts.MsgConfirmFirst)
	if d := g.doc(acc, mem); d["status"] != "pending" {
		t.Fatalf("refused accept changed the membership: %v", d)
	}
	// A pending member has no access to the Group.
	expect(t, bia.b.do("GET", "/api/"+acc, nil), http.StatusForbidden, "")

	g.confirm(bia.email)
	r := expect(t, bia.b.do("PUT", path, nil), http.StatusOK, "")
	if r["ok"] != true || r["id"] != mem || !strings.HasPrefix(r["rev"].(string), "2-") {
		t.Errorf("answer %v", r)
	}
	d := g.doc(acc, mem)
	if d["status"] != "accepted" || d["user_id"] != bia.id || d["user"].(map[string]any)["_id"] != bia.id {
		t.Errorf("accepted membership %v", d)
	}
	if m := g.doc(bia.id, mem); m["status"] != "accepted" || m["user_id"] != bia.id {
		t.Errorf("mirror %v", m)
	}
	// The role, and with it the Group, from the next request on.
	if !g.hasRole(bia, acc) {
		t.Fatalf("roles %v", g.roles(bia))
	}
	expect(t, bia.b.do("GET", "/api/"+acc, nil), http.StatusOK, "")
	// An editor invitation makes an admin (admin_roles; the _security shows it).
	rec := expect(t, ana.b.do("GET", "/api/accounts/"+acc, nil), http.StatusOK, "")
	if roles := rec["admin_roles"].([]any); !slices.Contains(roles, any(bia.id)) {
		t.Errorf("admin_roles %v", roles)
	}
	sec := expect(t, bia.b.do("GET", "/api/"+acc+"/_security", nil), http.StatusOK, "")
	if names := sec["admins"].(map[string]any)["names"].([]any); !slices.Contains(names, any(bia.id)) {
		t.Errorf("_security admins %v", names)
	}
	a := g.adjustment(bia, acc, "checklist")
	expect(t, bia.b.do("PUT", "/api/"+acc+"/"+a["_id"].(string)+"?rev="+a["_rev"].(string), map[string]any{"key": "checklist", "value": "enabled"}), http.StatusCreated, "")
	// Accepting again is harmless.
	expect(t, bia.b.do("PUT", path, map[string]any{}), http.StatusOK, "")
}

func TestBookmark(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana, bia := g.user("ana@example.com", "en", true), g.user("bia@example.com", "en", true)
	acc := g.createGroup(ana, "Ana's")
	mem := g.find(ana, ana.id, map[string]any{"selector": map[string]any{"klass": "Membership"}})[0]["_id"].(string)
	for _, on := range []string{"true", "false", "true"} {
		r := expect(t, ana.b.do("PUT", "/api/"+ana.id+"/_design/bookmark/_update/"+on+"/"+mem, map[string]any{}), http.StatusOK, "")
		if d := g.doc(ana.id, mem); d["bookmark"] != (on == "true") || d["_rev"] != r["rev"] {
			t.Errorf("bookmark %s: %v", on, d)
		}
	}
	if d := g.doc(acc, mem); d["bookmark"] != false {
		t.Errorf("bookmark leaked into the Group's membership: %v", d)
	}
	// The mirror keeps the bookmark when the membership changes.
	g.setPlan(acc, "pro")
	bmem := g.join(ana, bia, acc, false)
	expect(t, bia.b.do("PUT", "/api/"+bia.id+"/_design/bookmark/_update/true/"+bmem, map[string]any{}), http.StatusOK, "")
	cur := g.doc(acc, bmem)
	expect(t, ana.b.do("PUT", "/api/"+acc+"/"+bmem+"?rev="+cur["_rev"].(string), map[string]any{"editor": true, "report_view": true}), http.StatusCreated, "")
	if d := g.doc(bia.id, bmem); d["bookmark"] != true || d["editor"] != true || d["report_view"] != true {
		t.Errorf("mirror after update: %v", d)
	}
	// Not in someone else's db, not an unknown id, not the Group's db, not a bad value.
	expect(t, bia.b.do("PUT", "/api/"+ana.id+"/_design/bookmark/_update/true/"+mem, map[string]any{}), http.StatusForbidden, "")
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/_design/bookmark/_update/true/"+ids.New("mem"), map[string]any{}), http.StatusNotFound, "")
	expect(t, ana.b.do("PUT", "/api/"+acc+"/_design/bookmark/_update/true/"+mem, map[string]any{}), http.StatusNotFound, "")
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/_design/bookmark/_update/maybe/"+mem, map[string]any{}), http.StatusNotFound, "")
	// The mirror itself cannot be written through the document API.
	d := g.doc(ana.id, mem)
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/"+mem+"?rev="+d["_rev"].(string), map[string]any{"klass": "Membership", "status": "accepted", "editor": true}), http.StatusForbidden, "Permission denied")
	expect(t, ana.b.do("DELETE", "/api/"+ana.id+"/"+mem+"?rev="+d["_rev"].(string), nil), http.StatusForbidden, "Permission denied")
}

func TestMembershipUpdateAndRemoval(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana, bia, caio := g.user("ana@example.com", "en", true), g.user("bia@example.com", "en", true), g.user("caio@example.com", "en", true)
	acc := g.createGroup(ana, "Ana's")
	anaMem := g.find(ana, acc, map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": ana.id}})[0]["_id"].(string)
	biaMem := g.join(ana, bia, acc, false)
	caioMem := g.join(ana, caio, acc, false)
	rev := func(id string) string { return g.doc(acc, id)["_rev"].(string) }

	// A member changes or removes nobody's membership, their own included.
	expect(t, bia.b.do("PUT", "/api/"+acc+"/"+caioMem+"?rev="+rev(caioMem), map[string]any{"editor": false, "report_view": true}), http.StatusForbidden, "Permission denied")
	expect(t, bia.b.do("DELETE", "/api/"+acc+"/"+caioMem+"?rev="+rev(caioMem), nil), http.StatusForbidden, "Permission denied")
	expect(t, bia.b.do("PUT", "/api/"+acc+"/"+biaMem+"?rev="+rev(biaMem), map[string]any{"report_view": true}), http.StatusForbidden, "Permission denied")
	expect(t, bia.b.do("DELETE", "/api/"+acc+"/"+biaMem+"?rev="+rev(biaMem), nil), http.StatusForbidden, accounts.MsgOwnSubscription)
	// The creator (an admin) cannot update or delete their own.
	expect(t, ana.b.do("PUT", "/api/"+acc+"/"+anaMem+"?rev="+rev(anaMem), map[string]any{"report_view": false}), http.StatusForbidden, "Permission denied")
	expect(t, ana.b.do("DELETE", "/api/"+acc+"/"+anaMem+"?rev="+rev(anaMem), nil), http.StatusForbidden, accounts.MsgOwnSubscription)
	// Free Groups: one administrator.
	m := expect(t, ana.b.do("PUT", "/api/"+acc+"/"+biaMem+"?rev="+rev(biaMem), map[string]any{"editor": true}), http.StatusUnprocessableEntity, "")
	if f := fieldErr(t, m, "editor"); len(f) != 1 || f[0] != accounts.MsgOneAdmin {
		t.Errorf("fields %v", m["fields"])
	}

	// On a paid Group Bia becomes admin; she still cannot touch her own
	// membership, nor demote or remove the creator.
	g.setPlan(acc, "pro")
	expect(t, ana.b.do("PUT", "/api/"+acc+"/"+biaMem+"?rev="+rev(biaMem), map[string]any{"editor": true, "status": "pending", "email": "evil@example.com"}), http.StatusCreated, "")
	if d := g.doc(acc, biaMem); d["editor"] != true || d["admin"] != true || d["status"] != "accepted" || d["email"] != "bia@example.com" {
		t.Errorf("update kept more than the flags: %v", d)
	}
	expect(t, bia.b.do("PUT", "/api/"+acc+"/"+biaMem+"?rev="+rev(biaMem), map[string]any{"editor": false}), http.StatusForbidden, "Permission denied")
	expect(t, bia.b.do("DELETE", "/api/"+acc+"/"+biaMem+"?rev="+rev(biaMem), nil), http.StatusForbidden, accounts.MsgOwnSubscription)
	expect(t, bia.b.do("PUT", "/api/"+acc+"/"+anaMem+"?rev="+rev(anaMem), map[string]any{"editor": false}), http.StatusForbidden, "Permission denied")
	expect(t, bia.b.do("DELETE", "/api/"+acc+"/"+anaMem+"?rev="+rev(anaMem), nil), http.StatusForbidden, "Permission denied")
	if d := g.doc(acc, anaMem); d["editor"] != true {
		t.Errorf("creator demoted: %v", d)
	}

	// An admin removes Caio: his mirror goes and he loses the Group on his next request.
	expect(t, caio.b.do("GET", "/api/"+acc, nil), http.StatusOK, "")
	expect(t, bia.b.do("DELETE", "/api/"+acc+"/"+caioMem+"?rev="+rev(caioMem), nil), http.StatusOK, "")
	if g.doc(caio.id, caioMem) != nil {
		t.Error("mirror left")
	}
	if g.hasRole(caio, acc) {
		t.Error("role left")
	}
	expect(t, caio.b.do("GET", "/api/"+acc, nil), http.StatusForbidden, "")
	expect(t, caio.b.do("GET", "/api/accounts/"+acc, nil), http.StatusNotFound, "")

	// Demoting Bia takes her admin-ness away at once.
	expect(t, ana.b.do("PUT", "/api/"+acc+"/"+biaMem+"?rev="+rev(biaMem), map[string]any{"editor": false}), http.StatusCreated, "")
	a := g.adjustment(bia, acc, "checklist")
	expect(t, bia.b.do("PUT", "/api/"+acc+"/"+a["_id"].(string)+"?rev="+a["_rev"].(string), map[string]any{"key": "checklist", "value": "enabled"}), http.StatusForbidden, "Permission denied")
	expect(t, bia.b.do("PUT", "/api/accounts/"+acc+"?rev="+expect(t, bia.b.do("GET", "/api/accounts/"+acc, nil), http.StatusOK, "")["_rev"].(string), map[string]any{"name": "x"}), http.StatusForbidden, "Permission denied")

	// Removing a pending invitation removes its mirror.
	dan := g.user("dan@example.com", "en", true)
	inv := g.invite(ana, acc, dan.email, false)
	if g.doc(dan.id, inv) == nil {
		t.Fatal("no mirror")
	}
	expect(t, ana.b.do("DELETE", "/api/"+acc+"/"+inv+"?rev="+rev(inv), nil), http.StatusOK, "")
	if g.doc(dan.id, inv) != nil {
		t.Error("pending mirror left")
	}
	expect(t, dan.b.do("PUT", "/api/"+acc+"/_design/status/_update/accept/"+inv, map[string]any{}), http.StatusNotFound, "")
}

func TestMembershipRulesOnBulkDocs(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana, bia := g.user("ana@example.com", "en", true), g.user("bia@example.com", "en", true)
	acc := g.createGroup(ana, "Ana's")
	g.join(ana, bia, acc, false)
	// _bulk_docs goes through the same rules.
	res := bia.b.do("POST", "/api/"+acc+"/_bulk_docs", map[string]any{"docs": []any{
		map[string]any{"klass": "Membership", "email": "x@example.com"},
		map[string]any{"klass": "Adjustment", "key": "phones", "value": []any{}},
	}})
	if res.code != http.StatusCreated || strings.Count(string(res.body), `"reason":"Permission denied"`) != 2 {
		t.Errorf("bulk as member: %d %s", res.code, res.body)
	}
	res = ana.b.do("POST", "/api/"+acc+"/_bulk_docs", map[string]any{"docs": []any{map[string]any{"klass": "Membership", "email": "y@example.com", "editor": true}}})
	if !strings.Contains(string(res.body), `"error":"unprocessable_entity"`) {
		t.Errorf("bulk one-admin rule: %s", res.body)
	}
}
