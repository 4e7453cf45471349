// Package store is the document store port: CouchDB-style databases of JSON
// documents with revisions, a per-database change sequence, a klass index and
// small keyed records with expiry. Two real implementations satisfy it
// (store/bolt for the embedded product, store/dynamo for AWS) and both pass
// the same conformance suite in store/storetest.
//
// Every method takes the database name first so that no caller can forget the
// tenant.
package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Sentinel errors. The HTTP layer maps them to status codes in one place.
var (
	// ErrNotFound: the document (or record) does not exist.
	ErrNotFound = errors.New("not found")
	// ErrDeleted: the document existed and was deleted (a tombstone remains).
	ErrDeleted = errors.New("deleted")
	// ErrConflict: the expected revision is not the current one.
	ErrConflict = errors.New("document update conflict")
	// ErrDBNotFound: the database has not been created.
	ErrDBNotFound = errors.New("database does not exist")
	// ErrDBExists: CreateDB on a database that already exists.
	ErrDBExists = errors.New("database already exists")
	// ErrExists: PutRecord with IfAbsent on a live record.
	ErrExists = errors.New("record already exists")
	// ErrTooLarge: the document body exceeds MaxDocBytes.
	ErrTooLarge = errors.New("document too large")
	// ErrBadTransact: a Transact call that no store can run (too many
	// writes, one record written twice, contradictory conditions).
	ErrBadTransact = errors.New("invalid record transaction")
)

// MaxDocBytes bounds a stored document body on every backend, so that the
// embedded store and DynamoDB (400 KB items) accept exactly the same documents.
const MaxDocBytes = 350 * 1024

// Doc is one stored document revision.
//
// Body is the JSON object of the document's own fields; it never contains the
// reserved members _id, _rev or _deleted, which live in ID, Rev and Deleted.
type Doc struct {
	ID      string
	Rev     string // "N-<32 hex>"; on Put, the revision the caller read ("" to create)
	Seq     uint64 // the database sequence of this revision's write
	Deleted bool   // a tombstone
	Klass   string // index partition for List ("" = not listed by klass)
	// SortKey orders documents inside their klass for List (the API layer
	// uses created_at so list pages come back oldest/newest first).
	SortKey string
	Body    []byte
}

// DBInfo describes a database.
type DBInfo struct {
	Name      string
	DocCount  int64  // live documents
	DelCount  int64  // tombstones
	UpdateSeq uint64 // sequence of the latest write
}

// ListQuery selects one klass of one database in SortKey order.
type ListQuery struct {
	Klass string
	// Prefix keeps the documents whose SortKey starts with it (a module
	// that pages a subset, such as open tickets, prefixes their sort keys).
	Prefix     string
	Descending bool
	Limit      int    // <= 0 means no limit
	After      string // opaque cursor returned as Page.Next; "" starts at the beginning
}

// Page is one page of documents and the cursor of the next page ("" at the end).
type Page struct {
	Docs []Doc
	Next string
}

// AllDocsQuery selects live documents in id order, CouchDB _all_docs style.
type AllDocsQuery struct {
	StartKey   string // inclusive; "" = from the first
	EndKey     string // inclusive; "" = to the last
	Descending bool   // when true StartKey is the high end, as in CouchDB
	Limit      int    // <= 0 means no limit
	Skip       int
}

// ChangesQuery selects the changes feed: one row per document, its latest
// revision, ordered by sequence.
type ChangesQuery struct {
	Since      uint64 // rows with Seq > Since
	Limit      int    // <= 0 means no limit
	Descending bool   // newest first (still only rows with Seq > Since)
	// IncludeDocs fills Body, Klass and SortKey; without it a store may
	// return only ID, Rev, Seq and Deleted (DynamoDB then reads no bodies).
	IncludeDocs bool
	// MaxBytes, with IncludeDocs, stops the answer once its bodies pass
	// this many bytes (at least one row is returned), before the documents
	// beyond it are read; <= 0 means no bound.
	MaxBytes int
}

// Record is a small keyed value with optional expiry, used for sessions,
// tokens, throttles, unique claims and other bookkeeping that is not a
// document. Kind and Key together identify it.
type Record struct {
	Kind      string
	Key       string
	Value     []byte
	ExpiresAt time.Time // zero = never expires
}

// MaxTransactWrites bounds one Transact call on every backend, so callers
// behave the same everywhere (DynamoDB allows 100 items; 25 keeps a
// transaction small and its cost predictable).
const MaxTransactWrites = 25

// RecordWrite is one write of a Transact: a put of Record (or its delete),
// with an optional condition on the record's current live value. Expired
// records count as absent in conditions.
type RecordWrite struct {
	Record
	// Delete removes the record instead of writing it.
	Delete bool
	// Expect, when non-nil, requires a live record whose value equals it
	// (an empty, non-nil slice expects a live record with an empty value;
	// a counter written by Incr compares as its decimal value).
	Expect []byte
	// ExpectAbsent requires that no live record exists.
	ExpectAbsent bool
}

// SwapWrite writes value to record kind/key only if it still holds prev, the
// bytes read before (nil: only if it is still absent): the write of a
// read-change-write loop that retries on ErrConflict.
func SwapWrite(kind, key string, value, prev []byte) RecordWrite {
	return RecordWrite{Record: Record{Kind: kind, Key: key, Value: value}, Expect: prev, ExpectAbsent: prev == nil}
}

// CheckTransact validates writes the same way on every backend.
func CheckTransact(writes []RecordWrite) error {
	if len(writes) > MaxTransactWrites {
		return fmt.Errorf("%w: %d writes, at most %d", ErrBadTransact, len(writes), MaxTransactWrites)
	}
	seen := make(map[[2]string]bool, len(writes))
	for _, w := range writes {
		k := [2]string{w.Kind, w.Key}
		if seen[k] {
			return fmt.Errorf("%w: record %s/%s written twice", ErrBadTransact, w.Kind, w.Key)
		}
		seen[k] = true
		if w.ExpectAbsent && w.Expect != nil {
			return fmt.Errorf("%w: record %s/%s both expected and expected absent", ErrBadTransact, w.Kind, w.Key)
		}
	}
	return nil
}

// Store is the document store port.
type Store interface {
	// CreateDB creates an empty database; ErrDBExists if it exists.
	CreateDB(ctx context.Context, db string) error
	// DBInfo returns counts and the update sequence; ErrDBNotFound if absent.
	DBInfo(ctx context.Context, db string) (DBInfo, error)

	// Get returns the current live revision. A tombstone gives ErrDeleted
	// (and the tombstone Doc, so callers can read its Rev); a never-written
	// id gives ErrNotFound.
	Get(ctx context.Context, db, id string) (Doc, error)
	// Put writes doc atomically if doc.Rev is the current revision ("" when
	// the document does not exist or is a tombstone) and returns the stored
	// revision with its new Rev and Seq. Otherwise ErrConflict, and nothing
	// is written. If doc.Deleted is set the result is a tombstone (a delete)
	// that keeps doc.Body, so history can tell who deleted it and when.
	Put(ctx context.Context, db string, doc Doc) (Doc, error)
	// Delete is Put of a tombstone with an empty body.
	Delete(ctx context.Context, db, id, rev string) (Doc, error)

	// List pages through the live documents of one klass in SortKey order
	// (ties broken by id).
	List(ctx context.Context, db string, q ListQuery) (Page, error)
	// AllDocs lists live documents in id order.
	AllDocs(ctx context.Context, db string, q AllDocsQuery) ([]Doc, error)
	// Changes returns the latest revision of every document changed after
	// q.Since, tombstones included. The feed has no gaps that fill later:
	// once a row with seq N is returned, no write with a seq <= N commits
	// afterwards, so a client that follows the last seq it saw sees every
	// document's latest revision.
	Changes(ctx context.Context, db string, q ChangesQuery) ([]Doc, error)

	// PutRecord stores r. With ifAbsent it fails with ErrExists when a
	// live (unexpired) record with the same kind and key exists.
	PutRecord(ctx context.Context, r Record, ifAbsent bool) error
	// GetRecord returns a live record or ErrNotFound (expired = absent).
	GetRecord(ctx context.Context, kind, key string) (Record, error)
	// TakeRecord atomically reads and deletes a live record: of two
	// concurrent callers exactly one gets it, the other ErrNotFound.
	TakeRecord(ctx context.Context, kind, key string) (Record, error)
	// DeleteRecord removes a record; absent records are not an error.
	DeleteRecord(ctx context.Context, kind, key string) error
	// Incr atomically adds delta to the counter record (kind, key) and
	// returns the new value. A missing or expired counter starts at 0 and
	// gets ExpiresAt = now+ttl (ttl 0 = never); an existing one keeps its
	// expiry, so a throttle window is fixed from its first hit.
	Incr(ctx context.Context, kind, key string, delta int64, ttl time.Duration) (int64, error)
	// Transact applies up to MaxTransactWrites record writes atomically:
	// all of them, or none when any condition fails (ErrConflict). It is
	// the compare-and-set the change stream builds exact counters on.
	Transact(ctx context.Context, writes []RecordWrite) error

	Close() error
}

// DocWrite is a document write with what commits together with it.
type DocWrite struct {
	Doc Doc
	// Records are record writes (at most MaxTransactWrites, with Transact's
	// conditions) that commit in the document's own write: a rule's
	// bookkeeping, such as a public link to the document, that must neither
	// outlive a refused write nor be missing after an accepted one. A failed
	// condition fails the whole write with ErrConflict.
	Records []RecordWrite
	// Number, when set, numbers the document in its own write.
	Number *Numbering
}

// Numbering takes the next value of a counter (the record Kind/Key, as
// Incr keeps it) for a document and writes it into the body as Field, which
// the body must not already hold. A write that fails (a stale revision, a
// failed record condition) takes no number.
type Numbering struct {
	Kind, Key, Field string
	// Value is the number taken, set by the store when the write succeeds.
	Value int64
}

// DocCommitter is implemented by stores that commit a DocWrite in one
// transaction. For others, docs.Service takes the number with Incr before
// Put and applies the records with Transact after it.
type DocCommitter interface {
	PutDoc(ctx context.Context, db string, w DocWrite) (Doc, error)
}

// SetNumber returns body (a JSON object) with "field": n as its first
// member, without decoding it; body must not hold field already.
func SetNumber(body []byte, field string, n int64) []byte {
	body = bytes.TrimSpace(body)
	if len(body) < 2 || body[0] != '{' {
		return body // not an object: the caller's bug, left for the decoder to report
	}
	name, _ := json.Marshal(field) // a string always encodes
	out := make([]byte, 0, len(body)+len(name)+22)
	out = append(out, '{')
	out = append(out, name...)
	out = append(out, ':')
	out = strconv.AppendInt(out, n, 10)
	if rest := bytes.TrimSpace(body[1:]); rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, body[1:]...)
}

// Versions is implemented by stores that every write goes through in this
// process (the embedded store holds its file locked), so that a cache kept
// in the process can tell whether what it read may have changed since: a
// version grows with every write committed to the documents of db, or to
// the records of kind (expiry sweeps included). Read the version before the
// data it guards; a cache entry is good while the version has not moved.
// Stores shared by several processes (DynamoDB and its Lambda instances) do
// not implement it, and callers then read every time.
type Versions interface {
	DocsVersion(db string) uint64
	RecordsVersion(kind string) uint64
}

// Resorter is implemented by stores that can move a document to another
// sort key in its klass index in place: the live revision rev of id keeps
// its revision and seq and makes no change in the feed or the change
// stream. A stale rev gives ErrConflict, a missing or deleted document
// ErrNotFound. docs.Service.Rekey uses it when the key a klass is indexed
// by changes shape.
type Resorter interface {
	Resort(ctx context.Context, db, id, rev, sortKey string) error
}

// Notifier is implemented by stores that can wake long-polling readers of
// the changes feed as soon as a database changes. Stores without it are polled.
type Notifier interface {
	// Changed returns a channel closed at the next write to db.
	Changed(db string) <-chan struct{}
}

// Change is the backend-neutral record of one committed write, consumed by
// the change stream (history, counters, views): the embedded store writes it
// to its outbox in the same transaction as the document; on AWS it is built
// from a DynamoDB Streams record with NEW_AND_OLD_IMAGES.
type Change struct {
	DB  string
	Old *Doc // nil when the document did not exist before
	New Doc
}

// OutboxEntry is one committed change waiting in a store's outbox. Key
// orders entries globally (across databases) by commit.
type OutboxEntry struct {
	Key    uint64
	Change Change
}

// ChangeNotes are what a store that keeps its own change log records with
// each write (DynamoDB), computed when the write is planned: the write's
// history entry and its change to the counters, so that nothing has to be
// written for them afterwards.
type ChangeNotes struct {
	// History is the write's history entry (ID, Klass, SortKey, Body); nil
	// when the klass keeps none. The store serves it as a document with
	// the seq right after the write's (Get, Changes, History).
	History *Doc
	// Counts is the write's change to the database's counters, opaque to
	// the store; nil when there is none.
	Counts []byte
}

// Noter computes the notes of a write (the change-stream consumer). Note
// must be a pure function of the change: a write that is planned again
// (it lost a race) is noted again.
type Noter interface {
	Note(ch Change) (ChangeNotes, error)
	// HistorySeq returns the seq of the write a history entry id was made
	// for; false when id is not a history entry's.
	HistorySeq(id string) (seq uint64, ok bool)
}

// NotePreparer is implemented by Noters that can note a write before its
// transaction: PrepareNote does Note's work on a change whose New.Seq is
// not set yet, and the PreparedNote it returns completes the note cheaply.
// A store calls it before its write transaction, so that work does not
// hold up the writes committed with it (the embedded store).
type NotePreparer interface {
	PrepareNote(ch Change) (PreparedNote, error)
}

// PreparedNote completes a prepared note with what only the write's
// transaction knows: the write's seq, and the document as written (its Rev
// and Body). A store may prepare the note of a numbered write
// (DocWrite.Number) that creates its document (no live revision before it)
// on the body with the number set to 0, and write it with the number the
// transaction takes: the note then takes the written revision and size,
// and a number's value must take no other part in a note (no tally, event
// or label reads it).
type PreparedNote func(seq uint64, written Doc) ChangeNotes

// LogEntry is one write in a store's change log.
type LogEntry struct {
	Seq  uint64 // the write's seq
	Last uint64 // the last seq it covers: Seq, or Seq+1 with a history entry
	// Noted is false for a write made while no Noter was set (its Counts
	// are unknown, not empty).
	Noted  bool
	Counts []byte
}

// ChangeLog is implemented by stores that keep every write, with its
// notes, in an append-only log (DynamoDB): the change stream reads history
// entries and counter deltas from it instead of writing them.
type ChangeLog interface {
	// SetNoter installs the function that notes each write; set it before
	// the first write.
	SetNoter(n Noter)
	// ReadLog returns up to limit (<= 0: all) entries of db with Last >
	// since, oldest first.
	ReadLog(ctx context.Context, db string, since uint64, limit int) ([]LogEntry, error)
	// History returns the history entries of document id (every history
	// entry of db when id is ""), newest first, at most limit (<= 0: all).
	History(ctx context.Context, db, id string, limit int) ([]Doc, error)
}

// Outbox is implemented by stores that keep committed changes for the
// change-stream consumer themselves (the embedded store); on AWS DynamoDB
// Streams plays that part.
type Outbox interface {
	// ReadOutbox returns up to max (<= 0: all) pending entries, oldest
	// first; they stay until acknowledged (at-least-once).
	ReadOutbox(ctx context.Context, max int) ([]OutboxEntry, error)
	// AckOutbox removes processed entries; unknown keys are ignored.
	AckOutbox(ctx context.Context, keys []uint64) error
	// OutboxSignal returns a channel closed at the next commit that adds
	// an entry (or when the store closes).
	OutboxSignal() <-chan struct{}
}
