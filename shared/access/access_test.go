package access

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
)

func TestDecide(t *testing.T) {
	user := &Principal{UserID: "usr-a", Roles: []string{"usr-a", "acc-1"}, Via: ViaSession}
	other := &Principal{UserID: "usr-b", Roles: []string{"usr-b"}, Via: ViaSession}
	admin := &Principal{UserID: "usr-c", Roles: []string{"usr-c", ServerAdminRole}, Via: ViaSession}
	readToken := &Principal{UserID: "usr-a", Roles: user.Roles, Via: ViaToken, TokenPerm: PermRead}
	rwToken := &Principal{UserID: "usr-a", Roles: user.Roles, Via: ViaToken, TokenPerm: PermReadWrite, TokenDBs: []string{"acc-1"}}

	group := Security{Admins: Names{Names: []string{"usr-owner"}}, Members: Names{Roles: []string{"acc-1"}}}
	public := Security{Admins: Names{Roles: []string{"_admin"}}}

	tests := []struct {
		name string
		p    *Principal
		db   string
		sec  Security
		op   Op
		want fault.Kind // -1 = allowed
	}{
		{"member reads", user, "acc-1", group, Read, -1},
		{"member writes", user, "acc-1", group, Write, -1},
		{"member cannot administer", user, "acc-1", group, Admin, fault.Forbidden},
		{"stranger cannot read", other, "acc-1", group, Read, fault.Forbidden},
		{"anonymous cannot read", nil, "acc-1", group, Read, fault.Unauthorized},
		{"server admin administers", admin, "acc-1", group, Admin, -1},
		{"public db readable by anyone", nil, "prices", public, Read, -1},
		{"public db not writable by users", other, "prices", public, Write, fault.Forbidden},
		{"read token cannot write", readToken, "acc-1", group, Write, fault.Forbidden},
		{"read token reads", readToken, "acc-1", group, Read, -1},
		{"token limited to listed dbs", rwToken, "usr-a", PersonalSecurity("usr-a"), Read, fault.Forbidden},
		{"rw token writes listed db", rwToken, "acc-1", group, Write, -1},
		{"owner of personal db", user, "usr-a", PersonalSecurity("usr-a"), Write, -1},
		{"other user's personal db", other, "usr-a", PersonalSecurity("usr-a"), Read, fault.Forbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Decide(tt.p, tt.db, tt.sec, tt.op)
			if tt.want == -1 {
				if err != nil {
					t.Fatalf("denied: %v", err)
				}
				return
			}
			fe, ok := fault.As(err)
			if !ok || fe.Kind != tt.want {
				t.Fatalf("err = %v, want kind %d", err, tt.want)
			}
		})
	}
}

// TestCheckGroupGrants: a Group's admin_roles count as admins, and a
// sub-group is open to its parent's members and administered by its
// parent's admins, on a real store.
func TestCheckGroupGrants(t *testing.T) {
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "access.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	parent, sub, plain := ids.New("acc"), ids.New("acc"), ids.New("acc")
	owner, listed, member, stranger := ids.New("usr"), ids.New("usr"), ids.New("usr"), ids.New("usr")
	if err := st.CreateDB(ctx, ids.AccountsDB); err != nil {
		t.Fatal(err)
	}
	for db, sec := range map[string]Security{
		parent: {Admins: Names{Names: []string{owner}}, Members: Names{Roles: []string{parent}}},
		sub:    {Admins: Names{Names: []string{owner}}, Members: Names{Roles: []string{sub}}},
		plain:  {Admins: Names{Names: []string{owner}}, Members: Names{Roles: []string{plain}}},
	} {
		if err := CreateDB(ctx, st, db, sec); err != nil {
			t.Fatal(err)
		}
	}
	put := func(id, body string) {
		if _, err := st.Put(ctx, ids.AccountsDB, store.Doc{ID: id, Klass: "Account", Body: []byte(body)}); err != nil {
			t.Fatal(err)
		}
	}
	put(parent, `{"admin_roles":["`+owner+`","`+listed+`"]}`)
	put(sub, `{"admin_roles":["`+owner+`"],"parent-account-id":"`+parent+`"}`)
	// plain has no account record: its _security alone decides.

	p := func(id string, roles ...string) *Principal {
		return &Principal{UserID: id, Roles: append([]string{id}, roles...), Via: ViaSession}
	}
	tests := []struct {
		name string
		p    *Principal
		db   string
		op   Op
		want fault.Kind // -1 = allowed
	}{
		{"admin_roles administer", p(listed, parent), parent, Admin, -1},
		{"admin_roles without the role still administer", p(listed), parent, Admin, -1},
		{"member is not admin", p(member, parent), parent, Admin, fault.Forbidden},
		{"parent member reads the sub-group", p(member, parent), sub, Read, -1},
		{"parent member writes the sub-group", p(member, parent), sub, Write, -1},
		{"parent member does not administer it", p(member, parent), sub, Admin, fault.Forbidden},
		{"parent admin_roles administer the sub-group", p(listed, parent), sub, Admin, -1},
		{"stranger", p(stranger), sub, Read, fault.Forbidden},
		{"sub-group member does not reach the parent", p(member, sub), parent, Read, fault.Forbidden},
		{"no record: security decides", p(listed, parent), plain, Read, fault.Forbidden},
		{"anonymous", nil, sub, Read, fault.Unauthorized},
		{"read token of a parent admin cannot administer", &Principal{UserID: listed, Roles: []string{listed, parent}, Via: ViaToken, TokenPerm: PermRead}, sub, Admin, fault.Forbidden},
		{"token limited elsewhere", &Principal{UserID: listed, Roles: []string{listed, parent}, Via: ViaToken, TokenPerm: PermReadWrite, TokenDBs: []string{parent}}, sub, Read, fault.Forbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(ctx, st, tt.p, tt.db, tt.op)
			if tt.want == -1 {
				if err != nil {
					t.Fatalf("denied: %v", err)
				}
				return
			}
			if fe, ok := fault.As(err); !ok || fe.Kind != tt.want {
				t.Fatalf("err = %v, want kind %d", err, tt.want)
			}
		})
	}
	eff, err := Effective(ctx, st, sub)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(eff.Admins.Names, listed) || !slices.Contains(eff.Members.Roles, parent) {
		t.Errorf("effective %+v", eff)
	}
	if err := DropSecurity(ctx, st, plain); err != nil {
		t.Fatal(err)
	}
	if err := Check(ctx, st, p(owner), plain, Read); err == nil {
		t.Error("a dropped _security still opens the db")
	}
}

// TestEmailNamesNeedAConfirmedAddress (issue 8, item 4).
func TestEmailNamesNeedAConfirmedAddress(t *testing.T) {
	sec := Security{Admins: Names{Names: []string{"usr-owner"}}, Members: Names{Names: []string{"bia@example.com"}}}
	unconfirmed := &Principal{UserID: "usr-b", Email: "bia@example.com", Roles: []string{"usr-b"}, Via: ViaSession}
	confirmed := *unconfirmed
	confirmed.EmailConfirmed = true
	if err := Decide(unconfirmed, "acc-1", sec, Read); err == nil {
		t.Error("an unconfirmed address matched a name")
	}
	if err := Decide(&confirmed, "acc-1", sec, Read); err != nil {
		t.Errorf("a confirmed address did not match: %v", err)
	}
}

func TestCheckSecurityChange(t *testing.T) {
	acc, usrA, usrB := ids.New("acc"), ids.New("usr"), ids.New("usr")
	group := Security{Admins: Names{Names: []string{usrA}}, Members: Names{Roles: []string{acc}}}
	public := Security{Admins: Names{Roles: []string{ServerAdminRole}}}
	tests := []struct {
		name      string
		db        string
		old, next Security
		ok        bool
	}{
		{"Group gains a member", acc, group, Security{Admins: group.Admins, Members: Names{Names: []string{usrB}, Roles: []string{acc}}}, true},
		{"Group gains an admin", acc, group, Security{Admins: Names{Names: []string{usrA, usrB}}, Members: group.Members}, true},
		{"Group opened", acc, group, Security{Admins: group.Admins}, false},
		{"Group role dropped", acc, group, Security{Admins: group.Admins, Members: Names{Names: []string{usrB}}}, false},
		{"Group admin dropped", acc, group, Security{Admins: Names{Names: []string{usrB}}, Members: group.Members}, false},
		{"personal kept", usrA, PersonalSecurity(usrA), PersonalSecurity(usrA), true},
		// Members by name only: the role must stay (a role holder is a member without a _security read).
		{"personal by name only", usrA, PersonalSecurity(usrA), Security{Admins: Names{Names: []string{usrA}}, Members: Names{Names: []string{usrA}}}, false},
		{"personal admin by name", usrA, PersonalSecurity(usrA), Security{Admins: Names{Names: []string{usrA}}, Members: Names{Roles: []string{usrA}}}, true},
		{"personal owner dropped from members", usrA, PersonalSecurity(usrA), Security{Admins: Names{Roles: []string{usrA}}, Members: Names{Roles: []string{acc}}}, false},
		{"public stays public", "prices", public, public, true},
		{"closed system db opened", "accounts", locked, Security{Admins: locked.Admins}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSecurityChange(tt.db, tt.old.normalized(), tt.next.normalized())
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok = %v", err, tt.ok)
			}
			if err != nil {
				if fe, ok := fault.As(err); !ok || fe.Kind != fault.BadRequest {
					t.Fatalf("err = %v, want a 400", err)
				}
			}
		})
	}
}

// counting counts the _security reads a Check makes.
type counting struct {
	store.Store
	reads int
}

func (c *counting) GetRecord(ctx context.Context, kind, key string) (store.Record, error) {
	if kind == securityKind {
		c.reads++
	}
	return c.Store.GetRecord(ctx, kind, key)
}

// TestCheckOwnRoleWithoutReading: a holder of a Group's or personal db's
// own role reads and writes it without Check reading _security, and every
// decision equals the one made from the stored _security (which always
// keeps that role: SaveSecurity refuses one that does not).
func TestCheckOwnRoleWithoutReading(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "a.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	acc, usr := ids.New("acc"), ids.New("usr")
	c := &counting{Store: st}
	if err := SaveSecurity(ctx, c, acc, Security{Admins: Names{Names: []string{"usr-owner"}}, Members: Names{Names: []string{"usr-guest"}}}); err == nil {
		t.Fatal("a Group _security without its role was saved")
	}
	if err := SaveSecurity(ctx, c, usr, Security{Admins: Names{Names: []string{usr}}, Members: Names{Names: []string{usr}}}); err == nil {
		t.Fatal("a personal _security without its role was saved")
	}
	if err := SaveSecurity(ctx, c, acc, Security{Admins: Names{Names: []string{"usr-owner"}}, Members: Names{Roles: []string{acc}, Names: []string{"usr-guest"}}}); err != nil {
		t.Fatal(err)
	}
	if err := SaveSecurity(ctx, c, usr, PersonalSecurity(usr)); err != nil {
		t.Fatal(err)
	}
	member := &Principal{UserID: "usr-m", Roles: []string{"usr-m", acc}, Via: ViaSession}
	owner := &Principal{UserID: usr, Roles: []string{usr}, Via: ViaSession}
	guest := &Principal{UserID: "usr-guest", Roles: []string{"usr-guest"}, Via: ViaSession}
	stranger := &Principal{UserID: "usr-s", Roles: []string{"usr-s"}, Via: ViaSession}
	readToken := &Principal{UserID: "usr-m", Roles: member.Roles, Via: ViaToken, TokenPerm: PermRead}
	otherDBToken := &Principal{UserID: "usr-m", Roles: member.Roles, Via: ViaToken, TokenPerm: PermReadWrite, TokenDBs: []string{usr}}
	for _, p := range []*Principal{member, owner, guest, stranger, readToken, otherDBToken, nil} {
		for _, db := range []string{acc, usr} {
			for _, op := range []Op{Read, Write, Admin} {
				sec, err := LoadSecurity(ctx, st, db)
				if err != nil {
					t.Fatal(err)
				}
				want := Decide(p, db, sec, op)
				c.reads = 0
				got := Check(ctx, c, p, db, op)
				if (got == nil) != (want == nil) || (got != nil && got.Error() != want.Error()) {
					t.Fatalf("%v on %s op %d: Check %v, from _security %v", p, db, op, got, want)
				}
				if fast := p != nil && p.HasRole(db) && op != Admin; fast != (c.reads == 0) {
					t.Fatalf("%v on %s op %d: %d _security reads", p, db, op, c.reads)
				}
			}
		}
	}
}
