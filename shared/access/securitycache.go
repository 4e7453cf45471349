package access

import (
	"context"
	"slices"
	"sync"

	"github.com/oficina/oficina/shared/store"
)

// maxCachedSecurity bounds the cache; past it the cache starts over.
const maxCachedSecurity = 4096

// SecurityCache keeps decoded _security records for Check on the request
// path, where every request reads its database's. It exists only over a
// store that every write goes through in this process (store.Versions: the
// embedded store, whose file is locked), and an entry is used only while
// the version of the security records is the one read before it was
// filled: any SaveSecurity empties it for the next request. Over DynamoDB,
// whose table several processes write, NewSecurityCache returns nil and a
// nil cache reads every time, as LoadSecurity does.
type SecurityCache struct {
	st store.Store
	v  store.Versions

	mu      sync.RWMutex
	entries map[string]cachedSecurity
}

type cachedSecurity struct {
	sec     Security
	version uint64
}

// NewSecurityCache returns a cache over st, or nil when st cannot tell
// whether a record changed (store.Versions).
func NewSecurityCache(st store.Store) *SecurityCache {
	v, ok := st.(store.Versions)
	if !ok {
		return nil
	}
	return &SecurityCache{st: st, v: v, entries: map[string]cachedSecurity{}}
}

// Load is LoadSecurity, from the cache while db's security is unchanged.
func (c *SecurityCache) Load(ctx context.Context, st store.Store, db string) (Security, error) {
	if c == nil {
		return LoadSecurity(ctx, st, db)
	}
	version := c.v.RecordsVersion(securityKind)
	c.mu.RLock()
	e, ok := c.entries[db]
	c.mu.RUnlock()
	if ok && e.version == version {
		return e.sec.clone(), nil
	}
	sec, err := LoadSecurity(ctx, c.st, db)
	if err != nil {
		return Security{}, err
	}
	c.mu.Lock()
	if len(c.entries) >= maxCachedSecurity {
		clear(c.entries)
	}
	c.entries[db] = cachedSecurity{sec: sec.clone(), version: version}
	c.mu.Unlock()
	return sec, nil
}

// Check is access.Check with db's _security from the cache; a holder of
// the db's own role needs no _security at all (ownDB).
func (c *SecurityCache) Check(ctx context.Context, st store.Store, p *Principal, db string, op Op) error {
	if ownDB(p, db, op) {
		return tokenBounds(p, db, op)
	}
	sec, err := c.Load(ctx, st, db)
	if err != nil {
		return err
	}
	return decideWithGroups(ctx, st, p, db, sec, op)
}

func (s Security) clone() Security {
	return Security{
		Admins:  Names{Names: slices.Clone(s.Admins.Names), Roles: slices.Clone(s.Admins.Roles)},
		Members: Names{Names: slices.Clone(s.Members.Names), Roles: slices.Clone(s.Members.Roles)},
	}
}
