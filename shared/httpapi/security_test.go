package httpapi

import (
	"net/http"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/ids"
)

// Issue 8, items 2 and 4: _security documents.

func names(n []string, r []string) map[string]any { return map[string]any{"names": n, "roles": r} }

// TestPutSecurityIsValidated: a _security that would open a Group or a
// personal db to anonymous users, or take its owner or admins out, is
// refused with the reason, and the stored one does not change.
func TestPutSecurityIsValidated(t *testing.T) {
	g := newGroupEnv(t, nil, "root@example.com")
	ana := g.user("ana@example.com", "en", true)
	root := g.user("root@example.com", "en", true)
	acc := g.createGroup(ana, "Oficina da Ana")
	other := ids.New("acc")
	shape := `_security must be {"admins": {"names": [strings], "roles": [strings]}, "members": {"names": [strings], "roles": [strings]}}`
	open := "members must name at least one user or role: an empty list makes the database readable by anyone"
	cases := []struct {
		name   string
		who    *member
		db     string
		body   any
		reason string
	}{
		{"null", ana, acc, "null", "The request body must be a JSON object"},
		{"empty object", ana, acc, map[string]any{}, shape},
		{"no members", ana, acc, map[string]any{"admins": names([]string{ana.id}, nil)}, shape},
		{"no admins", ana, acc, map[string]any{"members": names(nil, []string{acc})}, shape},
		{"members null", ana, acc, map[string]any{"admins": names([]string{ana.id}, nil), "members": nil}, shape},
		{"names not strings", ana, acc, map[string]any{"admins": map[string]any{"names": []any{1}}, "members": names(nil, []string{acc})}, shape},
		{"empty name", ana, acc, map[string]any{"admins": names([]string{ana.id, ""}, nil), "members": names(nil, []string{acc})}, shape},
		{"unknown member", ana, acc, map[string]any{"admins": names([]string{ana.id}, nil), "members": names(nil, []string{acc}), "owners": names(nil, nil)}, `unknown _security member "owners"`},
		{"Group opened", ana, acc, map[string]any{"admins": names([]string{ana.id}, nil), "members": names(nil, nil)}, open},
		{"Group role dropped", ana, acc, map[string]any{"admins": names([]string{ana.id}, nil), "members": names(nil, []string{other})},
			"members must keep the role " + acc + ": it gives the Group's members their access"},
		{"Group admin dropped", ana, acc, map[string]any{"admins": names(nil, nil), "members": names(nil, []string{acc})},
			"admins must keep " + ana.id + ": administrators are removed through the Group's memberships"},
		{"personal db opened", ana, ana.id, map[string]any{"admins": names(nil, []string{ana.id}), "members": names(nil, nil)}, open},
		{"personal db owner dropped", ana, ana.id, map[string]any{"admins": names(nil, []string{other}), "members": names(nil, []string{ana.id})},
			"the owner " + ana.id + " must stay in admins, and the role " + ana.id + " in members"},
		{"system db opened by a server admin", root, "accounts", map[string]any{"admins": names(nil, []string{"_admin"}), "members": names(nil, nil)}, open},
		{"_users opened by a server admin", root, "_users", map[string]any{"admins": names(nil, []string{"_admin"}), "members": names(nil, nil)}, open},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := securityOf(t, g, c.db)
			expect(t, c.who.b.do("PUT", "/api/"+c.db+"/_security", c.body), http.StatusBadRequest, c.reason)
			if after := securityOf(t, g, c.db); after != before {
				t.Errorf("_security changed:\n%s\n%s", before, after)
			}
		})
	}

	// What stays allowed: adding people, and a public db staying public.
	expect(t, ana.b.do("PUT", "/api/"+acc+"/_security", map[string]any{"admins": names([]string{ana.id}, nil), "members": names([]string{"bia@example.com"}, []string{acc})}), http.StatusOK, "")
	expect(t, ana.b.do("PUT", "/api/"+ana.id+"/_security", map[string]any{"admins": names(nil, []string{ana.id}), "members": names(nil, []string{ana.id, acc})}), http.StatusOK, "")
	expect(t, root.b.do("PUT", "/api/prices/_security", map[string]any{"admins": names(nil, []string{"_admin"}), "members": names(nil, nil)}), http.StatusOK, "")
	expect(t, g.browser().do("GET", "/api/prices", nil), http.StatusOK, "")
	// The anonymous still cannot read the Group.
	expect(t, g.browser().do("GET", "/api/"+acc, nil), http.StatusUnauthorized, "")
}

// TestSecurityNamesMatchConfirmedEmailsOnly (item 4): an e-mail in a
// _security names list grants access only to the user who confirmed it,
// not to whoever registered it first.
func TestSecurityNamesMatchConfirmedEmailsOnly(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana := g.user("ana@example.com", "en", true)
	acc := g.createGroup(ana, "Oficina da Ana")
	expect(t, ana.b.do("PUT", "/api/"+acc+"/_security", map[string]any{"admins": names([]string{ana.id, "boss@example.com"}, nil), "members": names([]string{"bia@example.com"}, []string{acc})}), http.StatusOK, "")
	bia := g.user("bia@example.com", "en", false)
	boss := g.user("boss@example.com", "en", false)
	expect(t, bia.b.do("GET", "/api/"+acc, nil), http.StatusForbidden, "")
	expect(t, boss.b.do("GET", "/api/"+acc+"/_security", nil), http.StatusForbidden, "")
	expect(t, boss.b.do("PUT", "/api/"+acc+"/_security", map[string]any{"admins": names([]string{ana.id, "boss@example.com"}, nil), "members": names(nil, []string{acc, "x"})}), http.StatusForbidden, "")
	g.confirm("bia@example.com")
	g.confirm("boss@example.com")
	expect(t, bia.b.do("GET", "/api/"+acc, nil), http.StatusOK, "")
	expect(t, boss.b.do("GET", "/api/"+acc+"/_security", nil), http.StatusOK, "")
}

func securityOf(t *testing.T, g *groupEnv, db string) string {
	t.Helper()
	rec, err := g.st.GetRecord(t.Context(), "security", db)
	if err != nil {
		return "none: " + err.Error()
	}
	return strings.TrimSpace(string(rec.Value))
}
