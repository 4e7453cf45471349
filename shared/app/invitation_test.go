package app_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/apptest"
)

var inviteLinkRE = regexp.MustCompile(`https?://\S*/invite\?\S+`)

// TestInvitationPage (issue 22 item 12): the invitation mail links to
// /invite with the Group and the membership, and the page's lookup names
// the Group, the inviter and the invited address of a pending invitation
// to anyone holding the link — and nothing once it is accepted, or for ids
// that do not match.
func TestInvitationPage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana := e.SignUp("ana@example.com")
		u := ana.Do("GET", "/api/_users/"+ana.ID, nil).Expect(t, http.StatusOK)
		ana.Do("PUT", "/api/_users/"+ana.ID+"?rev="+u["_rev"].(string), map[string]any{"fullname": "Ana Dona", "current_password": apptest.Password}).Expect(t, http.StatusCreated)
		db := e.Group(ana, "Assistência Técnica do Zé")
		other := e.Group(ana, "Outra Oficina")
		mem := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Membership", "email": "bia@example.com", "editor": false}).Expect(t, http.StatusCreated)["id"].(string)

		var link string
		for _, m := range e.MailsTo("bia@example.com", "") {
			if l := inviteLinkRE.FindString(m.Text); l != "" {
				link = l
			}
		}
		l, err := url.Parse(link)
		if err != nil || l.Query().Get("g") != db || l.Query().Get("m") != mem {
			t.Fatalf("invitation link %q, want g=%s m=%s", link, db, mem)
		}
		anon := e.Anonymous()
		got := anon.Do("GET", "/api/_public/invitations/"+db+"/"+mem, nil).Expect(t, http.StatusOK)
		if got["group"] != "Assistência Técnica do Zé" || got["inviter"] != "Ana Dona" || got["email"] != "bia@example.com" {
			t.Fatalf("invitation page %v", got)
		}
		for _, path := range []string{db + "/mem-00000000000000000000000000000000", other + "/" + mem, "usr-00000000000000000000000000000000/" + mem, db + "/" + db} {
			anon.Do("GET", "/api/_public/invitations/"+path, nil).ExpectError(t, http.StatusNotFound, accounts.MsgInvitationNotFound)
		}
		bia := e.SignUp("bia@example.com")
		bia.Do("PUT", "/api/"+db+"/_design/status/_update/accept/"+mem, map[string]any{}).Expect(t, http.StatusOK)
		anon.Do("GET", "/api/_public/invitations/"+db+"/"+mem, nil).ExpectError(t, http.StatusNotFound, accounts.MsgInvitationNotFound)
	})
}
