package bolt

import (
	"context"
	"encoding/binary"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
)

// OutboxEntry is one committed change waiting for the change-stream
// consumer; the type lives in the port so that the consumer's drain does
// not depend on this package.
type OutboxEntry = store.OutboxEntry

var _ store.Outbox = (*Store)(nil)

// appendOutbox adds a change under the next global outbox key; called inside
// the document's own transaction so the two commit or roll back together.
func appendOutbox(tx *bbolt.Tx, change []byte) error {
	b := tx.Bucket(bucketOutbox)
	key, err := b.NextSequence()
	if err != nil {
		return err
	}
	return b.Put(u64(key), change)
}

// ReadOutbox returns up to max (<= 0: all) pending entries, oldest first.
// Entries stay until acknowledged, so a consumer that crashes mid-batch sees
// them again (at-least-once).
func (s *Store) ReadOutbox(ctx context.Context, max int) ([]OutboxEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []OutboxEntry
	err := s.view(func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketOutbox).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) != 8 {
				return fmt.Errorf("outbox key %x: %w", k, errCorrupt)
			}
			ch, err := decodeChange(v)
			if err != nil {
				return fmt.Errorf("outbox entry %x: %w", k, err)
			}
			out = append(out, OutboxEntry{Key: binary.BigEndian.Uint64(k), Change: ch})
			if max > 0 && len(out) == max {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AckOutbox removes processed entries; unknown keys are ignored, so acking
// twice is harmless.
func (s *Store) AckOutbox(ctx context.Context, keys []uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(keys) == 0 {
		return nil
	}
	return s.batch(func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketOutbox)
		for _, k := range keys {
			if err := b.Delete(u64(k)); err != nil {
				return err
			}
		}
		return nil
	})
}
