package httpapi

import (
	"net/http"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/ids"
)

func TestSubGroups(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana, bia, caio := g.user("ana@example.com", "en", true), g.user("bia@example.com", "en", true), g.user("caio@example.com", "en", true)
	parent := g.createGroup(ana, "Corp")
	g.join(ana, bia, parent, false)
	sub := map[string]any{"name": "Branch", "parent-account-id": parent}

	// Only under a corp Group, by one of its admins.
	expect(t, ana.b.do("POST", "/api/accounts", sub), http.StatusForbidden, "Permission denied")
	g.setPlan(parent, "corp")
	expect(t, bia.b.do("POST", "/api/accounts", sub), http.StatusForbidden, "Permission denied")
	expect(t, caio.b.do("POST", "/api/accounts", sub), http.StatusForbidden, "Permission denied")
	expect(t, ana.b.do("POST", "/api/accounts", map[string]any{"name": "x", "parent-account-id": ids.New("acc")}), http.StatusForbidden, "Permission denied")
	expect(t, ana.b.do("POST", "/api/accounts", map[string]any{"name": "x", "parent-account-id": "nonsense"}), http.StatusForbidden, "Permission denied")

	// Sub-groups live on the parent's plan: they do not count as free Groups.
	var subs []string
	for range 6 {
		r := expect(t, ana.b.do("POST", "/api/accounts", sub), http.StatusCreated, "")
		subs = append(subs, r["id"].(string))
	}
	s := subs[0]
	rec := expect(t, ana.b.do("GET", "/api/accounts/"+s, nil), http.StatusOK, "")
	if rec["parent-account-id"] != parent || rec["v7_plan"] != "corp" {
		t.Errorf("sub-group record %v", rec)
	}
	if a := g.adjustment(ana, s, "confirmed-plan"); a["value"] != "corp" {
		t.Errorf("sub-group plan %v", a)
	}

	// Membership of the parent gives access to the sub-group; only the
	// administrator setting carries over.
	expect(t, bia.b.do("GET", "/api/"+s, nil), http.StatusOK, "")
	expect(t, bia.b.do("GET", "/api/accounts/"+s, nil), http.StatusOK, "")
	expect(t, bia.b.do("POST", "/api/"+s, map[string]any{"klass": "Customer", "name": "Zé"}), http.StatusCreated, "")
	a := g.adjustment(bia, s, "checklist")
	expect(t, bia.b.do("PUT", "/api/"+s+"/"+a["_id"].(string)+"?rev="+a["_rev"].(string), map[string]any{"key": "checklist", "value": "enabled"}), http.StatusForbidden, "Permission denied")
	expect(t, caio.b.do("GET", "/api/"+s, nil), http.StatusForbidden, "")
	expect(t, caio.b.do("GET", "/api/accounts/"+s, nil), http.StatusNotFound, "")

	// A parent admin added later administers the sub-groups too.
	pm := g.find(ana, parent, map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": bia.id}})[0]
	expect(t, ana.b.do("PUT", "/api/"+parent+"/"+pm["_id"].(string)+"?rev="+pm["_rev"].(string), map[string]any{"editor": true}), http.StatusCreated, "")
	a = g.adjustment(bia, s, "checklist")
	expect(t, bia.b.do("PUT", "/api/"+s+"/"+a["_id"].(string)+"?rev="+a["_rev"].(string), map[string]any{"key": "checklist", "value": "enabled"}), http.StatusCreated, "")
	sec := expect(t, bia.b.do("GET", "/api/"+s+"/_security", nil), http.StatusOK, "")
	if names := sec["admins"].(map[string]any)["names"].([]any); !slices.Contains(names, any(bia.id)) {
		t.Errorf("sub-group _security admins %v", names)
	}
	if roles := sec["members"].(map[string]any)["roles"].([]any); !slices.Contains(roles, any(parent)) || !slices.Contains(roles, any(s)) {
		t.Errorf("sub-group _security members %v", roles)
	}

	// Leaving the parent ends access to its sub-groups.
	pm = g.find(ana, parent, map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": bia.id}})[0]
	expect(t, ana.b.do("DELETE", "/api/"+parent+"/"+pm["_id"].(string)+"?rev="+pm["_rev"].(string), nil), http.StatusOK, "")
	expect(t, bia.b.do("GET", "/api/"+s, nil), http.StatusForbidden, "")
}
