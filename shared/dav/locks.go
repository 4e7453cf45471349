package dav

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/net/webdav"

	"github.com/oficina/oficina/shared/store"
)

// Locks are kept in the store, so they hold across processes (Lambda
// instances, or two local servers on one DynamoDB table): one record per
// Group (kind dav.locks, key the Group's db) holds its lock table, changed
// with compare-and-set, so of two instances locking one path exactly one
// wins. Expired locks are dropped on every change; the record itself
// expires with its last lock.
//
// The semantics are those of x/net/webdav's in-memory lock system: a lock
// covers its root, and, unless it has depth 0, everything under it; two
// locks never overlap. The handler's temporary locks (taken around a write
// that names no lock, to check that nobody else holds one) are checks
// only here: they are never written, so a crashed request leaves nothing.
// Unlike the in-memory system, a lock is not "held" for the length of a
// request: two requests presenting the same token may run at once.
const kindLocks = "dav.locks"

// Lock limits.
const (
	// MaxLockDuration caps a lock's timeout (an "Infinite" one included).
	MaxLockDuration = 24 * time.Hour
	// MaxLocks bounds one Group's lock table.
	MaxLocks = 1000
)

// ErrTooManyLocks refuses a lock past MaxLocks.
var ErrTooManyLocks = errors.New("dav: too many locks in this Group")

type lockEntry struct {
	Token     string    `json:"token"`
	Root      string    `json:"root"`
	ZeroDepth bool      `json:"zero_depth,omitempty"`
	Shared    bool      `json:"shared,omitempty"`
	Owner     string    `json:"owner,omitempty"`
	Duration  int64     `json:"duration"` // ns; -1: infinite (still expiring at MaxLockDuration)
	Expires   time.Time `json:"expires"`
}

type lockTable struct {
	Locks []lockEntry `json:"locks"`
}

// lockSystem is a webdav.LockSystem over one Group's lock record, for one
// request (the interface carries no context).
type lockSystem struct {
	st     store.Store
	db     string
	ctx    context.Context
	method string // LOCK creates real locks; any other method's are temporary
	fs     *fsys  // for the ETags of If headers
}

const tempToken = "urn:oficina:temporary"

func (l *lockSystem) read() (lockTable, []byte, error) {
	r, err := l.st.GetRecord(l.ctx, kindLocks, l.db)
	if errors.Is(err, store.ErrNotFound) {
		return lockTable{}, nil, nil
	}
	if err != nil {
		return lockTable{}, nil, fmt.Errorf("dav: read locks: %w", err)
	}
	var t lockTable
	if err := json.Unmarshal(r.Value, &t); err != nil {
		return lockTable{}, r.Value, nil // unreadable: start over
	}
	if r.Value == nil {
		r.Value = []byte{}
	}
	return t, r.Value, nil
}

// change applies fn to the current table and writes it back unless
// another writer changed it in between (then it starts over).
func (l *lockSystem) change(now time.Time, fn func(t *lockTable) error) error {
	for range 16 {
		t, old, err := l.read()
		if err != nil {
			return err
		}
		t.prune(now)
		if err := fn(&t); err != nil {
			return err
		}
		w := store.SwapWrite(kindLocks, l.db, nil, old)
		if len(t.Locks) == 0 {
			if old == nil {
				return nil
			}
			w.Delete = true
		} else {
			raw, err := json.Marshal(t)
			if err != nil {
				return err
			}
			w.Value = raw
			for _, e := range t.Locks {
				if e.Expires.After(w.ExpiresAt) {
					w.ExpiresAt = e.Expires
				}
			}
		}
		err = l.st.Transact(l.ctx, []store.RecordWrite{w})
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrExists) {
			continue
		}
		if err != nil {
			return fmt.Errorf("dav: write locks: %w", err)
		}
		return nil
	}
	return fmt.Errorf("dav: write locks: %w", store.ErrConflict)
}

func (t *lockTable) prune(now time.Time) {
	kept := t.Locks[:0]
	for _, e := range t.Locks {
		if now.Before(e.Expires) {
			kept = append(kept, e)
		}
	}
	t.Locks = kept
}

func (t *lockTable) byToken(token string) int {
	for i, e := range t.Locks {
		if e.Token == token {
			return i
		}
	}
	return -1
}

// under reports whether name is root or below it.
func under(name, root string) bool {
	return name == root || root == "/" || strings.HasPrefix(name, root+"/")
}

// canCreate: a new lock at name conflicts with a lock at name, with a
// lock of infinite depth above it and, when the new one is of infinite
// depth, with any lock below it — unless both are shared.
func (t *lockTable) canCreate(name string, zeroDepth, shared bool) bool {
	for _, e := range t.Locks {
		switch {
		case shared && e.Shared:
		case e.Root == name:
			return false
		case !e.ZeroDepth && under(name, e.Root):
			return false
		case !zeroDepth && under(e.Root, name):
			return false
		}
	}
	return true
}

func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return "opaquelocktoken:" + h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func expiry(now time.Time, d time.Duration) time.Time {
	if d < 0 || d > MaxLockDuration {
		d = MaxLockDuration
	}
	return now.Add(d)
}

// Confirm evaluates one list of an If header (RFC 4918 §10.4): every
// condition must hold for the resource it is about (name0, else name1): a
// lock token, that it names a lock covering the resource; an entity tag,
// that it is the resource's current ETag; "Not" inverts. And each of
// name0 and name1 that a lock covers needs one of the list's tokens.
func (l *lockSystem) Confirm(now time.Time, name0, name1 string, conditions ...webdav.Condition) (func(), error) {
	t, _, err := l.read()
	if err != nil {
		return nil, err
	}
	t.prune(now)
	subject := name0
	if subject == "" {
		subject = name1
	}
	subject = clean(subject)
	for _, c := range conditions {
		var ok bool
		if c.ETag != "" {
			ok = l.etag(subject) == strings.TrimPrefix(c.ETag, "W/")
		} else {
			ok = t.covers(c.Token, subject)
		}
		if ok == c.Not {
			return nil, webdav.ErrConfirmationFailed
		}
	}
	for _, name := range []string{name0, name1} {
		if name == "" {
			continue
		}
		if name = clean(name); t.locked(name) && !t.matches(name, conditions) {
			if l.fs != nil {
				l.fs.req.setLocked()
			}
			return nil, webdav.ErrConfirmationFailed
		}
	}
	return func() {}, nil
}

// etag is the current ETag of name ("" when it does not exist).
func (l *lockSystem) etag(name string) string {
	if l.fs == nil {
		return ""
	}
	fi, err := l.fs.Stat(l.ctx, name)
	if err != nil {
		return ""
	}
	tag, _ := fi.(info).ETag(l.ctx)
	return tag
}

// covers reports whether token names a lock covering name.
func (t *lockTable) covers(token, name string) bool {
	i := t.byToken(token)
	if i < 0 {
		return false
	}
	e := t.Locks[i]
	return name == e.Root || (!e.ZeroDepth && under(name, e.Root))
}

// locked reports whether a lock covers name.
func (t *lockTable) locked(name string) bool {
	for _, e := range t.Locks {
		if name == e.Root || (!e.ZeroDepth && under(name, e.Root)) {
			return true
		}
	}
	return false
}

// matches reports whether one of the conditions names a lock covering name.
func (t *lockTable) matches(name string, conditions []webdav.Condition) bool {
	for _, c := range conditions {
		if !c.Not && c.ETag == "" && t.covers(c.Token, name) {
			return true
		}
	}
	return false
}

func (l *lockSystem) Create(now time.Time, d webdav.LockDetails) (string, error) {
	root := clean(d.Root)
	if l.method != "LOCK" {
		// A temporary lock: only check that nobody holds one.
		t, _, err := l.read()
		if err != nil {
			return "", err
		}
		t.prune(now)
		if !t.canCreate(root, d.ZeroDepth, false) {
			return "", webdav.ErrLocked
		}
		return tempToken, nil
	}
	return l.create(now, d, false)
}

// create takes a lock (shared or exclusive) and returns its token.
func (l *lockSystem) create(now time.Time, d webdav.LockDetails, shared bool) (string, error) {
	root := clean(d.Root)
	token := newToken()
	err := l.change(now, func(t *lockTable) error {
		if !t.canCreate(root, d.ZeroDepth, shared) {
			return webdav.ErrLocked
		}
		if len(t.Locks) >= MaxLocks {
			return ErrTooManyLocks
		}
		t.Locks = append(t.Locks, lockEntry{
			Token: token, Root: root, ZeroDepth: d.ZeroDepth, Shared: shared, Owner: d.OwnerXML,
			Duration: int64(d.Duration), Expires: expiry(now, d.Duration),
		})
		return nil
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

func (l *lockSystem) Refresh(now time.Time, token string, d time.Duration) (webdav.LockDetails, error) {
	e, err := l.refresh(now, token, d)
	return webdav.LockDetails{Root: e.Root, Duration: d, OwnerXML: e.Owner, ZeroDepth: e.ZeroDepth}, err
}

func (l *lockSystem) refresh(now time.Time, token string, d time.Duration) (lockEntry, error) {
	var out lockEntry
	err := l.change(now, func(t *lockTable) error {
		i := t.byToken(token)
		if i < 0 {
			return webdav.ErrNoSuchLock
		}
		e := &t.Locks[i]
		e.Duration, e.Expires = int64(d), expiry(now, d)
		out = *e
		return nil
	})
	return out, err
}

func (l *lockSystem) Unlock(now time.Time, token string) error {
	if token == tempToken {
		return nil
	}
	return l.change(now, func(t *lockTable) error {
		i := t.byToken(token)
		if i < 0 {
			return webdav.ErrNoSuchLock
		}
		t.Locks = append(t.Locks[:i], t.Locks[i+1:]...)
		return nil
	})
}
