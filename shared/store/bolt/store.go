// Package bolt is the embedded store.Store: one bbolt file holding every
// database, the records and an outbox of committed changes.
//
// Every write is an fsync'd transaction; concurrent writers share one
// transaction and its fsync (group commit, commit.go). Each document write also appends a
// store.Change to the outbox in the same transaction; the change-stream
// consumer drains it with ReadOutbox/AckOutbox (at-least-once), so no
// acknowledged write can be missed by history, counters or triggers after a
// crash.
//
// File layout (bucket names in quotes):
//
//	"dbs"/<db>/"docs"   id → encoded doc (binary header + raw JSON body)
//	"dbs"/<db>/"seqs"   seq (8 bytes BE) → id; one row per doc, its latest write
//	"dbs"/<db>/"klass"  esc(klass) esc(sortKey) id → nil; live docs with a klass
//	"dbs"/<db>/"meta"   "seq", "docs", "dels" → uint64 BE
//	"dbs"/<db>/"log"    seq → log row: the write's notes (log.go)
//	"records"           esc(kind) key → expiry + value
//	"expiry"            expiry (8 bytes BE) esc(kind) key → nil; expiring records
//	"outbox"            global seq (8 bytes BE) → encoded store.Change
package bolt

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
)

var (
	bucketDBs     = []byte("dbs")
	bucketRecords = []byte("records")
	bucketExpiry  = []byte("expiry")
	bucketOutbox  = []byte("outbox")

	bucketDocs  = []byte("docs")
	bucketSeqs  = []byte("seqs")
	bucketKlass = []byte("klass")
	bucketMeta  = []byte("meta")

	metaSeq  = []byte("seq")
	metaDocs = []byte("docs")
	metaDels = []byte("dels")
)

// Defaults for Options.
const (
	DefaultMaxBatchSize = 1000
	// fillPercent is how full the document buckets' pages are split.
	fillPercent        = 0.95
	defaultOpenTimeout = 10 * time.Second
	initialMmapSize    = 64 << 20
)

// Options configures Open. The zero value is fine.
type Options struct {
	Logger *slog.Logger // nil = discard
	// MaxBatchSize caps the writes coalesced into one transaction
	// (0 = DefaultMaxBatchSize).
	MaxBatchSize int
	// OpenTimeout bounds the wait for the file lock held by another process
	// (0 = 10 s), so a second server fails instead of hanging.
	OpenTimeout time.Duration
}

// Store is the bbolt-backed store.Store. It also implements store.Notifier.
type Store struct {
	db       *bbolt.DB
	log      *slog.Logger
	commit   *committer
	versions versions

	noter atomic.Pointer[store.Noter] // notes each write (SetNoter, log.go); nil: none

	mu       sync.Mutex
	closed   bool
	waiters  map[string]chan struct{} // db → closed at its next commit
	outboxCh chan struct{}            // closed at the next commit with an outbox entry
}

var (
	_ store.Store        = (*Store)(nil)
	_ store.Notifier     = (*Store)(nil)
	_ store.DocCommitter = (*Store)(nil)
	_ store.ChangeLog    = (*Store)(nil)
)

// OpenDir opens the store file of a data directory (dir/oficina.db,
// creating both if needed), as the local server keeps it: the opener a
// deployable that may run on the embedded store gives
// shared/app/adapters.Store.
func OpenDir(dir string, log *slog.Logger) (store.Store, error) {
	st, err := Open(filepath.Join(dir, "oficina.db"), Options{Logger: log})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// Open opens (creating if needed) the store file at path with mode 0600.
func Open(path string, opts Options) (*Store, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("bolt: create data dir: %w", err)
	}
	timeout := opts.OpenTimeout
	if timeout <= 0 {
		timeout = defaultOpenTimeout
	}
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{
		Timeout:         timeout,
		FreelistType:    bbolt.FreelistMapType,
		InitialMmapSize: initialMmapSize, // fewer remaps, which block readers
		// The free-page list is not written with every commit (one page
		// or more per commit, growing with the file) but rebuilt by a
		// scan when the file is opened, as etcd does: committed data is
		// as durable either way.
		NoFreelistSync: true,
	})
	if err != nil {
		return nil, fmt.Errorf("bolt: open %s: %w", path, err)
	}
	maxBatch := opts.MaxBatchSize
	if maxBatch <= 0 {
		maxBatch = DefaultMaxBatchSize
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{bucketDBs, bucketRecords, bucketExpiry, bucketOutbox} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("bolt: init %s: %w", path, err)
	}
	log.Info("store opened", "path", path)
	st := &Store{
		db:       db,
		log:      log,
		commit:   newCommitter(db, maxBatch),
		waiters:  map[string]chan struct{}{},
		outboxCh: make(chan struct{}),
	}
	return st, nil
}

// Close closes the file and wakes every waiter, so long-polls and the
// outbox consumer notice the shutdown instead of blocking forever.
func (s *Store) Close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		for db, ch := range s.waiters {
			close(ch)
			delete(s.waiters, db)
		}
		close(s.outboxCh)
	}
	s.mu.Unlock()
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("bolt: close: %w", err)
	}
	return nil
}

// Changed implements store.Notifier. Take the channel before reading the
// feed, then wait on it, so that a write between the two is not missed.
func (s *Store) Changed(db string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return closedChan()
	}
	ch, ok := s.waiters[db]
	if !ok {
		ch = make(chan struct{})
		s.waiters[db] = ch
	}
	return ch
}

// OutboxSignal returns a channel closed at the next commit that adds an
// outbox entry (or at Close). Take it before ReadOutbox, then wait on it
// when the outbox was empty.
func (s *Store) OutboxSignal() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.outboxCh
}

// committed wakes the waiters of db and of the outbox after a document
// write has been committed.
func (s *Store) committed(db string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if ch, ok := s.waiters[db]; ok {
		close(ch)
		delete(s.waiters, db)
	}
	close(s.outboxCh)
	s.outboxCh = make(chan struct{})
}

func closedChan() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

// batch runs fn in a coalesced, fsync'd write transaction (group commit).
// fn may run more than once (and alone after any error), so it must reset
// whatever it records at its start and return only I/O errors: domain
// outcomes travel in the caller's variables, never as fn's error.
func (s *Store) batch(fn func(tx *bbolt.Tx) error) error {
	if err := s.commit.run(fn); err != nil {
		return fmt.Errorf("bolt: write: %w", err)
	}
	return nil
}

// viewDB runs fn in a read transaction on db's bucket: the one place that
// turns a missing database into store.ErrDBNotFound. fn's error (a domain
// outcome or a read failure) is returned as is.
func (s *Store) viewDB(ctx context.Context, db string, fn func(b *bbolt.Bucket) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var outcome error
	err := s.view(func(tx *bbolt.Tx) error {
		b := dbBucket(tx, db)
		if b == nil {
			outcome = store.ErrDBNotFound
			return nil
		}
		outcome = fn(b)
		return nil
	})
	if err != nil {
		return err
	}
	return outcome
}

func (s *Store) view(fn func(tx *bbolt.Tx) error) error {
	if err := s.db.View(fn); err != nil {
		return fmt.Errorf("bolt: read: %w", err)
	}
	return nil
}

// dbBucket returns the bucket of db, or nil when it has not been created.
func dbBucket(tx *bbolt.Tx, db string) *bbolt.Bucket {
	return tx.Bucket(bucketDBs).Bucket([]byte(db))
}

var errDBName = errors.New("bolt: database name empty or too long")

// CreateDB implements store.Store.
func (s *Store) CreateDB(ctx context.Context, db string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if db == "" || len(db) > bbolt.MaxKeySize {
		return errDBName
	}
	var outcome error
	defer s.versions.docs(db)
	err := s.batch(func(tx *bbolt.Tx) error {
		outcome = nil
		dbs := tx.Bucket(bucketDBs)
		if dbs.Bucket([]byte(db)) != nil {
			outcome = store.ErrDBExists
			return nil
		}
		b, err := dbs.CreateBucket([]byte(db))
		if err != nil {
			return err
		}
		for _, name := range [][]byte{bucketDocs, bucketSeqs, bucketKlass, bucketMeta, bucketLog} {
			if _, err := b.CreateBucket(name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return outcome
}

// DBInfo implements store.Store.
func (s *Store) DBInfo(ctx context.Context, db string) (store.DBInfo, error) {
	info := store.DBInfo{Name: db}
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		meta := b.Bucket(bucketMeta)
		info.UpdateSeq = getU64(meta, metaSeq)
		info.DocCount = int64(getU64(meta, metaDocs))
		info.DelCount = int64(getU64(meta, metaDels))
		return nil
	})
	if err != nil {
		return store.DBInfo{}, err
	}
	return info, nil
}

// FileBytes is how much of the store file is in use (bbolt's high-water
// mark: every page ever allocated, free ones included) and the file's size
// on disk (it grows in steps): the figures of a storage measurement.
func (s *Store) FileBytes() (inUse, onDisk int64, err error) {
	err = s.view(func(tx *bbolt.Tx) error {
		inUse = tx.Size()
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	fi, err := os.Stat(s.db.Path())
	if err != nil {
		return 0, 0, fmt.Errorf("bolt: %w", err)
	}
	return inUse, fi.Size(), nil
}

func getU64(b *bbolt.Bucket, key []byte) uint64 {
	v := b.Get(key)
	if len(v) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(v)
}

func putU64(b *bbolt.Bucket, key []byte, v uint64) error {
	return b.Put(key, u64(v))
}
