package auth

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/ids"
)

func TestDirectory(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var mu sync.Mutex
	var known []string
	e.svc.OnEmail(func(_ context.Context, u User) {
		mu.Lock()
		defer mu.Unlock()
		known = append(known, u.ID+" "+u.Email)
	})
	u := e.register(t, "Ana@Example.com", "password1")

	// Lookups without a principal.
	if got, ok, err := e.svc.UserByEmail(ctx, " ANA@example.COM "); err != nil || !ok || got.ID != u.ID {
		t.Errorf("by email: %v %v %v", got.ID, ok, err)
	}
	if _, ok, err := e.svc.UserByEmail(ctx, "nobody@example.com"); err != nil || ok {
		t.Errorf("unknown email: %v %v", ok, err)
	}
	if got, ok, err := e.svc.UserByID(ctx, u.ID); err != nil || !ok || got.Email != "ana@example.com" {
		t.Errorf("by id: %v %v", ok, err)
	}
	if _, ok, err := e.svc.UserByID(ctx, ids.New("usr")); err != nil || ok {
		t.Errorf("unknown id: %v %v", ok, err)
	}

	// Group roles reach the principal at once, and only Group roles are stored.
	acc := ids.New("acc")
	sess, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	roles := func() []string {
		p, err := e.svc.SessionPrincipal(ctx, sess.Secret)
		if err != nil || p == nil {
			t.Fatalf("session: %v", err)
		}
		return p.Roles
	}
	if err := e.svc.AddRole(ctx, u.ID, acc); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.AddRole(ctx, u.ID, acc); err != nil {
		t.Fatal(err)
	}
	if r := roles(); !slices.Contains(r, acc) || len(r) != 2 {
		t.Errorf("roles %v", r)
	}
	for _, bad := range []string{access.ServerAdminRole, u.ID, "acc-1"} {
		if err := e.svc.AddRole(ctx, u.ID, bad); err == nil {
			t.Errorf("AddRole(%q) accepted", bad)
		}
	}
	if err := e.svc.RemoveRole(ctx, u.ID, acc); err != nil {
		t.Fatal(err)
	}
	if r := roles(); slices.Contains(r, acc) {
		t.Errorf("role kept: %v", r)
	}
	if err := e.svc.RemoveRole(ctx, ids.New("usr"), acc); err != nil {
		t.Errorf("removing from nobody: %v", err)
	}

	// Preferences.
	pt, yes, fr := "pt-BR", true, "fr"
	if err := e.svc.SetPreferences(ctx, u.ID, &pt, &yes); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := e.svc.UserByID(ctx, u.ID); got.Locale != "pt-BR" || !got.Newsletter {
		t.Errorf("preferences %q %v", got.Locale, got.Newsletter)
	}
	if err := e.svc.SetPreferences(ctx, u.ID, &fr, nil); err == nil {
		t.Error("locale fr accepted")
	}

	// The hook saw the registration and sees the confirmation.
	if _, err := e.svc.Confirm(ctx, nil, tokenOf(t, e.mail.last(t))); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := u.ID + " ana@example.com"
	if len(known) != 2 || known[0] != want || known[1] != want {
		t.Errorf("hook calls %v", known)
	}
}
