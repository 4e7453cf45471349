package accounts

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/store"
)

// The people of a Group as the desk assigns work to them: each accepted
// member by name (the user's own name, read when asked, so a renamed user
// shows their new name), and the people who left, so a ticket still
// assigned to one says who it was. A membership record carries the Group's
// name (SPEC.md §3), never the member's, so names come from the users.

// Person is a member, or a former member, of a Group.
type Person struct {
	UserID string `json:"user_id"`
	Name   string `json:"name"`
	Email  string `json:"email,omitempty"`
	Admin  bool   `json:"admin,omitempty"`
	// Left: no longer a member (tickets may still name them).
	Left bool `json:"left,omitempty"`
}

// kindFormerMembers keeps, per Group, the users whose membership was removed.
const (
	kindFormerMembers = "former-members"
	maxFormerMembers  = 1000
)

type formerMember struct {
	UserID string `json:"user_id"`
	LeftAt string `json:"left_at"`
}

// People lists Group db's members by name (sub-groups include the parent
// Group's members, who reach them through its role), then its former
// members, each group sorted by name.
func (s *Service) People(ctx context.Context, db string) ([]Person, error) {
	if !isGroupDB(db) {
		return nil, missing()
	}
	a, err := s.loadAccount(ctx, db)
	if errors.Is(err, store.ErrNotFound) {
		return nil, missing()
	}
	if err != nil {
		return nil, err
	}
	mems, err := s.memberships(ctx, db)
	if err != nil {
		return nil, err
	}
	if a.Parent != "" {
		parent, err := s.memberships(ctx, a.Parent)
		if err != nil {
			return nil, err
		}
		mems = append(mems, parent...)
	}
	var current, former []Person
	seen := map[string]bool{}
	for _, m := range mems {
		uid := str(m.body["user_id"])
		if uid == "" || str(m.body["status"]) != StatusAccepted || seen[uid] {
			continue
		}
		seen[uid] = true
		p, err := s.person(ctx, uid, str(m.body["email"]))
		if err != nil {
			return nil, err
		}
		p.Admin = flag(m.body, "editor")
		current = append(current, p)
	}
	gone, err := s.formerMembers(ctx, db)
	if err != nil {
		return nil, err
	}
	for _, f := range gone {
		if seen[f.UserID] {
			continue
		}
		seen[f.UserID] = true
		p, err := s.person(ctx, f.UserID, "")
		if err != nil {
			return nil, err
		}
		p.Left, p.Email = true, ""
		former = append(former, p)
	}
	byName := func(a, b Person) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) }
	slices.SortFunc(current, byName)
	slices.SortFunc(former, byName)
	return append(current, former...), nil
}

// person names a user: their full name, else their e-mail; a user who no
// longer exists keeps the e-mail the membership named (or no name).
func (s *Service) person(ctx context.Context, uid, email string) (Person, error) {
	u, ok, err := s.users.UserByID(ctx, uid)
	if err != nil {
		return Person{}, fmt.Errorf("accounts: person %s: %w", uid, err)
	}
	p := Person{UserID: uid, Name: email, Email: email}
	if ok {
		p.Email = u.Email
		p.Name = strings.TrimSpace(u.Fullname)
		if p.Name == "" {
			p.Name = u.Email
		}
	}
	return p, nil
}

func (s *Service) formerMembers(ctx context.Context, db string) ([]formerMember, error) {
	return readList[formerMember](ctx, s.st, kindFormerMembers, db, "former members of "+db)
}

// rememberFormerMember records that userID left db (concurrent removals
// all stay); the oldest fall off past the bound.
func (s *Service) rememberFormerMember(ctx context.Context, db, userID string) error {
	left := formerMember{UserID: userID, LeftAt: s.stamp()}
	return updateList(ctx, s.st, kindFormerMembers, db, "former members", func(list []formerMember) ([]formerMember, bool) {
		list = slices.DeleteFunc(list, func(f formerMember) bool { return f.UserID == userID })
		list = append(list, left)
		return list[max(0, len(list)-maxFormerMembers):], true
	})
}

// peopleRoute answers GET /api/{db}/_members (any member):
//
//	200 {"people":[{"user_id","name","email","admin"},…,{"user_id","name","left":true}]}
func (s *Service) peopleRoute(w http.ResponseWriter, r *http.Request) error {
	people, err := s.People(r.Context(), r.PathValue("db"))
	if err != nil {
		return err
	}
	if people == nil {
		people = []Person{}
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"people": people})
	return nil
}
