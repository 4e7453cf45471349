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
// the database's memory map and is valid only until fn returns. _find uses
// it to match thousands of documents without allocating them all.
func (s *Store) ScanKlass(ctx context.Context, db, klass string, fn func(store.Doc) error) error {
	prefix := klassPrefix(klass)
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		docs := b.Bucket(bucketDocs)
		c := b.Bucket(bucketKlass).Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			id, ok := cutTerm(k[len(prefix):])
			if !ok {
				return fmt.Errorf("klass index key %q: %w", k, errCorrupt)
			}
			raw, err := indexedDoc(docs, v, id)
			if err != nil {
				return err
			}
			h, err := parseDoc(raw)
			if err != nil {
				return fmt.Errorf("doc %q: %w", id, err)
			}
			body, err := h.plainBody()
			if err != nil {
				return fmt.Errorf("doc %q: %w", id, err)
			}
			d := store.Doc{ID: string(id), Rev: string(h.rev), Seq: h.seq, Klass: klass, Body: body}
			if err := fn(d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("bolt: scan %s/%s: %w", db, klass, err)
	}
	return nil
}
