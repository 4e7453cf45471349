package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/ids"
)

// route is one call of the API.
type route struct {
	method, path string
	body         any
}

// TestTenantIsolation walks every route of the API as principals that must
// not reach Group B (a user of Group A with a session, with a read token
// and with a revoked token, a member invited to B who has not accepted,
// and an expired session): every call is refused with 401/403/404, nothing
// of B changes, and no error body carries B's ids, names or e-mails. A
// read-only token of A is also walked over every write route of A.
func TestTenantIsolation(t *testing.T) {
	g := newGroupEnv(t, nil)
	alice, bob := g.user("alice@example.com", "en", true), g.user("bob@example.com", "en", true)
	carol := g.user("carol@example.com", "en", false)
	a := g.createGroup(alice, "Alice Garage")
	b := g.createGroup(bob, "Bobs Repair Shop")
	g.setPlan(b, "pro")

	// B's data.
	cus := expect(t, bob.b.do("POST", "/api/"+b, map[string]any{"klass": "Customer", "name": "Bobs Secret Customer", "email": "client-of-bob@example.com"}), http.StatusCreated, "")
	cusID, cusRev := cus["id"].(string), cus["rev"].(string)
	bobMem := g.find(bob, b, map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": bob.id}})[0]
	carolMem := g.invite(bob, b, carol.email, false)
	bobTok := expect(t, bob.b.do("POST", "/api/"+bob.id+"/_design/token/_update/create", map[string]any{"description": "bob's ci", "permissions": "read-write"}), http.StatusCreated, "")
	bobTokID, bobSecret := bobTok["id"].(string), bobTok["token"].(string)
	bobAdj := g.adjustment(bob, b, "checklist")
	bobRec := expect(t, bob.b.do("GET", "/api/accounts/"+b, nil), http.StatusOK, "")
	bobUser := expect(t, bob.b.do("GET", "/api/_users/"+bob.id, nil), http.StatusOK, "")
	rev := func(db, id string) string { return g.doc(db, id)["_rev"].(string) }
	secrets := []string{b, bob.id, "bob@example.com", "Bobs Repair Shop", cusID, "Bobs Secret Customer", "client-of-bob",
		bobMem["_id"].(string), carolMem, bobTokID, "bob's ci", bobAdj["_id"].(string), strings.TrimPrefix(bobSecret, "oft_")}

	// Alice's tokens: one to read, one revoked.
	ro := expect(t, alice.b.do("POST", "/api/"+alice.id+"/_design/token/_update/create", map[string]any{"permissions": "read"}), http.StatusCreated, "")["token"].(string)
	rv := expect(t, alice.b.do("POST", "/api/"+alice.id+"/_design/token/_update/create", map[string]any{"permissions": "read-write"}), http.StatusCreated, "")
	expect(t, alice.b.do("PUT", "/api/"+alice.id+"/_design/token/_update/revoke/"+rv["id"].(string), map[string]any{}), http.StatusOK, "")
	withToken := func(tok string) *browser { br := g.browser(); br.bearer = tok; return br }

	newCus := ids.New("cus")
	routesB := []route{
		// The database and its documents.
		{"GET", "/api/" + b, nil},
		{"HEAD", "/api/" + b, nil},
		{"PUT", "/api/" + b, nil},
		{"GET", "/api/" + b + "/" + cusID, nil},
		{"GET", "/api/" + b + "/" + cusID + "?fields=name", nil},
		{"HEAD", "/api/" + b + "/" + cusID, nil},
		{"GET", "/api/" + b + "/" + ids.New("cus"), nil},
		{"PUT", "/api/" + b + "/" + cusID + "?rev=" + cusRev, map[string]any{"klass": "Customer", "name": "pwned"}},
		{"PUT", "/api/" + b + "/" + newCus, map[string]any{"klass": "Customer", "name": "planted"}},
		{"PUT", "/api/" + b + "/" + cusID, map[string]any{"_rev": cusRev, "_deleted": true}},
		{"DELETE", "/api/" + b + "/" + cusID + "?rev=" + cusRev, nil},
		{"POST", "/api/" + b, map[string]any{"klass": "Customer", "name": "planted"}},
		{"POST", "/api/" + b + "/_bulk_docs", map[string]any{"docs": []any{map[string]any{"klass": "Customer"}, map[string]any{"_id": cusID, "_rev": cusRev, "_deleted": true}}}},
		{"GET", "/api/" + b + "/_all_docs?include_docs=true", nil},
		{"POST", "/api/" + b + "/_all_docs", map[string]any{"keys": []string{cusID}}},
		{"POST", "/api/" + b + "/_find", map[string]any{"selector": map[string]any{"klass": "Customer"}}},
		{"POST", "/api/" + b + "/_find", map[string]any{"selector": map[string]any{"klass": "Counter"}}},
		{"GET", "/api/" + b + "/_changes?include_docs=true", nil},
		{"GET", "/api/" + b + "/_changes?feed=longpoll&timeout=10&since=now", nil},
		// Views (the change stream's; refused either way).
		{"GET", "/api/" + b + "/_design/count-by-klass/_view/all?group_level=1", nil},
		{"GET", "/api/" + b + "/_design/count-by-open-ticket-priority/_view/all?group_level=0", nil},
		{"GET", "/api/" + b + "/_design/count-by-ticket-priority/_view/all?group_level=1", nil},
		{"PUT", "/api/" + b + "/_design/mine", map[string]any{"views": map[string]any{}}},
		{"DELETE", "/api/" + b + "/_design/mine", nil},
		// Update handlers.
		{"PUT", "/api/" + b + "/_design/status/_update/accept/" + bobMem["_id"].(string), map[string]any{}},
		{"PUT", "/api/" + b + "/_design/status/_update/accept/" + carolMem, map[string]any{}},
		{"PUT", "/api/" + b + "/_design/status/_update/read/" + cusID, map[string]any{}},
		{"PUT", "/api/" + bob.id + "/_design/bookmark/_update/true/" + bobMem["_id"].(string), map[string]any{}},
		{"POST", "/api/" + bob.id + "/_design/token/_update/create", map[string]any{"permissions": "read-write"}},
		{"POST", "/api/" + b + "/_design/token/_update/create", map[string]any{"permissions": "read-write"}},
		{"PUT", "/api/" + bob.id + "/_design/token/_update/revoke/" + bobTokID, map[string]any{}},
		// _security.
		{"GET", "/api/" + b + "/_security", nil},
		{"PUT", "/api/" + b + "/_security", map[string]any{"admins": map[string]any{"names": []string{alice.id}, "roles": []string{}}, "members": map[string]any{"names": []string{}, "roles": []string{a}}}},
		// The account record.
		{"GET", "/api/accounts/" + b, nil},
		{"GET", "/api/accounts/" + b + "?fields=name,billing_email", nil},
		{"HEAD", "/api/accounts/" + b, nil},
		{"PUT", "/api/accounts/" + b + "?rev=" + bobRec["_rev"].(string), map[string]any{"name": "pwned", "billing_email": "thief@example.com"}},
		{"DELETE", "/api/accounts/" + b + "?rev=" + bobRec["_rev"].(string), nil},
		{"POST", "/api/accounts", map[string]any{"name": "Annex", "parent-account-id": b}},
		{"GET", "/api/accounts/_all_docs?include_docs=true", nil},
		{"POST", "/api/accounts/_find", map[string]any{"selector": map[string]any{"klass": "Account"}}},
		// Memberships and configuration.
		{"POST", "/api/" + b, map[string]any{"klass": "Membership", "email": "alice@example.com", "editor": true}},
		{"GET", "/api/" + b + "/" + bobMem["_id"].(string), nil},
		{"PUT", "/api/" + b + "/" + bobMem["_id"].(string) + "?rev=" + bobMem["_rev"].(string), map[string]any{"editor": false}},
		{"DELETE", "/api/" + b + "/" + bobMem["_id"].(string) + "?rev=" + bobMem["_rev"].(string), nil},
		{"DELETE", "/api/" + b + "/" + carolMem + "?rev=" + rev(b, carolMem), nil},
		{"POST", "/api/" + b + "/_find", map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": map[string]any{"$exists": true}}}},
		{"PUT", "/api/" + b + "/" + bobAdj["_id"].(string) + "?rev=" + bobAdj["_rev"].(string), map[string]any{"key": "checklist", "value": "enabled"}},
		{"POST", "/api/" + b, map[string]any{"klass": "Adjustment", "key": "phones", "value": []any{}}},
		// Bob's personal db: mirrors, tokens, preferences.
		{"GET", "/api/" + bob.id, nil},
		{"POST", "/api/" + bob.id + "/_find", map[string]any{"selector": map[string]any{"klass": "UserToken", "active": true}}},
		{"POST", "/api/" + bob.id + "/_find", map[string]any{"selector": map[string]any{"klass": "Membership"}}},
		{"GET", "/api/" + bob.id + "/" + bobTokID, nil},
		{"PUT", "/api/" + bob.id + "/" + bobTokID + "?rev=" + rev(bob.id, bobTokID), map[string]any{"active": false}},
		{"DELETE", "/api/" + bob.id + "/" + bobTokID + "?rev=" + rev(bob.id, bobTokID), nil},
		{"GET", "/api/" + bob.id + "/_changes?include_docs=true", nil},
		{"POST", "/api/" + bob.id, map[string]any{"klass": "Adjustment", "key": "locale", "value": "pt-BR"}},
		// Bob's user.
		{"GET", "/api/_users/" + bob.id, nil},
		{"GET", "/api/_users/" + bob.id + "?fields=email", nil},
		{"PUT", "/api/_users/" + bob.id + "?rev=" + bobUser["_rev"].(string), map[string]any{"fullname": "pwned", "current_password": "password1"}},
		{"GET", "/api/_users", nil},
		{"GET", "/api/_users/_all_docs?include_docs=true", nil},
		{"POST", "/api/_users/_find", map[string]any{"selector": map[string]any{"email": "bob@example.com"}}},
	}

	ctx := context.Background()
	snapshot := func() string {
		t.Helper()
		var sb strings.Builder
		for _, db := range []string{b, bob.id, ids.AccountsDB, ids.UsersDB} {
			fmt.Fprintf(&sb, "%s@%d ", db, g.updateSeqOf(db))
		}
		sec, err := access.LoadSecurity(ctx, g.st, b)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(mustJSON(t, sec))
		rec, err := g.st.GetRecord(ctx, auth.TokenRecordKind, auth.HashToken(bobSecret))
		if err != nil {
			t.Fatalf("bob's token record: %v", err)
		}
		sb.Write(rec.Value)
		return sb.String()
	}
	walk := func(t *testing.T, br *browser, routes []route, allowed ...int) {
		t.Helper()
		before := snapshot()
		for _, rt := range routes {
			r := br.do(rt.method, rt.path, rt.body)
			ok := false
			for _, c := range allowed {
				ok = ok || r.code == c
			}
			if !ok {
				t.Errorf("%s %s: %d %s", rt.method, rt.path, r.code, r.body)
			}
			for _, s := range secrets {
				if strings.Contains(string(r.body), s) {
					t.Errorf("%s %s: the answer carries %q: %s", rt.method, rt.path, s, r.body)
				}
			}
			if rt.method != "HEAD" && r.code >= 400 {
				var env errorBody
				if err := json.Unmarshal(r.body, &env); err != nil || env.Error == "" {
					t.Errorf("%s %s: not an error envelope: %s", rt.method, rt.path, r.body)
				}
			}
		}
		if after := snapshot(); after != before {
			t.Errorf("B changed:\n before %s\n after  %s", before, after)
		}
	}
	refused := []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound}

	t.Run("user of another Group", func(t *testing.T) { walk(t, alice.b, routesB, refused...) })
	t.Run("read token of another Group", func(t *testing.T) { walk(t, withToken(ro), routesB, refused...) })
	t.Run("revoked token", func(t *testing.T) { walk(t, withToken(rv["token"].(string)), routesB, http.StatusUnauthorized) })
	t.Run("pending member", func(t *testing.T) {
		walk(t, carol.b, routesB, refused...)
		// Confirmed, the same walk still finds B closed (accepting is the only way in).
		g.confirm(carol.email)
		without := slicesWithout(routesB, "/_design/status/_update/accept/"+carolMem)
		walk(t, carol.b, without, refused...)
	})
	t.Run("read-only token writing its own Group", func(t *testing.T) {
		aAdj := g.adjustment(alice, a, "checklist")
		aMem := g.find(alice, a, map[string]any{"selector": map[string]any{"klass": "Membership", "user_id": alice.id}})[0]
		aCus := expect(t, alice.b.do("POST", "/api/"+a, map[string]any{"klass": "Customer", "name": "Alice's client"}), http.StatusCreated, "")
		aRec := expect(t, alice.b.do("GET", "/api/accounts/"+a, nil), http.StatusOK, "")
		aUser := expect(t, alice.b.do("GET", "/api/_users/"+alice.id, nil), http.StatusOK, "")
		writes := []route{
			{"POST", "/api/" + a, map[string]any{"klass": "Customer", "name": "x"}},
			{"PUT", "/api/" + a + "/" + ids.New("cus"), map[string]any{"klass": "Customer"}},
			{"PUT", "/api/" + a + "/" + aCus["id"].(string) + "?rev=" + aCus["rev"].(string), map[string]any{"klass": "Customer", "name": "y"}},
			{"DELETE", "/api/" + a + "/" + aCus["id"].(string) + "?rev=" + aCus["rev"].(string), nil},
			{"POST", "/api/" + a + "/_bulk_docs", map[string]any{"docs": []any{map[string]any{"klass": "Customer"}}}},
			{"PUT", "/api/" + a + "/_security", map[string]any{"admins": map[string]any{"names": []string{}, "roles": []string{}}, "members": map[string]any{"names": []string{}, "roles": []string{}}}},
			{"PUT", "/api/" + a + "/_design/x", map[string]any{}},
			{"PUT", "/api/" + a + "/" + aAdj["_id"].(string) + "?rev=" + aAdj["_rev"].(string), map[string]any{"key": "checklist", "value": "enabled"}},
			{"POST", "/api/" + a, map[string]any{"klass": "Membership", "email": "friend@example.com"}},
			{"PUT", "/api/" + a + "/" + aMem["_id"].(string) + "?rev=" + aMem["_rev"].(string), map[string]any{"report_view": false}},
			{"DELETE", "/api/" + a + "/" + aMem["_id"].(string) + "?rev=" + aMem["_rev"].(string), nil},
			{"PUT", "/api/" + alice.id + "/_design/bookmark/_update/true/" + aMem["_id"].(string), map[string]any{}},
			{"POST", "/api/" + alice.id + "/_design/token/_update/create", map[string]any{"permissions": "read-write"}},
			{"POST", "/api/" + alice.id, map[string]any{"klass": "Adjustment", "key": "locale", "value": "en"}},
			{"PUT", "/api/accounts/" + a + "?rev=" + aRec["_rev"].(string), map[string]any{"name": "z"}},
			{"POST", "/api/accounts", map[string]any{"name": "Another"}},
			{"PUT", "/api/_users/" + alice.id + "?rev=" + aUser["_rev"].(string), map[string]any{"locale": "pt-BR"}},
		}
		before := fmt.Sprint(g.updateSeqOf(a), g.updateSeqOf(alice.id), g.updateSeqOf(ids.AccountsDB), g.updateSeqOf(ids.UsersDB))
		walk(t, withToken(ro), writes, http.StatusForbidden)
		if after := fmt.Sprint(g.updateSeqOf(a), g.updateSeqOf(alice.id), g.updateSeqOf(ids.AccountsDB), g.updateSeqOf(ids.UsersDB)); after != before {
			t.Errorf("a read token wrote: %s → %s", before, after)
		}
		// It still reads.
		expect(t, withToken(ro).do("GET", "/api/"+a+"/"+aCus["id"].(string), nil), http.StatusOK, "")
	})
	t.Run("expired session", func(t *testing.T) {
		// Alice's session was fine a moment ago.
		expect(t, alice.b.do("GET", "/api/"+a, nil), http.StatusOK, "")
		g.clock.Advance(25 * time.Hour)
		walk(t, alice.b, routesB, http.StatusUnauthorized)
		expect(t, alice.b.do("GET", "/api/"+a, nil), http.StatusUnauthorized, "")
	})
	// B is intact for Bob (his session ended with the clock; his token works).
	d := expect(t, withToken(bobSecret).do("GET", "/api/"+b+"/"+cusID, nil), http.StatusOK, "")
	if d["name"] != "Bobs Secret Customer" || d["_rev"] != cusRev {
		t.Errorf("B's customer: %v", d)
	}
}

func slicesWithout(routes []route, pathPart string) []route {
	var out []route
	for _, r := range routes {
		if !strings.Contains(r.path, pathPart) {
			out = append(out, r)
		}
	}
	return out
}
