package bolt

import (
	"bytes"
	"context"
	"fmt"

	"go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
)

// ScanKlass calls fn for every live document of klass, in SortKey order,
// inside one read transaction and without copying: each Doc's Body aliases
// the database's memory map and is valid only until fn returns.
func (s *Store) ScanKlass(ctx context.Context, db, klass string, fn func(store.Doc) error) error {
	return s.ViewKlass(ctx, db, klass, func(next func() (store.Doc, bool, error)) error {
		for {
			d, ok, err := next()
			if err != nil || !ok {
				return err
			}
			if err := fn(d); err != nil {
				return err
			}
		}
	})
}

// ViewKlass runs fn inside one read transaction with an iterator over the
// live documents of klass in SortKey order (ok false at the end). The Docs
// are not copied: their bodies alias the database's memory map and stay
// valid until fn returns, so fn may hand them to other goroutines as long
// as it waits for them (_find matches thousands of documents on every core
// without allocating them). next must be called from one goroutine at a
// time.
func (s *Store) ViewKlass(ctx context.Context, db, klass string, fn func(next func() (store.Doc, bool, error)) error) error {
	prefix := klassPrefix(klass)
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		docs := b.Bucket(bucketDocs)
		c := b.Bucket(bucketKlass).Cursor()
		var k, v []byte
		started := false
		return fn(func() (store.Doc, bool, error) {
			if !started {
				k, v = c.Seek(prefix)
				started = true
			} else if k != nil {
				k, v = c.Next()
			}
			if k == nil || !bytes.HasPrefix(k, prefix) {
				k = nil
				return store.Doc{}, false, nil
			}
			id, ok := cutTerm(k[len(prefix):])
			if !ok {
				return store.Doc{}, false, fmt.Errorf("klass index key %q: %w", k, errCorrupt)
			}
			raw, err := indexedDoc(docs, v, id)
			if err != nil {
				return store.Doc{}, false, err
			}
			h, err := parseDoc(raw)
			if err != nil {
				return store.Doc{}, false, fmt.Errorf("doc %q: %w", id, err)
			}
			body, err := h.plainBody()
			if err != nil {
				return store.Doc{}, false, fmt.Errorf("doc %q: %w", id, err)
			}
			return store.Doc{ID: string(id), Rev: string(h.rev), Seq: h.seq, Klass: klass, Body: body}, true, nil
		})
	})
	if err != nil {
		return fmt.Errorf("bolt: scan %s/%s: %w", db, klass, err)
	}
	return nil
}
