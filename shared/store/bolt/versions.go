package bolt

import (
	"sync"
	"sync/atomic"

	"github.com/oficina/oficina/shared/store"
)

var _ store.Versions = (*Store)(nil)

// versions counts the committed writes per database and per record kind
// (store.Versions). Every write of the file goes through this Store (bbolt
// holds the file locked), so the counts see every change. A write method
// bumps them after its commit, so a reader that takes the version before
// reading never keeps data older than the version it holds.
type versions struct {
	m      sync.Map      // "d\x00"+db or "r\x00"+kind → *atomic.Uint64
	sweeps atomic.Uint64 // expired records removed: any kind may have changed
}

func (v *versions) counter(key string) *atomic.Uint64 {
	if c, ok := v.m.Load(key); ok {
		return c.(*atomic.Uint64)
	}
	c, _ := v.m.LoadOrStore(key, new(atomic.Uint64))
	return c.(*atomic.Uint64)
}

func (v *versions) docs(db string)      { v.counter("d\x00" + db).Add(1) }
func (v *versions) records(kind string) { v.counter("r\x00" + kind).Add(1) }

func (v *versions) recordWrites(ws []store.RecordWrite) {
	for _, w := range ws {
		v.records(w.Kind)
	}
}

// DocsVersion implements store.Versions.
func (s *Store) DocsVersion(db string) uint64 { return s.versions.counter("d\x00" + db).Load() }

// RecordsVersion implements store.Versions.
func (s *Store) RecordsVersion(kind string) uint64 {
	return s.versions.counter("r\x00"+kind).Load() + s.versions.sweeps.Load()
}
