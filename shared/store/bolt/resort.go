package bolt

import (
	"context"
	"encoding/binary"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
)

// Resort implements store.Resorter: the live revision rev of id moves to
// sortKey in its klass index, in one transaction, with no new seq, no
// outbox entry and no log row.
func (s *Store) Resort(ctx context.Context, db, id, rev, sortKey string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if id == "" {
		return errEmptyID
	}
	var outcome error
	defer s.versions.docs(db)
	err := s.batch(func(tx *bbolt.Tx) error {
		outcome = nil
		b := dbBucket(tx, db)
		if b == nil {
			outcome = store.ErrDBNotFound
			return nil
		}
		docs, klass := b.Bucket(bucketDocs), b.Bucket(bucketKlass)
		raw := docs.Get([]byte(id))
		if raw == nil {
			outcome = store.ErrNotFound
			return nil
		}
		h, err := parseDoc(raw)
		if err != nil {
			return fmt.Errorf("doc %s/%s: %w", db, id, err)
		}
		switch {
		case h.deleted:
			outcome = store.ErrNotFound
			return nil
		case string(h.rev) != rev:
			outcome = store.ErrConflict
			return nil
		case len(h.klass) == 0:
			return nil // in no index
		case string(h.sortKey) == sortKey:
			return nil
		}
		k := store.Doc{ID: id, Klass: string(h.klass), SortKey: sortKey}
		if !keyFits(&k) {
			return errKeyTooBig
		}
		oldKey := klassKey(k.Klass, string(h.sortKey), id)
		newRaw := withSortKey(raw, h, sortKey)
		if err := docs.Put([]byte(id), newRaw); err != nil {
			return err
		}
		value := newRaw
		if h.packed {
			value = []byte{} // looked up, as putTx indexes it
		}
		if err := klass.Delete(oldKey); err != nil {
			return err
		}
		return klass.Put(klassKey(k.Klass, sortKey, id), value)
	})
	if err != nil {
		return err
	}
	return outcome
}

// withSortKey re-encodes a stored document with another sort key, its
// body (compressed or not) copied as it is.
func withSortKey(raw []byte, h docHeader, sortKey string) []byte {
	b := make([]byte, docFixedLen, len(raw)+len(sortKey))
	copy(b, raw[:docFixedLen])
	b = appendString(b, string(h.rev))
	b = appendString(b, string(h.klass))
	b = appendString(b, sortKey)
	if h.histSeq > 0 {
		b = binary.AppendUvarint(b, h.histSeq)
	}
	return append(b, h.body...)
}
