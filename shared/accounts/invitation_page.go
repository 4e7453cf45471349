package accounts

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store"
)

// MsgInvitationNotFound answers an invitation link that leads nowhere (the
// invitation was accepted, withdrawn, or never was).
const MsgInvitationNotFound = "Invitation not found"

// invitationPage bounds the invitation lookups per client address: a
// person opening their mail, far below guessing two 128-bit ids.
var invitationPage = ratelimit.Limit{Name: "invitation-page", Max: 30, Per: time.Minute}

// inviteLink is where the invitation mail leads: /invite with the Group and
// the membership, so the page can name who invited whom to what (issue 22
// item 12). Both ids are random and travel only in the mail to the invited
// address, as the service documents' status links do.
func (s *Service) inviteLink(db, membership string) string {
	return s.baseURL + "/invite?" + url.Values{"g": {db}, "m": {membership}}.Encode()
}

// Invitation is what the invitation page shows before sign-in.
type Invitation struct {
	Group   string `json:"group"`
	Inviter string `json:"inviter"`
	Email   string `json:"email"`
}

// invitationPageHandler answers GET /api/_public/invitations/{db}/{id}:
// the Group's name, the inviter's and the invited address of a pending
// invitation; 404 for anything else (an accepted one included).
func (s *Service) invitationPageHandler(w http.ResponseWriter, r *http.Request) error {
	db, id := r.PathValue("db"), r.PathValue("id")
	notFound := fault.New(fault.NotFound, MsgInvitationNotFound)
	if !isGroupDB(db) {
		return notFound
	}
	if p, ok := ids.Parse(id); !ok || p != ids.PrefixOf(KlassMembership) {
		return notFound
	}
	d, err := s.st.Get(r.Context(), db, id)
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDeleted), errors.Is(err, store.ErrDBNotFound):
		return notFound
	case err != nil:
		return err
	}
	var m struct {
		Klass     string `json:"klass"`
		Email     string `json:"email"`
		Name      string `json:"name"`
		Status    string `json:"status"`
		UserID    string `json:"user_id"`
		CreatedBy struct {
			Label string `json:"label"`
		} `json:"created_by"`
	}
	if json.Unmarshal(d.Body, &m) != nil || m.Klass != KlassMembership || m.UserID != "" || m.Status == "accepted" {
		return notFound
	}
	w.Header().Set("Cache-Control", "no-store")
	httpjson.Write(w, http.StatusOK, Invitation{Group: m.Name, Inviter: m.CreatedBy.Label, Email: m.Email})
	return nil
}
