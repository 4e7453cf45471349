package auth

import (
	"slices"
	"sync"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// maxCachedSessions bounds the session cache; past it the cache starts over.
const maxCachedSessions = 4096

// sessionCache keeps resolved session principals, so that a request does
// not read and decode the user's sign-in record again while it did not
// change. It exists only over a store that every write goes through
// in this process (store.Versions: the embedded store, whose file is
// locked): an entry is used while the versions of sign-in records and user
// documents are the ones read before it was filled, and until its
// session expires. Any login, logout, user change or password change moves
// one of them, and the next request reads again. On DynamoDB several
// processes write the same table and no process sees all their writes, so
// there is no cache and every request reads (SessionPrincipal's rule: role
// and password changes apply at once).
type sessionCache struct {
	st store.Versions

	mu      sync.RWMutex
	entries map[string]cachedSession
}

type cachedSession struct {
	p       *access.Principal
	expires time.Time // the session's end
	ver     sessionVersions
}

// sessionVersions are what a cached principal was read from.
type sessionVersions struct{ signins, users uint64 }

func newSessionCache(st store.Store) *sessionCache {
	v, ok := st.(store.Versions)
	if !ok {
		return nil
	}
	return &sessionCache{st: v, entries: map[string]cachedSession{}}
}

// versions reads the current versions; take them before reading the data.
func (c *sessionCache) versions() sessionVersions {
	return sessionVersions{
		signins: c.st.RecordsVersion(kindSignin),
		users:   c.st.DocsVersion(ids.UsersDB),
	}
}

// get returns a copy of the principal of session key when it is still
// good at now, its confirmation deadline checked against now.
func (c *sessionCache) get(key string, now time.Time) (*access.Principal, bool) {
	c.mu.RLock()
	e, ok := c.entries[key]
	c.mu.RUnlock()
	if !ok || !now.Before(e.expires) || e.ver != c.versions() {
		return nil, false
	}
	p := *e.p
	p.Roles = slices.Clone(e.p.Roles)
	if !p.ConfirmBy.IsZero() {
		p.ConfirmExpired = !now.Before(p.ConfirmBy)
	}
	return &p, true
}

// put keeps p, read at versions ver, until expires.
func (c *sessionCache) put(key string, p *access.Principal, expires time.Time, ver sessionVersions) {
	cp := *p
	cp.Roles = slices.Clone(p.Roles)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedSessions {
		clear(c.entries)
	}
	c.entries[key] = cachedSession{p: &cp, expires: expires, ver: ver}
}
