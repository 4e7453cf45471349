package auth

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// faulty fails the next user-document write, or the next sign-in record
// write that sets a copy back to not pending, as a crash between the steps
// of a user write would.
type faulty struct {
	store.Store
	failUserPut   atomic.Bool
	failCopyAfter atomic.Bool
}

var errCrash = errors.New("crash")

func (f *faulty) Put(ctx context.Context, db string, d store.Doc) (store.Doc, error) {
	if db == ids.UsersDB && f.failUserPut.CompareAndSwap(true, false) {
		return store.Doc{}, errCrash
	}
	return f.Store.Put(ctx, db, d)
}

func (f *faulty) Transact(ctx context.Context, ws []store.RecordWrite) error {
	if len(ws) == 1 && ws[0].Kind == kindSignin && !containsPending(ws[0].Value) && containsPending(ws[0].Expect) &&
		f.failCopyAfter.CompareAndSwap(true, false) {
		return errCrash
	}
	return f.Store.Transact(ctx, ws)
}

// containsPending reports a stored sign-in record marked pending.
func containsPending(b []byte) bool { return bytes.Contains(b, []byte(`"pending":`)) }

func faultyEnv(t *testing.T) (*env, *faulty) {
	e := newEnv(t)
	f := &faulty{Store: e.st}
	e.svc.store = f
	return e, f
}

// roles returns the Group roles of the principal a session cookie resolves
// to, and of the user document.
func roles(t *testing.T, e *env, cookie, userID string) (session, document []string) {
	t.Helper()
	p, err := e.svc.SessionPrincipal(context.Background(), cookie)
	if err != nil || p == nil {
		t.Fatalf("session: %v %v", p, err)
	}
	u, err := e.svc.loadUser(context.Background(), userID)
	if err != nil {
		t.Fatal(err)
	}
	return p.Roles[1:], e.svc.principal(u, 0).Roles[1:]
}

// TestSigninCopyNeverLooser: a user write that fails half-way leaves the
// sign-in copy stricter than the document, never looser: a removed role is
// gone from the session before the document write, and a role being added
// only appears after it.
func TestSigninCopyNeverLooser(t *testing.T) {
	e, f := faultyEnv(t)
	ctx := context.Background()
	u := e.register(t, "ana@example.com", "password1")
	sess, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := ids.New("acc"), ids.New("acc")
	if err := e.svc.AddRole(ctx, u.ID, a); err != nil {
		t.Fatal(err)
	}
	if s, d := roles(t, e, sess.Secret, u.ID); !slices.Equal(s, []string{a}) || !slices.Equal(d, []string{a}) {
		t.Fatalf("after AddRole: session %v, document %v", s, d)
	}

	// Removing a: the document write fails after step 1.
	f.failUserPut.Store(true)
	if err := e.svc.RemoveRole(ctx, u.ID, a); err == nil {
		t.Fatal("RemoveRole succeeded through a failed write")
	}
	if s, d := roles(t, e, sess.Secret, u.ID); len(s) != 0 || !slices.Equal(d, []string{a}) {
		t.Fatalf("failed removal: session %v (want none), document %v", s, d)
	}

	// Adding b: the document is written, the last step fails.
	f.failCopyAfter.Store(true)
	if err := e.svc.AddRole(ctx, u.ID, b); err != nil {
		t.Fatal(err)
	}
	if s, d := roles(t, e, sess.Secret, u.ID); len(s) != 0 || !slices.Contains(d, b) {
		t.Fatalf("half-finished add: session %v (want none), document %v", s, d)
	}

	// A sign-in while the write may still be under way leaves the copy as
	// it is; once it cannot be, a sign-in copies the document.
	again, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := roles(t, e, again.Secret, u.ID); len(s) != 0 {
		t.Fatalf("sign-in during a pending write: session %v", s)
	}
	e.clock.Advance(pendingFor + 1)
	if _, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"}); err != nil {
		t.Fatal(err)
	}
	if s, d := roles(t, e, sess.Secret, u.ID); !slices.Equal(s, d) || len(d) != 2 {
		t.Fatalf("after a later sign-in: session %v, document %v", s, d)
	}
}

// TestSigninConcurrentWrites: however user writes interleave, the copy
// ends no looser than the document, and a quiet write makes them equal.
func TestSigninConcurrentWrites(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	u := e.register(t, "ana@example.com", "password1")
	sess, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
	if err != nil {
		t.Fatal(err)
	}
	groups := make([]string, 8)
	for i := range groups {
		groups[i] = ids.New("acc")
	}
	var wg sync.WaitGroup
	for i, g := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				_ = e.svc.AddRole(ctx, u.ID, g)
				if i%2 == 0 {
					_ = e.svc.RemoveRole(ctx, u.ID, g)
				}
			}
		}()
	}
	wg.Wait()
	s, d := roles(t, e, sess.Secret, u.ID)
	for _, r := range s {
		if !slices.Contains(d, r) {
			t.Fatalf("session role %s not in the document (%v)", r, d)
		}
	}
	if err := e.svc.SetPreferences(ctx, u.ID, nil, nil); err != nil {
		t.Fatal(err)
	}
	// A write with nothing to change may not reach the copy; the sign-in does.
	e.clock.Advance(pendingFor + 1)
	if _, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"}); err != nil {
		t.Fatal(err)
	}
	if s, d := roles(t, e, sess.Secret, u.ID); !slices.Equal(s, d) {
		t.Fatalf("after quiet: session %v, document %v", s, d)
	}
}

// TestSessionsEnd: a logout ends that session only; a user keeps at most
// maxSessions, the oldest ending first; a cookie of another user's id, or
// of the format before the sign-in record, signs nobody in.
func TestSessionsEnd(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	u := e.register(t, "ana@example.com", "password1")
	other := e.register(t, "bia@example.com", "password1")
	var cookies []string
	for range maxSessions + 1 {
		s, err := e.svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
		if err != nil {
			t.Fatal(err)
		}
		cookies = append(cookies, s.Secret)
	}
	signedIn := func(c string) bool {
		p, err := e.svc.SessionPrincipal(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		return p != nil && p.UserID == u.ID
	}
	if signedIn(cookies[0]) || !signedIn(cookies[1]) || !signedIn(cookies[maxSessions]) {
		t.Fatalf("after %d sign-ins the oldest should end, the others not", maxSessions+1)
	}
	if err := e.svc.Logout(ctx, cookies[1]); err != nil {
		t.Fatal(err)
	}
	if signedIn(cookies[1]) || !signedIn(cookies[2]) {
		t.Fatal("logout ended the wrong sessions")
	}
	_, secret, _ := parseCookie(cookies[2])
	for _, c := range []string{other.ID + ":" + secret, secret, "usr-x:" + secret, u.ID + ":"} {
		if p, err := e.svc.SessionPrincipal(ctx, c); p != nil || err != nil {
			t.Fatalf("cookie %q signed in as %v (%v)", c, p, err)
		}
	}
}
