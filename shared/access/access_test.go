package access

import (
	"testing"

	"github.com/oficina/oficina/shared/fault"
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
