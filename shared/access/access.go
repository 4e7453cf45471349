// Package access holds who is asking (Principal) and decides, in one place,
// whether they may read, write or administer a database, from the database's
// _security document and the principal's roles (DESIGN.md §3).
package access

import (
	"time"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// Via says how a principal authenticated.
type Via int

const (
	ViaSession Via = iota + 1 // AuthSession cookie
	ViaToken                  // Authorization: Bearer <api token>
)

// ServerAdminRole is CouchDB's server admin role; it may use any database.
const ServerAdminRole = "_admin"

// Token permissions.
const (
	PermRead      = "read"
	PermReadWrite = "read-write"
)

// Principal is the signed-in user behind a request.
type Principal struct {
	UserID string // "usr-<32 hex>"
	Email  string // the login address
	// EmailConfirmed: the user has proved they read Email. Only then does
	// Email match names in a _security document (whoever registers an
	// address first must not inherit what was granted to it).
	EmailConfirmed bool
	Label          string   // how the user is shown in created_by/updated_by: full name, else email
	Name           string   // userCtx.name: the user id, as CouchDB clients expect a stable name
	Roles          []string // usr-<id>, acc-<id> per accepted membership, _admin
	Locale         string
	Via            Via
	// For tokens: the permission and, when non-empty, the only dbs it may use.
	TokenPerm string
	TokenDBs  []string
	// SessionKey identifies the session record (hash of the cookie secret);
	// TokenKey the token's (its hash).
	SessionKey string
	TokenKey   string
	// ConfirmBy is when an unconfirmed login address must be confirmed by
	// (SPEC.md §9: 30 days after the confirmation mail); zero once it is.
	// ConfirmExpired: that time has passed, so the user may only reach the
	// session, their user record and the confirmation until they confirm.
	ConfirmBy      time.Time
	ConfirmExpired bool
}

// HasRole reports whether p carries role.
func (p *Principal) HasRole(role string) bool { return p != nil && slices.Contains(p.Roles, role) }

// IsServerAdmin reports whether p has the _admin role.
func (p *Principal) IsServerAdmin() bool { return p.HasRole(ServerAdminRole) }

// Names is one side of a _security document.
type Names struct {
	Names []string `json:"names"`
	Roles []string `json:"roles"`
}

func (n Names) empty() bool { return len(n.Names) == 0 && len(n.Roles) == 0 }

func (n Names) matches(p *Principal) bool {
	if p == nil {
		return false
	}
	if slices.Contains(n.Names, p.UserID) || (p.EmailConfirmed && p.Email != "" && slices.Contains(n.Names, p.Email)) {
		return true
	}
	for _, r := range p.Roles {
		if slices.Contains(n.Roles, r) {
			return true
		}
	}
	return false
}

// Security is a database's _security document.
type Security struct {
	Admins  Names `json:"admins"`
	Members Names `json:"members"`
}

// Op is what a request does to a database.
type Op int

const (
	Read  Op = iota + 1 // GET docs, _find, _changes, views
	Write               // create, update, delete documents
	Admin               // _security, configuration
)

// Decide returns nil when p may perform op on db with security sec, else a
// fault: Unauthorized when nobody is signed in, Forbidden otherwise.
//
// Rules: server admins may do anything; db admins may read, write and
// administer; members may read and write; a database that declares no
// members (e.g. "prices") is readable by anyone and writable by its admins
// only. API tokens are further bounded by their permission and db list.
func Decide(p *Principal, db string, sec Security, op Op) error {
	if err := tokenBounds(p, db, op); err != nil {
		return err
	}
	if p.IsServerAdmin() || sec.Admins.matches(p) {
		return nil
	}
	switch op {
	case Read:
		if sec.Members.empty() || sec.Members.matches(p) {
			return nil
		}
	case Write:
		if !sec.Members.empty() && sec.Members.matches(p) {
			return nil
		}
	}
	if p == nil {
		return fault.New(fault.Unauthorized, "You are not authorized to access this db.")
	}
	if op == Admin || sec.Members.matches(p) {
		// A member asking for more than members may do.
		return fault.New(fault.Forbidden, fault.MsgPermissionDenied)
	}
	return fault.New(fault.Forbidden, MsgNotAllowed)
}

// tokenBounds applies an API token's db list and permission.
func tokenBounds(p *Principal, db string, op Op) error {
	if p == nil || p.Via != ViaToken {
		return nil
	}
	if len(p.TokenDBs) > 0 && !slices.Contains(p.TokenDBs, db) {
		return fault.New(fault.Forbidden, MsgNotAllowed)
	}
	if op != Read && p.TokenPerm != PermReadWrite {
		return fault.New(fault.Forbidden, fault.MsgPermissionDenied)
	}
	return nil
}

// MsgNotAllowed is the catalogue's reason for a db the principal has no part in.
const MsgNotAllowed = "You are not allowed to access this data."

// securityKind is the record kind holding each database's _security.
const securityKind = "security"

// locked is the security of a db that has none stored: server admins only,
// so a missing record can never open a database to the public.
var locked = Security{Admins: Names{Roles: []string{ServerAdminRole}}, Members: Names{Roles: []string{ServerAdminRole}}}

// LoadSecurity reads db's _security. A db without one is locked to server
// admins; public databases (e.g. "prices") store an explicit empty members list.
func LoadSecurity(ctx context.Context, st store.Store, db string) (Security, error) {
	rec, err := st.GetRecord(ctx, securityKind, db)
	if errors.Is(err, store.ErrNotFound) {
		return locked.normalized(), nil
	}
	if err != nil {
		return Security{}, fmt.Errorf("load security of %s: %w", db, err)
	}
	var sec Security
	if err := json.Unmarshal(rec.Value, &sec); err != nil {
		return Security{}, fmt.Errorf("decode security of %s: %w", db, err)
	}
	return sec.normalized(), nil
}

// errOwnRole: a Group or personal db's _security without the db's own role.
var errOwnRole = errors.New("the members of a Group or personal database keep the database's own role")

// SaveSecurity replaces db's _security. The members of a Group's acc-<id>
// or a user's usr-<id> always keep that role (see Check).
func SaveSecurity(ctx context.Context, st store.Store, db string, sec Security) error {
	sec = sec.normalized()
	if ownRoleDB(db) && !slices.Contains(sec.Members.Roles, db) {
		return fmt.Errorf("save security of %s: %w", db, errOwnRole)
	}
	b, err := json.Marshal(sec)
	if err != nil {
		return fmt.Errorf("encode security: %w", err)
	}
	if err := st.PutRecord(ctx, store.Record{Kind: securityKind, Key: db, Value: b}, false); err != nil {
		return fmt.Errorf("save security of %s: %w", db, err)
	}
	return nil
}

// normalized turns nil slices into empty ones so the JSON always has arrays.
func (s Security) normalized() Security {
	for _, n := range []*Names{&s.Admins, &s.Members} {
		if n.Names == nil {
			n.Names = []string{}
		}
		if n.Roles == nil {
			n.Roles = []string{}
		}
	}
	return s
}

// PersonalSecurity is the _security of a user's own db usr-<id>: only that
// user (by role) may use it.
func PersonalSecurity(userID string) Security {
	return Security{Admins: Names{Roles: []string{userID}}, Members: Names{Roles: []string{userID}}}.normalized()
}

// DropSecurity deletes db's _security, locking the db to server admins
// again (LoadSecurity's default); Group creation rolls back with it, since
// the store has no way to drop a database.
func DropSecurity(ctx context.Context, st store.Store, db string) error {
	if err := st.DeleteRecord(ctx, securityKind, db); err != nil {
		return fmt.Errorf("drop security of %s: %w", db, err)
	}
	return nil
}

// Check is the one decision every route and every write rule asks: may p do
// op on db? It reads db's _security and, for a Group db, what the Group
// adds to it (see Effective). The Group's account record is only read when
// the _security alone refuses, so members' requests cost one lookup.
func Check(ctx context.Context, st store.Store, p *Principal, db string, op Op) error {
	if ownDB(p, db, op) {
		return tokenBounds(p, db, op)
	}
	sec, err := LoadSecurity(ctx, st, db)
	if err != nil {
		return err
	}
	return decideWithGroups(ctx, st, p, db, sec, op)
}

// decideWithGroups is Check once db's own _security is read.
func decideWithGroups(ctx context.Context, st store.Store, p *Principal, db string, sec Security, op Op) error {
	err := Decide(p, db, sec, op)
	if err == nil || p == nil || !isGroupDB(db) {
		return err
	}
	eff, gerr := withGroupGrants(ctx, st, db, sec, 0)
	if gerr != nil {
		return gerr
	}
	return Decide(p, db, eff, op)
}

// Effective is db's _security as Check applies it: for a Group db, the
// account's admin_roles are admins by name, and a sub-group inherits its
// parent's admins and members (membership of the parent gives access to
// its sub-groups). GET _security returns it, so clients read admin-ness
// from one place.
func Effective(ctx context.Context, st store.Store, db string) (Security, error) {
	sec, err := LoadSecurity(ctx, st, db)
	if err != nil || !isGroupDB(db) {
		return sec, err
	}
	return withGroupGrants(ctx, st, db, sec, 0)
}

// maxGroupDepth bounds the parent chain walked for sub-groups (and so a
// corrupt cycle cannot loop).
const maxGroupDepth = 4

// accountGrants is the part of an account record (SPEC.md §3 Account) that
// grants access.
type accountGrants struct {
	AdminRoles []string `json:"admin_roles"`
	Parent     string   `json:"parent-account-id"`
}

func withGroupGrants(ctx context.Context, st store.Store, db string, sec Security, depth int) (Security, error) {
	d, err := st.Get(ctx, ids.AccountsDB, db)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrDeleted) || errors.Is(err, store.ErrDBNotFound) {
		return sec, nil // no account record (yet): the _security alone decides
	}
	if err != nil {
		return Security{}, fmt.Errorf("load account %s: %w", db, err)
	}
	var g accountGrants
	if err := json.Unmarshal(d.Body, &g); err != nil {
		return Security{}, fmt.Errorf("decode account %s: %w", db, err)
	}
	out := Security{
		Admins:  Names{Names: union(sec.Admins.Names, g.AdminRoles), Roles: union(sec.Admins.Roles)},
		Members: Names{Names: union(sec.Members.Names), Roles: union(sec.Members.Roles)},
	}
	if g.Parent != "" && g.Parent != db && isGroupDB(g.Parent) && depth < maxGroupDepth {
		psec, err := LoadSecurity(ctx, st, g.Parent)
		if err != nil {
			return Security{}, err
		}
		if psec, err = withGroupGrants(ctx, st, g.Parent, psec, depth+1); err != nil {
			return Security{}, err
		}
		out.Admins.Names = union(out.Admins.Names, psec.Admins.Names)
		out.Admins.Roles = union(out.Admins.Roles, psec.Admins.Roles)
		out.Members.Names = union(out.Members.Names, psec.Members.Names)
		out.Members.Roles = union(out.Members.Roles, psec.Members.Roles)
	}
	return out.normalized(), nil
}

// ownDB reports a read or write of a Group's or a user's own database by a
// principal holding the database's own role (acc-<id>, which memberships
// give, or usr-<id>, every user's own). The members of such a database's
// _security always include that role — SaveSecurity refuses any other, and
// a database without _security has no role holders (a Group's creator gets
// the role last, and a failed creation takes it away before it drops the
// _security) — so Decide would allow it: Check skips reading _security,
// the read every member's request used to pay.
func ownDB(p *Principal, db string, op Op) bool {
	return p != nil && (op == Read || op == Write) && ownRoleDB(db) && p.HasRole(db)
}

// ownRoleDB reports a Group's acc-<id> or a user's usr-<id>.
func ownRoleDB(db string) bool {
	pfx, ok := ids.Parse(db)
	return ok && (pfx == "acc" || pfx == "usr")
}

// isGroupDB reports whether db is a Group's "acc-<id>".
func isGroupDB(db string) bool {
	p, ok := ids.Parse(db)
	return ok && p == "acc"
}

// union appends the lists, dropping duplicates, into a new slice.
func union(lists ...[]string) []string {
	out := []string{}
	for _, l := range lists {
		for _, s := range l {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// CreateDB creates db with its _security. The security is written first so
// the db is never visible without it.
func CreateDB(ctx context.Context, st store.Store, db string, sec Security) error {
	if !ids.ValidDBName(db) {
		return fault.Newf(fault.BadRequest, "invalid database name %q", db)
	}
	if err := SaveSecurity(ctx, st, db, sec); err != nil {
		return err
	}
	if err := st.CreateDB(ctx, db); err != nil {
		return fmt.Errorf("create db %s: %w", db, err)
	}
	return nil
}

type principalKey struct{}

// WithPrincipal returns ctx carrying the request's principal (nil = anonymous).
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal ctx carries, nil when anonymous.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
