package accounts_test

import (
	"net/http"
	"testing"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/apptest"
)

// TestInvitationOnlyForConfirmedOwner: an invitation's details (the
// Group, who invited, the role) reach only the confirmed owner of the
// invited address. An account that registered the address without
// confirming it — before the invitation or after — finds nothing in its
// db, not even after the invitation changes, and cannot accept; once the
// address is confirmed through the mailed link, the invitation is there
// and can be accepted.
func TestInvitationOnlyForConfirmedOwner(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		invite := func(addr string) string {
			t.Helper()
			return ana.Do("POST", "/api/"+db, map[string]any{"klass": accounts.KlassMembership, "email": addr}).Expect(t, http.StatusCreated)["id"].(string)
		}
		invitations := func(c *apptest.Client) []any {
			t.Helper()
			r := c.Do("POST", "/api/"+c.ID+"/_find", map[string]any{"selector": map[string]any{"klass": accounts.KlassMembership}}).Expect(t, http.StatusOK)
			return r["docs"].([]any)
		}

		// Una registered the address first, unconfirmed; Eve registers
		// hers after the invitation.
		una := e.SignUpUnconfirmed("una@example.com")
		unaInvite := invite("una@example.com")
		eveInvite := invite("eve@example.com")
		eve := e.SignUpUnconfirmed("eve@example.com")
		if len(e.MailsTo("una@example.com", "Oficina da Ana")) != 1 || len(e.MailsTo("eve@example.com", "Oficina da Ana")) != 1 {
			t.Fatal("the invitation mail goes to the address whoever registered it")
		}
		// The admin changes Una's invitation: still nothing reaches her.
		d := e.Doc(db, unaInvite)
		ana.Do("PUT", "/api/"+db+"/"+unaInvite+"?rev="+d["_rev"].(string), map[string]any{"email": "una@example.com", "report_view": true}).Expect(t, http.StatusCreated)
		invitees := []struct {
			who *apptest.Client
			mem string
		}{{una, unaInvite}, {eve, eveInvite}}
		for _, c := range invitees {
			if l := invitations(c.who); len(l) != 0 {
				t.Errorf("%s, unconfirmed, sees invitations: %v", c.who.Email, l)
			}
			c.who.Do("GET", "/api/"+c.who.ID+"/"+c.mem, nil).Expect(t, http.StatusNotFound)
			e.Unchanged(db, func() {
				c.who.Do("PUT", "/api/"+db+"/_design/status/_update/accept/"+c.mem, map[string]any{}).ExpectError(t, http.StatusForbidden, accounts.MsgConfirmFirst)
			})
		}

		// Confirmed through the mailed link: the invitation shows and is accepted.
		for _, c := range invitees {
			e.Anonymous().Do("PUT", "/api/_users/_confirmation", map[string]any{"token": e.LastLink(c.who.Email, "confirm")}).Expect(t, http.StatusOK)
			l := invitations(c.who)
			if len(l) != 1 || l[0].(map[string]any)["_id"] != c.mem || l[0].(map[string]any)["name"] != "Oficina da Ana" || l[0].(map[string]any)["status"] != accounts.StatusPending {
				t.Fatalf("%s, confirmed: invitations %v", c.who.Email, l)
			}
			c.who.Do("PUT", "/api/"+db+"/_design/status/_update/accept/"+c.mem, map[string]any{}).Expect(t, http.StatusOK)
		}
	})
}
