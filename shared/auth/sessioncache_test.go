package auth

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
)

// readCounter counts the reads a session lookup makes, keeping the
// embedded store's versions (so the cache stays on).
type readCounter struct {
	*bolt.Store
	reads int
}

func (r *readCounter) GetRecord(ctx context.Context, kind, key string) (store.Record, error) {
	r.reads++
	return r.Store.GetRecord(ctx, kind, key)
}

func (r *readCounter) Get(ctx context.Context, db, id string) (store.Doc, error) {
	r.reads++
	return r.Store.Get(ctx, db, id)
}

// TestSessionCache: over the embedded store a session's sign-in record is
// read once and then served from the cache until the record or the users
// database changes — a saved role, an ended session, a logout, any login —
// or the session expires; the confirmation deadline is checked on every
// request. Over a store without versions every request reads.
func TestSessionCache(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	counted := &readCounter{Store: e.st.(*bolt.Store)}
	svc := New(counted, e.mail, e.svc.cfg)
	u := e.register(t, "ana@example.com", "password1")
	sess, err := svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1", Remember: true})
	if err != nil {
		t.Fatal(err)
	}
	lookup := func() (roles []string, expired bool, reads int) {
		t.Helper()
		before := counted.reads
		p, err := svc.SessionPrincipal(ctx, sess.Secret)
		if err != nil {
			t.Fatal(err)
		}
		if p == nil {
			return nil, false, counted.reads - before
		}
		return p.Roles, p.ConfirmExpired, counted.reads - before
	}
	if _, _, reads := lookup(); reads != 1 {
		t.Fatalf("first lookup read %d times, want 1 (the sign-in record)", reads)
	}
	roles, _, reads := lookup()
	if reads != 0 || !slices.Equal(roles, []string{u.ID}) {
		t.Fatalf("second lookup: %d reads, roles %v", reads, roles)
	}

	// A role saved into the user document applies at once (and the
	// confirmation mail went out 29 days ago).
	acc := ids.New("acc")
	saved, err := svc.loadUser(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	saved.Roles = append(saved.Roles, acc)
	sent := e.clock.Now().Add(-29 * 24 * time.Hour).UTC().Format(TimeLayout)
	saved.ConfirmationSentAt = &sent
	if _, err := svc.saveUser(ctx, saved); err != nil {
		t.Fatal(err)
	}
	if roles, _, reads := lookup(); reads != 1 || !slices.Equal(roles, []string{u.ID, acc}) {
		t.Fatalf("after a role change: %d reads, roles %v", reads, roles)
	}

	// The confirmation deadline passes without any write.
	if _, expired, _ := lookup(); expired {
		t.Fatal("deadline passed a day early")
	}
	e.clock.Advance(25 * time.Hour)
	if _, expired, reads := lookup(); !expired || reads != 0 {
		t.Fatalf("past the deadline: expired %v after %d reads", expired, reads)
	}

	// Another login ends the cached entries; a password change (a new
	// session epoch) refuses the session from before it; so does a logout.
	other, err := svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1", Remember: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, reads := lookup(); reads != 1 {
		t.Fatalf("after a login: %d reads", reads)
	}
	// Ending one session (as a password change ends the others) refuses
	// it at once.
	_, otherSecret, _ := parseCookie(other.Secret)
	if _, err := svc.endSessions(ctx, u.ID, func(x signinSession) bool { return x.Hash != sessionHash(otherSecret) }); err != nil {
		t.Fatal(err)
	}
	if p, err := svc.SessionPrincipal(ctx, other.Secret); err != nil || p != nil {
		t.Fatalf("an ended session still resolves (%v)", err)
	}
	if err := svc.Logout(ctx, sess.Secret); err != nil {
		t.Fatal(err)
	}
	if roles, _, _ := lookup(); roles != nil {
		t.Fatal("a logged-out session still resolves")
	}

	// The session expires by the clock, cached or not.
	sess, err = svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1", Remember: true})
	if err != nil {
		t.Fatal(err)
	}
	lookup()
	e.clock.Advance(31 * 24 * time.Hour)
	if roles, _, _ := lookup(); roles != nil {
		t.Fatal("an expired session still resolves")
	}

	// Without versions there is no cache.
	svc2 := New(struct{ store.Store }{e.st}, e.mail, e.svc.cfg)
	if svc2.sessions != nil {
		t.Fatal("a cache over a store without versions")
	}
}
