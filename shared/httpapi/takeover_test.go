package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// Issue 8, item 1: someone who registers another person's address first
// must not keep anything once the owner recovers the account through the
// mailbox (a password reset link).

// TestUnconfirmedAccountCannotCreateTokens: an API token outlives
// sessions, so only a confirmed address may have one.
func TestUnconfirmedAccountCannotCreateTokens(t *testing.T) {
	g := newGroupEnv(t, nil)
	una := g.user("una@example.com", "en", false)
	seq := g.updateSeqOf(una.id)
	expect(t, una.b.do("POST", "/api/"+una.id+"/_design/token/_update/create", map[string]any{"permissions": "read"}), http.StatusForbidden, fault.MsgConfirmEmailFirst)
	if g.updateSeqOf(una.id) != seq {
		t.Error("a refused token creation wrote")
	}
	g.confirm("una@example.com")
	expect(t, una.b.do("POST", "/api/"+una.id+"/_design/token/_update/create", map[string]any{"permissions": "read"}), http.StatusCreated, "")
}

// TestPasswordResetRecoversASquattedAccount plays the attack: the squatter
// registers the owner's address, holds a token (made before tokens needed
// a confirmed address), parks an e-mail change to their own address, and
// the server lists the owner's address in --server-admins. The owner's
// password reset must leave the squatter with nothing.
func TestPasswordResetRecoversASquattedAccount(t *testing.T) {
	g := newGroupEnv(t, nil, "owner@example.com")
	ctx := context.Background()
	sq := g.user("owner@example.com", "en", false) // the squatter, signed in
	// A token the squatter holds: what the store kept of one made earlier.
	token := plantToken(t, g, sq.id)
	viaToken := g.browser()
	viaToken.bearer = token
	expect(t, viaToken.do("GET", "/api/_session", nil), http.StatusOK, "")

	// The parked change: the link goes to the squatter's own mailbox.
	expect(t, sq.b.do("PUT", "/api/_users/"+sq.id+"?rev="+sq.b.rev(sq.id), map[string]any{"unconfirmed_email": "squatter@evil.example", "current_password": "password1"}), http.StatusCreated, "")
	parked := g.lastLink("squatter@evil.example", "confirm")

	// The owner recovers the account through the mailbox.
	expect(t, g.browser().do("POST", "/api/_users/_password", map[string]any{"email": "owner@example.com"}), http.StatusAccepted, "")
	expect(t, g.browser().do("PUT", "/api/_users/_password", map[string]any{"token": g.lastLink("owner@example.com", "password"), "password": "owners-own-1"}), http.StatusOK, "")

	// The squatter's session, token and parked change are gone.
	expect(t, sq.b.do("GET", "/api/_session", nil), http.StatusUnauthorized, "")
	expect(t, viaToken.do("GET", "/api/_session", nil), http.StatusUnauthorized, "Invalid or revoked token")
	expect(t, g.browser().do("PUT", "/api/_users/_confirmation", map[string]any{"token": parked}), http.StatusNotFound, fault.MsgTokenUsedOrExpired)
	expect(t, g.browser().login("owner@example.com", "password1"), http.StatusUnauthorized, "")
	expect(t, g.browser().login("squatter@evil.example", "password1"), http.StatusUnauthorized, "")

	// The owner has the account, confirmed, with the login address, and is the server admin.
	owner := g.browser()
	expect(t, owner.login("owner@example.com", "owners-own-1"), http.StatusOK, "")
	u := expect(t, owner.do("GET", "/api/_users/"+sq.id, nil), http.StatusOK, "")
	if u["email"] != "owner@example.com" || u["unconfirmed_email"] != nil || u["confirmed_at"] == nil {
		t.Errorf("owner's user after the reset: %v", u)
	}
	if !slices.Contains(g.roles(&member{id: sq.id, b: owner}), access.ServerAdminRole) {
		t.Error("the confirmed owner is not server admin")
	}
	if _, err := g.st.GetRecord(ctx, "pending-email", "squatter@evil.example"); err == nil {
		t.Error("the pending-address index still points at the account")
	}
}

// TestPasswordResetRevokesTokensAndPendingChange: the same guarantees for
// an ordinary account: the reset ends every session, revokes every token
// (marking them revoked for the token list) and drops a pending change.
func TestPasswordResetRevokesTokensAndPendingChange(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana := g.user("ana@example.com", "en", true)
	r := expect(t, ana.b.do("POST", "/api/"+ana.id+"/_design/token/_update/create", map[string]any{"permissions": "read-write", "description": "backup script"}), http.StatusCreated, "")
	tokID, token := r["id"].(string), r["token"].(string)
	script := g.browser()
	script.bearer = token
	expect(t, script.do("GET", "/api/"+ana.id, nil), http.StatusOK, "")
	expect(t, ana.b.do("PUT", "/api/_users/"+ana.id+"?rev="+ana.b.rev(ana.id), map[string]any{"unconfirmed_email": "ana.new@example.com", "current_password": "password1"}), http.StatusCreated, "")
	phone := g.browser()
	expect(t, phone.login("ana@example.com", "password1"), http.StatusOK, "")

	expect(t, g.browser().do("POST", "/api/_users/_password", map[string]any{"email": "ana@example.com"}), http.StatusAccepted, "")
	expect(t, g.browser().do("PUT", "/api/_users/_password", map[string]any{"token": g.lastLink("ana@example.com", "password"), "password": "password2"}), http.StatusOK, "")

	expect(t, script.do("GET", "/api/"+ana.id, nil), http.StatusUnauthorized, "Invalid or revoked token")
	expect(t, phone.do("GET", "/api/_session", nil), http.StatusUnauthorized, "")
	expect(t, ana.b.do("GET", "/api/_session", nil), http.StatusUnauthorized, "")
	if doc := g.doc(ana.id, tokID); doc == nil || doc["active"] != false || doc["revoked_at"] == nil {
		t.Errorf("token document after the reset: %v", doc)
	}
	expect(t, g.browser().do("PUT", "/api/_users/_confirmation", map[string]any{"token": g.lastLink("ana.new@example.com", "confirm")}), http.StatusNotFound, fault.MsgTokenUsedOrExpired)

	// Signing in again, Ana can make a new token, and it works.
	b := g.browser()
	expect(t, b.login("ana@example.com", "password2"), http.StatusOK, "")
	u := expect(t, b.do("GET", "/api/_users/"+ana.id, nil), http.StatusOK, "")
	if u["unconfirmed_email"] != nil {
		t.Errorf("pending change survived the reset: %v", u)
	}
	r = expect(t, b.do("POST", "/api/"+ana.id+"/_design/token/_update/create", map[string]any{"permissions": "read"}), http.StatusCreated, "")
	script.bearer = r["token"].(string)
	expect(t, script.do("GET", "/api/"+ana.id, nil), http.StatusOK, "")
}

// TestChangedEmailConfirmationNeedsTheSignedInUser: following the link to
// a new address confirms it only in the browser of the user who asked for
// it; anyone else's attempt does not use the link up.
func TestChangedEmailConfirmationNeedsTheSignedInUser(t *testing.T) {
	g := newGroupEnv(t, nil)
	ana := g.user("ana@example.com", "en", true)
	bob := g.user("bob@example.com", "en", true)
	expect(t, ana.b.do("PUT", "/api/_users/"+ana.id+"?rev="+ana.b.rev(ana.id), map[string]any{"unconfirmed_email": "ana.new@example.com", "current_password": "password1"}), http.StatusCreated, "")
	link := map[string]any{"token": g.lastLink("ana.new@example.com", "confirm")}
	userSeq := g.updateSeqOf(ids.UsersDB)

	expect(t, g.browser().do("PUT", "/api/_users/_confirmation", link), http.StatusUnauthorized, auth.MsgNotLoggedIn)
	expect(t, bob.b.do("PUT", "/api/_users/_confirmation", link), http.StatusForbidden, auth.MsgConfirmAsRequester)
	script := g.browser()
	script.bearer = expect(t, ana.b.do("POST", "/api/"+ana.id+"/_design/token/_update/create", map[string]any{"permissions": "read-write"}), http.StatusCreated, "")["token"].(string)
	expect(t, script.do("PUT", "/api/_users/_confirmation", link), http.StatusForbidden, auth.MsgConfirmAsRequester)
	if g.updateSeqOf(ids.UsersDB) != userSeq {
		t.Error("a refused confirmation wrote")
	}

	u := expect(t, ana.b.do("PUT", "/api/_users/_confirmation", link), http.StatusOK, "")
	if u["email"] != "ana.new@example.com" || u["unconfirmed_email"] != nil {
		t.Errorf("after confirmation: %v", u)
	}
	// A first confirmation of the login address still works from any browser.
	g.register("cai@example.com", "password1", "en")
	expect(t, g.browser().do("PUT", "/api/_users/_confirmation", map[string]any{"token": g.lastLink("cai@example.com", "confirm")}), http.StatusOK, "")
}

// TestServerAdminRoleFollowsTheConfirmedAddress: _admin is decided on every
// request from the user's confirmed login address.
func TestServerAdminRoleFollowsTheConfirmedAddress(t *testing.T) {
	g := newGroupEnv(t, nil, "boss@example.com")
	boss := g.user("boss@example.com", "en", false)
	if g.hasRole(boss, access.ServerAdminRole) {
		t.Fatal("_admin before the address is confirmed")
	}
	g.confirm("boss@example.com")
	if !g.hasRole(boss, access.ServerAdminRole) {
		t.Fatal("no _admin once confirmed")
	}
	expect(t, boss.b.do("PUT", "/api/_users/"+boss.id+"?rev="+boss.b.rev(boss.id), map[string]any{"unconfirmed_email": "boss.home@example.com", "current_password": "password1"}), http.StatusCreated, "")
	if !g.hasRole(boss, access.ServerAdminRole) {
		t.Fatal("a pending change took _admin away early")
	}
	expect(t, boss.b.do("PUT", "/api/_users/_confirmation", map[string]any{"token": g.lastLink("boss.home@example.com", "confirm")}), http.StatusOK, "")
	if g.hasRole(boss, access.ServerAdminRole) {
		t.Fatal("_admin kept after the login address changed")
	}
}

// plantToken writes an active API token for userID the way the token
// service stores one, and returns its secret.
func plantToken(t *testing.T, g *groupEnv, userID string) string {
	t.Helper()
	secret, err := auth.NewAPIToken()
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := json.Marshal(auth.TokenRecord{TokenID: ids.New("tok"), UserID: userID, Permissions: access.PermReadWrite, Active: true})
	if err := g.st.PutRecord(context.Background(), store.Record{Kind: auth.TokenRecordKind, Key: auth.HashToken(secret), Value: rec}, false); err != nil {
		t.Fatal(err)
	}
	return secret
}
