package accounts

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// TestLifecycle runs a Group's life through the service and the write path
// on both stores: create, invite (client write), register-later mirroring,
// accept, update, remove, configuration and tokens.
func TestLifecycle(t *testing.T) {
	for name, open := range map[string]func(*testing.T) store.Store{"bolt": openBolt, "dynamo": openDynamo} {
		t.Run(name, func(t *testing.T) { lifecycle(t, newEnvOn(t, open(t), nil)) })
	}
}

func lifecycle(t *testing.T, e *env) {
	ctx := context.Background()
	ana := e.user("ana@example.com")

	acc, err := e.svc.CreateGroup(ctx, ana(), NewGroup{Name: "Both stores"})
	if err != nil {
		t.Fatal(err)
	}
	db := acc.ID
	if !ana().HasRole(db) {
		t.Fatal("no role")
	}
	if plan, _ := e.svc.Plan(ctx, db); plan != PlanFree {
		t.Fatalf("plan %q", plan)
	}
	_, rec, err := e.svc.Account(ctx, ana(), db)
	if err != nil || rec["name"] != "Both stores" {
		t.Fatalf("account %v %v", rec, err)
	}

	// Ana's e-mail is unconfirmed: no invitations yet.
	inv := ids.New("mem")
	_, err = e.docs.Save(ctx, ana(), db, inv, "", map[string]any{"klass": KlassMembership, "email": "bia@example.com"})
	wantFault(t, err, fault.Forbidden, fault.MsgConfirmEmailFirst)
	e.confirm(t, "ana@example.com")

	if _, err := e.docs.Save(ctx, ana(), db, inv, "", map[string]any{"klass": KlassMembership, "email": "bia@example.com"}); err != nil {
		t.Fatal(err)
	}
	if m := e.mail.last(t, "bia@example.com"); m.Tag != "invite" || !strings.Contains(m.Subject, "Both stores") {
		t.Errorf("invitation mail %+v", m)
	}
	// Bia registers later: the invitation shows in her db once she
	// confirms the address, not before.
	bia := e.user("bia@example.com")
	if _, _, err := e.svc.get(ctx, bia().UserID, inv); err == nil {
		t.Fatal("mirrored to an unconfirmed address")
	}
	_, err = e.svc.Accept(ctx, bia(), db, inv)
	wantFault(t, err, fault.Forbidden, MsgConfirmFirst)
	e.confirm(t, "bia@example.com")
	if _, m, err := e.svc.get(ctx, bia().UserID, inv); err != nil || m["status"] != StatusPending {
		t.Fatalf("mirror %v %v", m, err)
	}
	if _, err := e.svc.Accept(ctx, ana(), db, inv); err == nil {
		t.Fatal("accepted by someone else")
	}
	if _, err := e.svc.Accept(ctx, bia(), db, inv); err != nil {
		t.Fatal(err)
	}
	if !bia().HasRole(db) || access.Check(ctx, e.st, bia(), db, access.Write) != nil {
		t.Fatal("no access after accept")
	}
	if _, err := e.svc.Bookmark(ctx, bia(), bia().UserID, inv, true); err != nil {
		t.Fatal(err)
	}

	// Configuration: admins only.
	adj := adjustmentID(db, "maintenance")
	d, _, _ := e.svc.get(ctx, db, adj)
	_, err = e.docs.Save(ctx, bia(), db, adj, d.Rev, map[string]any{"key": "maintenance", "value": "enabled"})
	wantFault(t, err, fault.Forbidden, fault.MsgPermissionDenied)
	if _, err := e.docs.Save(ctx, ana(), db, adj, d.Rev, map[string]any{"key": "maintenance", "value": "enabled"}); err != nil {
		t.Fatal(err)
	}

	// Tokens.
	td, secret, err := e.svc.CreateToken(ctx, bia(), bia().UserID, TokenInput{Description: "ci", Permissions: access.PermRead, DBs: []string{db}})
	if err != nil {
		t.Fatal(err)
	}
	tp, err := e.auth.TokenPrincipal(ctx, secret)
	if err != nil || tp == nil || access.Check(ctx, e.st, tp, db, access.Read) != nil || access.Check(ctx, e.st, tp, db, access.Write) == nil {
		t.Fatalf("token principal %+v %v", tp, err)
	}
	if _, err := e.svc.RevokeToken(ctx, bia(), bia().UserID, td.ID); err != nil {
		t.Fatal(err)
	}
	if tp, err := e.auth.TokenPrincipal(ctx, secret); err != nil || tp != nil {
		t.Fatalf("revoked token still works: %v %v", tp, err)
	}

	// Removal: the role and the mirror go.
	d, _, _ = e.svc.get(ctx, db, inv)
	_, err = e.docs.Delete(ctx, bia(), db, inv, d.Rev)
	wantFault(t, err, fault.Forbidden, MsgOwnSubscription)
	if _, err := e.docs.Delete(ctx, ana(), db, inv, d.Rev); err != nil {
		t.Fatal(err)
	}
	if bia().HasRole(db) || access.Check(ctx, e.st, bia(), db, access.Read) == nil {
		t.Error("access after removal")
	}
	if _, _, err := e.svc.get(ctx, bia().UserID, inv); err == nil {
		t.Error("mirror left")
	}
	a, _ := e.svc.loadAccount(ctx, db)
	if slices.Contains(a.AdminRoles, bia().UserID) || !slices.Contains(a.AdminRoles, ana().UserID) {
		t.Errorf("admin_roles %v", a.AdminRoles)
	}
}

// confirm follows the confirmation link auth mailed to email.
func (e *env) confirm(t *testing.T, email string) {
	t.Helper()
	tok := e.mail.lastLink(t, email)
	if _, err := e.auth.Confirm(context.Background(), nil, tok); err != nil {
		t.Fatal(err)
	}
}
