package limits

import (
	"context"
	"net/http"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/store"
)

// Suppressed is the answer of GET /api/{db}/_mail/suppressed: the
// Group's memberships whose address the product no longer mails (a hard
// bounce or a spam complaint SES reported), by membership id. The address
// is where the product's mail to that member goes: the user's login
// address once the invitation is accepted, the invited address before.
type Suppressed struct {
	Memberships map[string]mail.Suppression `json:"memberships"`
}

// getSuppressed answers GET /api/{db}/_mail/suppressed (members): the
// member list marks these rows.
func (m *Module) getSuppressed(w http.ResponseWriter, r *http.Request) error {
	out, err := m.suppressed(r.Context(), r.PathValue("db"))
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, out)
	return nil
}

func (m *Module) suppressed(ctx context.Context, db string) (Suppressed, error) {
	out := Suppressed{Memberships: map[string]mail.Suppression{}}
	q := store.ListQuery{Klass: "Membership", Limit: 200}
	for {
		page, err := m.st.List(ctx, db, q)
		if err != nil {
			return Suppressed{}, err
		}
		for _, d := range page.Docs {
			if d.Deleted {
				continue
			}
			b, err := docs.Decode(d.Body)
			if err != nil {
				return Suppressed{}, err
			}
			addr := str(b["email"])
			if uid := str(b["user_id"]); uid != "" && str(b["status"]) == "accepted" {
				u, ok, err := m.user(ctx, uid)
				if err != nil {
					return Suppressed{}, err
				}
				if ok && u.Email != "" {
					addr = u.Email
				}
			}
			s, ok, err := m.suppressions.Lookup(ctx, addr)
			if err != nil {
				return Suppressed{}, err
			}
			if ok {
				out.Memberships[d.ID] = s
			}
		}
		if page.Next == "" {
			return out, nil
		}
		q.After = page.Next
	}
}
