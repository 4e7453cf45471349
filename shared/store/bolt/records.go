package bolt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
)

// sweepChunk bounds one Sweep transaction so a large backlog of expired
// records never holds the writer lock for long.
const sweepChunk = 1000

var (
	errNotCounter = errors.New("bolt: record is not a counter")
	errRecordKey  = errors.New("bolt: record kind and key too long")
)

// recordKeyFits mirrors keyFits for records (the expiry index adds 8 bytes).
func recordKeyFits(kind, key string) bool {
	return 2*len(kind)+len(key)+2+8 <= bbolt.MaxKeySize
}

// live reports whether a stored record exists and has not expired at now.
func live(v []byte, now int64) bool {
	if v == nil {
		return false
	}
	exp := recordExpiry(v)
	return exp == 0 || exp > now
}

// putRecordTx writes a record and keeps the expiry index in step with it.
func putRecordTx(tx *bbolt.Tx, rk []byte, old []byte, exp int64, value []byte) error {
	if err := dropExpiryTx(tx, rk, old); err != nil {
		return err
	}
	if err := tx.Bucket(bucketRecords).Put(rk, encodeRecord(exp, value)); err != nil {
		return err
	}
	if exp != 0 {
		return tx.Bucket(bucketExpiry).Put(expiryKey(exp, rk), nil)
	}
	return nil
}

func deleteRecordTx(tx *bbolt.Tx, rk []byte, old []byte) error {
	if old == nil {
		return nil
	}
	if err := dropExpiryTx(tx, rk, old); err != nil {
		return err
	}
	return tx.Bucket(bucketRecords).Delete(rk)
}

// dropExpiryTx removes the expiry index entry of the stored value old.
func dropExpiryTx(tx *bbolt.Tx, rk []byte, old []byte) error {
	if old == nil {
		return nil
	}
	if exp := recordExpiry(old); exp != 0 {
		return tx.Bucket(bucketExpiry).Delete(expiryKey(exp, rk))
	}
	return nil
}

// PutRecord implements store.Store.
func (s *Store) PutRecord(ctx context.Context, r store.Record, ifAbsent bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !recordKeyFits(r.Kind, r.Key) {
		return errRecordKey
	}
	rk := recordKey(r.Kind, r.Key)
	exp := expiryNanos(r.ExpiresAt)
	var outcome error
	defer s.versions.records(r.Kind)
	err := s.batch(func(tx *bbolt.Tx) error {
		outcome = nil
		old := bytes.Clone(tx.Bucket(bucketRecords).Get(rk))
		if ifAbsent && live(old, time.Now().UnixNano()) {
			outcome = store.ErrExists
			return nil
		}
		return putRecordTx(tx, rk, old, exp, r.Value)
	})
	if err != nil {
		return err
	}
	return outcome
}

// GetRecord implements store.Store.
func (s *Store) GetRecord(ctx context.Context, kind, key string) (store.Record, error) {
	if err := ctx.Err(); err != nil {
		return store.Record{}, err
	}
	rk := recordKey(kind, key)
	r := store.Record{Kind: kind, Key: key}
	found := false
	err := s.view(func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketRecords).Get(rk)
		if !live(v, time.Now().UnixNano()) {
			return nil
		}
		found = true
		r.Value = bytes.Clone(recordValue(v))
		r.ExpiresAt = expiryTime(recordExpiry(v))
		return nil
	})
	if err != nil {
		return store.Record{}, err
	}
	if !found {
		return store.Record{}, store.ErrNotFound
	}
	return r, nil
}

// TakeRecord implements store.Store. Writes are serialized, so of two
// takers in the same or different transactions only the first sees it.
func (s *Store) TakeRecord(ctx context.Context, kind, key string) (store.Record, error) {
	if err := ctx.Err(); err != nil {
		return store.Record{}, err
	}
	rk := recordKey(kind, key)
	var (
		r     store.Record
		found bool
	)
	defer s.versions.records(kind)
	err := s.batch(func(tx *bbolt.Tx) error {
		r, found = store.Record{Kind: kind, Key: key}, false
		old := bytes.Clone(tx.Bucket(bucketRecords).Get(rk))
		if !live(old, time.Now().UnixNano()) {
			// An expired record is removed all the same: it is garbage.
			return deleteRecordTx(tx, rk, old)
		}
		found = true
		r.Value = recordValue(old)
		r.ExpiresAt = expiryTime(recordExpiry(old))
		return deleteRecordTx(tx, rk, old)
	})
	if err != nil {
		return store.Record{}, err
	}
	if !found {
		return store.Record{}, store.ErrNotFound
	}
	return r, nil
}

// DeleteRecord implements store.Store.
func (s *Store) DeleteRecord(ctx context.Context, kind, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rk := recordKey(kind, key)
	defer s.versions.records(kind)
	return s.batch(func(tx *bbolt.Tx) error {
		return deleteRecordTx(tx, rk, bytes.Clone(tx.Bucket(bucketRecords).Get(rk)))
	})
}

// Incr implements store.Store. The counter is stored as a decimal string,
// so GetRecord reads it the same way on every backend.
func (s *Store) Incr(ctx context.Context, kind, key string, delta int64, ttl time.Duration) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if !recordKeyFits(kind, key) {
		return 0, errRecordKey
	}
	rk := recordKey(kind, key)
	var (
		n       int64
		outcome error
	)
	defer s.versions.records(kind)
	err := s.batch(func(tx *bbolt.Tx) error {
		var err error
		n, outcome, err = incrTx(tx, rk, delta, ttl)
		return err
	})
	if err != nil {
		return 0, err
	}
	if outcome != nil {
		return 0, fmt.Errorf("%s/%s: %w", kind, key, outcome)
	}
	return n, nil
}

// incrTx is Incr inside a transaction: the new value, or an outcome
// (errNotCounter), or an I/O error.
func incrTx(tx *bbolt.Tx, rk []byte, delta int64, ttl time.Duration) (n int64, outcome, err error) {
	now := time.Now()
	old := bytes.Clone(tx.Bucket(bucketRecords).Get(rk))
	var exp int64
	if live(old, now.UnixNano()) {
		cur, err := strconv.ParseInt(string(recordValue(old)), 10, 64)
		if err != nil {
			return 0, errNotCounter, nil
		}
		n, exp = cur+delta, recordExpiry(old)
	} else {
		n = delta
		if ttl > 0 {
			exp = expiryNanos(now.Add(ttl))
		}
	}
	return n, nil, putRecordTx(tx, rk, old, exp, strconv.AppendInt(nil, n, 10))
}

// Sweep deletes expired records and returns how many it removed. Reads
// already treat expired records as absent; this only reclaims space, so the
// server runs it periodically.
func (s *Store) Sweep(ctx context.Context) (int, error) {
	total := 0
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		var n int
		now := time.Now().UnixNano()
		err := s.batch(func(tx *bbolt.Tx) error {
			n = 0
			// Collect first: deleting under a cursor can make Next skip keys.
			var due [][]byte
			c := tx.Bucket(bucketExpiry).Cursor()
			for k, _ := c.First(); k != nil && len(due) < sweepChunk; k, _ = c.Next() {
				if len(k) < 8 {
					return fmt.Errorf("expiry key %x: %w", k, errCorrupt)
				}
				if recordExpiry(k) > now {
					break
				}
				due = append(due, bytes.Clone(k))
			}
			recs, idx := tx.Bucket(bucketRecords), tx.Bucket(bucketExpiry)
			for _, k := range due {
				if err := idx.Delete(k); err != nil {
					return err
				}
				// Only delete the record if its stored expiry is the indexed one.
				rk := k[8:]
				if v := recs.Get(rk); v != nil && recordExpiry(v) == recordExpiry(k) {
					if err := recs.Delete(rk); err != nil {
						return err
					}
				}
			}
			n = len(due)
			return nil
		})
		if n > 0 {
			s.versions.sweeps.Add(1)
		}
		if err != nil {
			return total, err
		}
		total += n
		if n < sweepChunk {
			if total > 0 {
				s.log.Debug("swept expired records", "count", total)
			}
			return total, nil
		}
	}
}

// Transact implements store.Store: the conditions are checked and the
// writes applied in one coalesced transaction. Every condition is checked
// before anything is written, so a conflict leaves the transaction
// untouched (it still commits the other writers of the batch), and a
// rerun of fn starts from scratch.
func (s *Store) Transact(ctx context.Context, writes []store.RecordWrite) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := store.CheckTransact(writes); err != nil {
		return err
	}
	if len(writes) == 0 {
		return nil
	}
	rks, err := recordKeys(writes)
	if err != nil {
		return err
	}
	var outcome error
	defer s.versions.recordWrites(writes)
	err = s.batch(func(tx *bbolt.Tx) error {
		outcome = nil
		olds, ok := checkRecordsTx(tx, writes, rks)
		if !ok {
			outcome = store.ErrConflict
			return nil
		}
		return writeRecordsTx(tx, writes, rks, olds)
	})
	if err != nil {
		return err
	}
	return outcome
}

// recordKeys checks and encodes the keys of writes, before a transaction.
func recordKeys(writes []store.RecordWrite) ([][]byte, error) {
	rks := make([][]byte, len(writes))
	for i, w := range writes {
		if !recordKeyFits(w.Kind, w.Key) {
			return nil, errRecordKey
		}
		rks[i] = recordKey(w.Kind, w.Key)
	}
	return rks, nil
}

// checkRecordsTx checks the conditions of writes (keys rks) and returns
// the stored values they replace; ok is false when a condition fails.
func checkRecordsTx(tx *bbolt.Tx, writes []store.RecordWrite, rks [][]byte) (olds [][]byte, ok bool) {
	recs := tx.Bucket(bucketRecords)
	now := time.Now().UnixNano()
	olds = make([][]byte, len(writes))
	for i, w := range writes {
		old := bytes.Clone(recs.Get(rks[i]))
		olds[i] = old
		isLive := live(old, now)
		switch {
		case w.ExpectAbsent && isLive,
			w.Expect != nil && (!isLive || !bytes.Equal(recordValue(old), w.Expect)):
			return nil, false
		}
	}
	return olds, true
}

// writeRecordsTx applies writes over olds, as checkRecordsTx returned them.
func writeRecordsTx(tx *bbolt.Tx, writes []store.RecordWrite, rks, olds [][]byte) error {
	for i, w := range writes {
		var err error
		if w.Delete {
			err = deleteRecordTx(tx, rks[i], olds[i])
		} else {
			err = putRecordTx(tx, rks[i], olds[i], expiryNanos(w.ExpiresAt), w.Value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
