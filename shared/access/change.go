package access

import (
	"slices"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
)

// Reasons CheckSecurityChange gives.
const (
	MsgSecurityOpens = "members must name at least one user or role: an empty list makes the database readable by anyone"
)

// Bounds of one side of a _security document.
const (
	MaxSecurityEntries = 1000 // names, and roles, per side
	MaxSecurityEntry   = 254  // bytes of one name or role (an e-mail at most)
)

// ValidEntries reports whether every name or role of n is a non-empty,
// bounded string and the lists are bounded.
func (n Names) ValidEntries() bool {
	for _, l := range [][]string{n.Names, n.Roles} {
		if len(l) > MaxSecurityEntries {
			return false
		}
		for _, s := range l {
			if s == "" || len(s) > MaxSecurityEntry {
				return false
			}
		}
	}
	return true
}

// CheckSecurityChange decides whether db's _security may go from old to
// next (PUT /{db}/_security; who may ask is decided by Check). It refuses,
// with the reason, what would:
//   - open a closed database to anonymous users (empty members): only a
//     database that is public already (prices) may stay so;
//   - take a personal db usr-<id> from its owner (the usr-<id> role or name
//     must stay in admins, the role in members: a role holder is a member
//     without a _security read, see Check);
//   - cut a Group db acc-<id> from its members (the acc-<id> role must stay
//     in members) or remove an admin (admins are removed through the
//     Group's memberships, which keep the account record in step).
func CheckSecurityChange(db string, old, next Security) error {
	if next.Members.empty() && !old.Members.empty() {
		return fault.New(fault.BadRequest, MsgSecurityOpens)
	}
	prefix, _ := ids.Parse(db)
	switch prefix {
	case "usr":
		owner := &Principal{UserID: db, Roles: []string{db}}
		if !next.Admins.matches(owner) || !slices.Contains(next.Members.Roles, db) {
			return fault.Newf(fault.BadRequest, "the owner %s must stay in admins, and the role %s in members", db, db)
		}
	case "acc":
		if !slices.Contains(next.Members.Roles, db) {
			return fault.Newf(fault.BadRequest, "members must keep the role %s: it gives the Group's members their access", db)
		}
		for _, n := range old.Admins.Names {
			if !slices.Contains(next.Admins.Names, n) {
				return fault.Newf(fault.BadRequest, "admins must keep %s: administrators are removed through the Group's memberships", n)
			}
		}
		for _, r := range old.Admins.Roles {
			if !slices.Contains(next.Admins.Roles, r) {
				return fault.Newf(fault.BadRequest, "admins must keep %s: administrators are removed through the Group's memberships", r)
			}
		}
	}
	return nil
}
