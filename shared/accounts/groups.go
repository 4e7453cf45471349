package accounts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/store"
)

// NewGroup is the body of POST /api/accounts.
type NewGroup struct {
	Name     string
	ParentID string // "parent-account-id": a sub-group of a corp Group
}

// AccountUpdate is the body of PUT /api/accounts/{id}; nil fields stay.
type AccountUpdate struct {
	Name         *string
	BillingEmail *string
}

// account is a Group's record with the facts rules need.
type account struct {
	ID         string
	Rev        string
	Name       string
	Creator    string // user id of created_by
	Parent     string
	AdminRoles []string
	Body       map[string]any
}

// loadAccount reads a Group's account record; store.ErrNotFound if none.
func (s *Service) loadAccount(ctx context.Context, id string) (account, error) {
	d, body, err := s.get(ctx, ids.AccountsDB, id)
	if err != nil {
		return account{}, err
	}
	a := account{ID: id, Rev: d.Rev, Name: str(body["name"]), Creator: str(body["created_by_id"]), Parent: str(body["parent-account-id"]), Body: body}
	if a.Creator == "" {
		a.Creator = principalOf(body["created_by"]).UserID
	}
	if l, ok := body["admin_roles"].([]any); ok {
		for _, v := range l {
			if s, ok := v.(string); ok {
				a.AdminRoles = append(a.AdminRoles, s)
			}
		}
	}
	return a, nil
}

// adjustmentID is the id of a Group's default adjustment for key: derived
// from the db and key, so the server finds it with one read (the plan is
// read on every free-limit check) and creating a Group twice cannot
// duplicate a key.
func adjustmentID(db, key string) string {
	sum := sha256.Sum256([]byte(db + "\x00" + key))
	return "adj-" + hex.EncodeToString(sum[:16])
}

// Plan returns a Group's confirmed-plan ("" when the Group is unknown).
func (s *Service) Plan(ctx context.Context, accID string) (string, error) {
	_, body, err := s.get(ctx, accID, adjustmentID(accID, "confirmed-plan"))
	if err == nil {
		if v := str(body["value"]); v != "" {
			return v, nil
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	// A Group without the adjustment: the record's plan.
	a, err := s.loadAccount(ctx, accID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return str(a.Body["v7_plan"]), nil
}

// freeGroups counts the free Groups u is a member of (the Groups they
// created included): the acc-<id> roles whose confirmed-plan is free.
func (s *Service) freeGroups(ctx context.Context, u auth.User, except string) (int, error) {
	n := 0
	for _, r := range u.Roles {
		if !isGroupDB(r) || r == except {
			continue
		}
		plan, err := s.Plan(ctx, r)
		if err != nil {
			return 0, err
		}
		if plan == PlanFree {
			n++
		}
	}
	return n, nil
}

// checkFreeLimit refuses one more free Group for u.
func (s *Service) checkFreeLimit(ctx context.Context, u auth.User, except string) error {
	n, err := s.freeGroups(ctx, u, except)
	if err != nil {
		return err
	}
	if !u.Confirmed() && n >= FreeGroupsUnconfirmed {
		return fault.New(fault.Forbidden, MsgFreeLimitUnconfirmed)
	}
	if n >= FreeGroups {
		return fault.New(fault.Forbidden, MsgFreeLimit)
	}
	return nil
}

const (
	kindGroupLock = "group-lock" // user id → held while the user joins or creates a Group
	lockTTL       = 30 * time.Second
)

// lockUser serialises a user's Group creations and acceptances, so two at
// once cannot both pass the free-Group limit. The lock expires by itself
// if its holder dies.
func (s *Service) lockUser(ctx context.Context, userID string) (func(), error) {
	rec := store.Record{Kind: kindGroupLock, Key: userID, Value: []byte(ids.New("acc"))} // unique per holder
	for attempt := 0; ; attempt++ {
		rec.ExpiresAt = time.Now().Add(lockTTL) // the store expires by its own clock
		err := s.st.PutRecord(ctx, rec, true)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrExists) {
			return nil, fmt.Errorf("lock %s: %w", userID, err)
		}
		if attempt >= 100 {
			return nil, fault.New(fault.Conflict, fault.MsgConflict)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return func() {
		ctx := context.WithoutCancel(ctx)
		// Release only our own lock (it may have expired and been taken).
		err := s.st.Transact(ctx, []store.RecordWrite{{Record: store.Record{Kind: kindGroupLock, Key: userID}, Delete: true, Expect: rec.Value}})
		if err != nil && !errors.Is(err, store.ErrConflict) {
			s.log.ErrorContext(ctx, "release group lock", "user", userID, "err", err)
		}
	}, nil
}

// cleanName validates a Group name: required, bounded, one line.
func cleanName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", invalid(field, fault.CantBeBlank)
	case len([]rune(name)) > maxNameLen:
		return "", invalid(field, fmt.Sprintf("is too long (maximum is %d characters)", maxNameLen))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "", invalid(field, fault.IsInvalid)
	}
	return name, nil
}

// defaultSettings are the configuration keys of SPEC.md §3 with their
// defaults, besides the ones that describe the Group (name, created-*,
// confirmed-plan) and billing-email.
var defaultSettings = []struct {
	key   string
	value any
}{
	{"admin", false},
	{"checklist", "enabled"}, // a category's checklist works from the first ticket (SPEC §3 says disabled; issue 22)
	{"project-management", "disabled"},
	{"budget", "enabled"},
	{"rdisk", "enabled"},
	{"textnotes", "enabled"},
	{"exoreader", "disabled"},
	{"maintenance", "disabled"},
	{"billing", "disabled"},
	{"contract-receipt", "on-demand"},
	{"billing-email", ""},
}

// CreateGroup creates a Group for p, atomically as seen from outside. The
// writes go where nobody can see them first: the new db exists without a
// _security (so it is locked to server admins), then its adjustments, the
// creator's membership, the account record (reachable only through the
// db's access), then the _security, the mirror in the creator's db, and
// last the creator's role. A failure rolls back every earlier write; the
// empty db stays, locked (the store cannot drop dbs).
func (s *Service) CreateGroup(ctx context.Context, p *access.Principal, in NewGroup) (store.Doc, error) {
	if p == nil {
		return store.Doc{}, fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	if p.Via == access.ViaToken && (p.TokenPerm != access.PermReadWrite || len(p.TokenDBs) > 0) {
		return store.Doc{}, denied() // a token bound to some Groups cannot make new ones
	}
	name, err := cleanName("name", in.Name)
	if err != nil {
		return store.Doc{}, err
	}
	u, ok, err := s.users.UserByID(ctx, p.UserID)
	if err != nil {
		return store.Doc{}, err
	}
	if !ok {
		return store.Doc{}, fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}

	plan := PlanFree
	var parentSec access.Security
	if in.ParentID != "" {
		// Only an admin of a corp Group makes sub-groups; anything else
		// (unknown Group, someone else's) reads the same.
		if !isGroupDB(in.ParentID) || access.Check(ctx, s.st, p, in.ParentID, access.Admin) != nil {
			return store.Doc{}, denied()
		}
		pp, err := s.Plan(ctx, in.ParentID)
		if err != nil {
			return store.Doc{}, err
		}
		if pp != PlanCorp {
			return store.Doc{}, denied()
		}
		plan = pp // sub-groups live on the parent's plan
		if parentSec, err = access.LoadSecurity(ctx, s.st, in.ParentID); err != nil {
			return store.Doc{}, err
		}
	}

	unlock, err := s.lockUser(ctx, p.UserID)
	if err != nil {
		return store.Doc{}, err
	}
	defer unlock()
	if plan == PlanFree {
		// Read again under the lock: a creation that just finished added a role.
		if u, _, err = s.users.UserByID(ctx, p.UserID); err != nil {
			return store.Doc{}, err
		}
		if err := s.checkFreeLimit(ctx, u, ""); err != nil {
			return store.Doc{}, err
		}
	}

	accID, memID := s.newID("acc"), s.newID("mem")
	created := s.stamp()
	var rb undo
	fail := func(err error) (store.Doc, error) {
		rb.run(ctx, s.log)
		return store.Doc{}, err
	}
	if err := s.st.CreateDB(ctx, accID); err != nil {
		return store.Doc{}, fmt.Errorf("create group db: %w", err)
	}

	settings := []struct {
		key   string
		value any
	}{
		{"name", name}, {"created-by", p.Label}, {"created-by-id", p.UserID},
		{"created-at", created}, {"confirmed-plan", plan},
		// Phones are read in the Group's country; its creator's language suggests it.
		{"country", phonerules.DefaultCountry(u.Locale)},
	}
	settings = append(settings, defaultSettings...)
	if err := s.writeAdjustments(ctx, p, accID, settings, &rb); err != nil {
		return fail(err)
	}

	mem := map[string]any{
		"klass": KlassMembership, "user_id": p.UserID, "user": map[string]any{"_id": p.UserID, "label": p.Label},
		"email": u.Email, "editor": true, "admin": true, "report_view": true,
		"status": StatusAccepted, "bookmark": false, "db_name": accID, "name": name,
		"created_by_id": p.UserID, "confirmed-plan": plan,
	}
	if err := s.saveUndoable(ctx, p, accID, memID, mem, &rb); err != nil {
		return fail(err)
	}

	rec := map[string]any{
		"klass": KlassAccount, "name": name, "billing_email": "", "v7_plan": plan, "livemode": false,
		"admin_roles": []string{p.UserID}, "created_by_id": p.UserID,
	}
	if in.ParentID != "" {
		rec["parent-account-id"] = in.ParentID
	}
	acct, err := s.save(ctx, p, ids.AccountsDB, accID, "", rec)
	if err != nil {
		return fail(fmt.Errorf("create account record: %w", err))
	}
	rb.add(func(ctx context.Context) error { return s.remove(ctx, p, ids.AccountsDB, accID, acct.Rev) })

	sec := access.Security{
		Admins:  access.Names{Names: []string{p.UserID}},
		Members: access.Names{Roles: []string{accID}},
	}
	if in.ParentID != "" {
		// Only the administrator setting is copied from the parent; its
		// members reach the sub-group through the parent's role.
		sec.Admins.Names = slices.Clone(parentSec.Admins.Names)
		if !slices.Contains(sec.Admins.Names, p.UserID) {
			sec.Admins.Names = append(sec.Admins.Names, p.UserID)
		}
		sec.Admins.Roles = slices.Clone(parentSec.Admins.Roles)
		sec.Members.Roles = append(sec.Members.Roles, in.ParentID)
	}
	if err := access.SaveSecurity(ctx, s.st, accID, sec); err != nil {
		return fail(err)
	}
	// While the creator may hold the Group's role, its _security stays: a
	// role holder is a member without a _security read (access.Check).
	roleHeld := false
	rb.add(func(ctx context.Context) error {
		if roleHeld {
			return fmt.Errorf("group %s: its role could not be taken back, so its _security stays", accID)
		}
		return access.DropSecurity(ctx, s.st, accID)
	})

	if err := s.ensurePersonalDB(ctx, p.UserID); err != nil {
		return fail(err)
	}
	if err := s.saveUndoable(ctx, p, p.UserID, memID, mem, &rb); err != nil {
		return fail(fmt.Errorf("mirror membership: %w", err))
	}
	if err := s.users.AddRole(ctx, p.UserID, accID); err != nil {
		roleHeld = true // the write may have applied
		rb.add(func(ctx context.Context) error {
			if err := s.users.RemoveRole(ctx, p.UserID, accID); err != nil {
				return err
			}
			roleHeld = false
			return nil
		})
		return fail(err)
	}
	s.log.InfoContext(ctx, "group created", "account", accID, "user", p.UserID, "parent", in.ParentID)
	return acct, nil
}

// saveUndoable creates a document and records its deletion for rollback.
func (s *Service) saveUndoable(ctx context.Context, p *access.Principal, db, id string, body map[string]any, rb *undo) error {
	d, err := s.save(ctx, p, db, id, "", body)
	if err != nil {
		return err
	}
	rb.add(func(ctx context.Context) error { return s.remove(ctx, p, db, id, d.Rev) })
	return nil
}

// writeAdjustments creates the default adjustments side by side (the store
// shares their commits), recording each for rollback.
func (s *Service) writeAdjustments(ctx context.Context, p *access.Principal, db string, settings []struct {
	key   string
	value any
}, rb *undo) error {
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
		sem   = make(chan struct{}, 8)
	)
	for _, kv := range settings {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			id := adjustmentID(db, kv.key)
			d, err := s.save(ctx, p, db, id, "", map[string]any{"klass": KlassAdjustment, "key": kv.key, "label": kv.key, "value": kv.value})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if first == nil {
					first = fmt.Errorf("adjustment %s: %w", kv.key, err)
				}
				return
			}
			rb.add(func(ctx context.Context) error { return s.remove(ctx, p, db, id, d.Rev) })
		}()
	}
	wg.Wait()
	return first
}

// billingFields are the account record's payment details, shown to admins only.
var billingFields = []string{"billing_email", "platform_customer_id", "platform_price_id"}

// Account returns a Group's record to its members and server admins;
// anybody else gets 404, as if it did not exist. Payment details are left
// out for members who are not admins.
func (s *Service) Account(ctx context.Context, p *access.Principal, id string) (store.Doc, map[string]any, error) {
	if p == nil {
		return store.Doc{}, nil, fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	if !isGroupDB(id) || access.Check(ctx, s.st, p, id, access.Read) != nil {
		return store.Doc{}, nil, missing()
	}
	d, body, err := s.get(ctx, ids.AccountsDB, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Doc{}, nil, missing()
	}
	if err != nil {
		return store.Doc{}, nil, err
	}
	if access.Check(ctx, s.st, p, id, access.Admin) != nil {
		for _, f := range billingFields {
			delete(body, f)
		}
	}
	return d, body, nil
}

// UpdateAccount edits a Group's name and billing e-mail (admins only); the
// matching adjustments and memberships follow.
func (s *Service) UpdateAccount(ctx context.Context, p *access.Principal, id, rev string, in AccountUpdate) (store.Doc, error) {
	if p == nil {
		return store.Doc{}, fault.New(fault.Unauthorized, auth.MsgNotLoggedIn)
	}
	if !isGroupDB(id) || access.Check(ctx, s.st, p, id, access.Read) != nil {
		return store.Doc{}, missing()
	}
	if err := access.Check(ctx, s.st, p, id, access.Admin); err != nil {
		return store.Doc{}, err
	}
	fields := map[string][]string{}
	var name, billing string
	if in.Name != nil {
		var err error
		if name, err = cleanName("name", *in.Name); err != nil {
			fe, _ := fault.As(err)
			fields["name"] = fe.Fields["name"]
		}
	}
	if in.BillingEmail != nil {
		if billing = auth.NormEmail(*in.BillingEmail); !auth.ValidEmail(billing) {
			fields["billing_email"] = []string{fault.IsInvalid}
		}
	}
	if len(fields) > 0 {
		return store.Doc{}, fault.Invalid(fields)
	}
	a, err := s.loadAccount(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Doc{}, missing()
	}
	if err != nil {
		return store.Doc{}, err
	}
	if rev != a.Rev {
		return store.Doc{}, store.ErrConflict
	}
	body := a.Body
	if in.Name != nil {
		body["name"] = name
	}
	if in.BillingEmail != nil {
		body["billing_email"] = billing
	}
	saved, err := s.save(ctx, p, ids.AccountsDB, id, rev, body)
	if err != nil {
		return store.Doc{}, err
	}
	// The SPA reads the name and billing e-mail from the adjustments too.
	if in.Name != nil {
		s.syncSetting(ctx, p, id, "name", name)
		s.renameMemberships(ctx, p, id, name)
	}
	if in.BillingEmail != nil {
		s.syncSetting(ctx, p, id, "billing-email", billing)
	}
	return saved, nil
}

// syncSetting sets a default adjustment after its account field changed.
// Failures are logged: the record is what billing and access read.
func (s *Service) syncSetting(ctx context.Context, p *access.Principal, db, key string, value any) {
	id := adjustmentID(db, key)
	_, err := s.update(ctx, p, db, id, func(body map[string]any) error {
		body["value"] = value
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		_, err = s.save(ctx, p, db, id, "", map[string]any{"klass": KlassAdjustment, "key": key, "label": key, "value": value})
	}
	if err != nil {
		s.log.ErrorContext(ctx, "sync adjustment", "db", db, "key", key, "err", err)
	}
}

// syncAccountField sets an account record field after its adjustment changed.
func (s *Service) syncAccountField(ctx context.Context, p *access.Principal, accID, field string, value any) {
	_, err := s.update(ctx, p, ids.AccountsDB, accID, func(body map[string]any) error {
		body[field] = value
		return nil
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.ErrorContext(ctx, "sync account", "account", accID, "field", field, "err", err)
	}
}

// renameMemberships copies a new Group name into its memberships and their
// mirrors (the account switcher lists them by name).
func (s *Service) renameMemberships(ctx context.Context, p *access.Principal, accID, name string) {
	mems, err := s.memberships(ctx, accID)
	if err != nil {
		s.log.ErrorContext(ctx, "rename memberships", "account", accID, "err", err)
		return
	}
	for _, m := range mems {
		if str(m.body["name"]) == name {
			continue
		}
		rename := func(body map[string]any) error { body["name"] = name; return nil }
		if _, err := s.update(ctx, p, accID, m.id, rename); err != nil {
			s.log.ErrorContext(ctx, "rename membership", "account", accID, "membership", m.id, "err", err)
		}
		if uid, err := s.memberUserID(ctx, m.body); err == nil && uid != "" {
			if _, err := s.update(ctx, p, uid, m.id, rename); err != nil && !errors.Is(err, store.ErrNotFound) {
				s.log.ErrorContext(ctx, "rename mirror", "user", uid, "membership", m.id, "err", err)
			}
		}
	}
}

// setAdmin adds or removes userID in the account's admin_roles. The
// creator always stays.
func (s *Service) setAdmin(ctx context.Context, p *access.Principal, accID, userID string, on bool) error {
	_, err := s.update(ctx, p, ids.AccountsDB, accID, func(body map[string]any) error {
		var roles []string
		if l, ok := body["admin_roles"].([]any); ok {
			for _, v := range l {
				if s, ok := v.(string); ok {
					roles = append(roles, s)
				}
			}
		}
		has := slices.Contains(roles, userID)
		switch {
		case on && !has:
			roles = append(roles, userID)
		case !on && has && str(body["created_by_id"]) != userID:
			roles = slices.DeleteFunc(roles, func(r string) bool { return r == userID })
		default:
			return errUnchanged
		}
		body["admin_roles"] = roles
		return nil
	})
	if errors.Is(err, errUnchanged) || errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("admin roles of %s: %w", accID, err)
	}
	return nil
}

// errUnchanged stops an update that has nothing to write.
var errUnchanged = errors.New("unchanged")
