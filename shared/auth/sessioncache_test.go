package auth

import (
	"context"
	"encoding/json"
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

// TestSessionCache: over the embedded store a session is read once and then
// served from the cache until something it was read from changes — a role
// written straight into the user document, a password change, a logout,
// any login — or it expires; the confirmation deadline is checked on every
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
	if _, _, reads := lookup(); reads != 3 {
		t.Fatalf("first lookup read %d times, want 3 (session, user, credential)", reads)
	}
	roles, _, reads := lookup()
	if reads != 0 || !slices.Equal(roles, []string{u.ID}) {
		t.Fatalf("second lookup: %d reads, roles %v", reads, roles)
	}

	// A role written into the user document by other code applies at once
	// (and the confirmation mail went out 29 days ago).
	acc := ids.New("acc")
	doc, _ := e.st.Get(ctx, ids.UsersDB, u.ID)
	var body map[string]any
	_ = json.Unmarshal(doc.Body, &body)
	body["roles"] = []string{acc}
	body["confirmation_sent_at"] = e.clock.Now().Add(-29 * 24 * time.Hour).UTC().Format(TimeLayout)
	doc.Body, _ = json.Marshal(body)
	if _, err := e.st.Put(ctx, ids.UsersDB, doc); err != nil {
		t.Fatal(err)
	}
	if roles, _, reads := lookup(); reads != 3 || !slices.Equal(roles, []string{u.ID, acc}) {
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
	if _, _, reads := lookup(); reads != 3 {
		t.Fatalf("after a login: %d reads", reads)
	}
	cred, err := svc.loadCredential(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	cred.SessionEpoch++
	if err := svc.saveCredential(ctx, u.ID, cred); err != nil {
		t.Fatal(err)
	}
	if roles, _, _ := lookup(); roles != nil {
		t.Fatal("a session from before the password change still resolves")
	}
	cred.SessionEpoch--
	if err := svc.saveCredential(ctx, u.ID, cred); err != nil {
		t.Fatal(err)
	}
	if roles, _, _ := lookup(); roles == nil {
		t.Fatal("the session is back with its epoch")
	}
	if err := svc.Logout(ctx, sess.Secret); err != nil {
		t.Fatal(err)
	}
	if roles, _, _ := lookup(); roles != nil {
		t.Fatal("a logged-out session still resolves")
	}

	// The session expires by the clock, cached or not.
	sess = other
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
