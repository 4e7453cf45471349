package bolt

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	bbolt "go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
)

var (
	errEmptyID   = errors.New("bolt: empty document id")
	errKeyTooBig = errors.New("bolt: id, klass and sort key too long for an index key")
)

// keyFits reports whether the doc's keys fit bbolt's key limit, checked
// before the transaction so an oversized key cannot fail a shared batch.
func keyFits(d *store.Doc) bool {
	// Escaping at most doubles klass and sort key, plus two terminators.
	return len(d.ID)+2*(len(d.Klass)+len(d.SortKey))+4 <= bbolt.MaxKeySize
}

// Get implements store.Store: one read transaction and a copy.
func (s *Store) Get(ctx context.Context, db, id string) (store.Doc, error) {
	var doc store.Doc
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		v := b.Bucket(bucketDocs).Get([]byte(id))
		if v == nil {
			// A history entry lives in its write's log row (log.go).
			h, err := historyEntry(s.noterOf(), b, id)
			if err != nil || h == nil {
				return cmp.Or(err, store.ErrNotFound)
			}
			doc = *h
			return nil
		}
		var err error
		doc, err = decodeDoc(id, v)
		return err
	})
	switch {
	case err != nil:
		return store.Doc{}, err
	case doc.Deleted:
		return doc, store.ErrDeleted
	}
	return doc, nil
}

// Delete implements store.Store.
func (s *Store) Delete(ctx context.Context, db, id, rev string) (store.Doc, error) {
	return s.Put(ctx, db, store.Doc{ID: id, Rev: rev, Deleted: true})
}

// Put implements store.Store. The document, its indexes, the db counters
// and the outbox entry are written in one transaction.
func (s *Store) Put(ctx context.Context, db string, doc store.Doc) (store.Doc, error) {
	return s.PutDoc(ctx, db, store.DocWrite{Doc: doc})
}

// PutDoc implements store.DocCommitter: Put, with the record writes and
// the number in the same transaction.
func (s *Store) PutDoc(ctx context.Context, db string, w store.DocWrite) (store.Doc, error) {
	if err := ctx.Err(); err != nil {
		return store.Doc{}, err
	}
	doc := w.Doc
	if doc.ID == "" {
		return store.Doc{}, errEmptyID
	}
	size := len(doc.Body)
	if w.Number != nil {
		size += len(w.Number.Field) + 24 // "field":n, at most
	}
	if size > store.MaxDocBytes {
		return store.Doc{}, store.ErrTooLarge
	}
	if !keyFits(&doc) {
		return store.Doc{}, errKeyTooBig
	}
	if err := store.CheckTransact(w.Records); err != nil {
		return store.Doc{}, err
	}
	rks, err := recordKeys(w.Records)
	if err != nil {
		return store.Doc{}, err
	}
	var numberKey []byte
	if w.Number != nil {
		if !recordKeyFits(w.Number.Kind, w.Number.Key) {
			return store.Doc{}, errRecordKey
		}
		numberKey = recordKey(w.Number.Kind, w.Number.Key)
	}
	var (
		out     store.Doc
		number  int64
		outcome error
	)
	defer func() {
		s.versions.docs(db)
		s.versions.recordWrites(w.Records)
		if w.Number != nil {
			s.versions.records(w.Number.Kind)
		}
	}()
	pre := s.prepareNote(ctx, db, doc, w.Number)
	err = s.batch(func(tx *bbolt.Tx) error {
		out, number, outcome = store.Doc{}, 0, nil
		olds, ok := checkRecordsTx(tx, w.Records, rks)
		if !ok {
			outcome = store.ErrConflict
			return nil
		}
		d := doc
		if numberKey != nil {
			// Checked before the counter moves: a conflict takes no number.
			if outcome = checkRevTx(tx, db, d); outcome != nil {
				return nil
			}
			n, bad, err := incrTx(tx, numberKey, 1, 0)
			if err != nil || bad != nil {
				outcome = bad
				return err
			}
			number = n
			d.Body = store.SetNumber(d.Body, w.Number.Field, n)
		}
		var err error
		if out, err = putTx(tx, db, d, s.noterOf(), pre, &outcome); err != nil || outcome != nil {
			return err
		}
		return writeRecordsTx(tx, w.Records, rks, olds)
	})
	if err != nil {
		return store.Doc{}, err
	}
	if outcome != nil {
		return store.Doc{}, outcome
	}
	if w.Number != nil {
		w.Number.Value = number
	}
	s.committed(db)
	return out, nil
}

// previous is the stored revision a write replaces.
type previous struct {
	raw    []byte // the stored value, copied (nil when absent)
	header docHeader
	rev    string
}

// currentRev reads the revision doc replaces; conflict is ErrConflict when
// doc.Rev is not the current one.
func currentRev(docs *bbolt.Bucket, doc store.Doc) (p previous, conflict, err error) {
	// The old value is copied because bbolt may reuse its memory once the
	// doc is overwritten, and the outbox needs it.
	p.raw = bytes.Clone(docs.Get([]byte(doc.ID)))
	if p.raw != nil {
		if p.header, err = parseDoc(p.raw); err != nil {
			return previous{}, nil, err
		}
		p.rev = string(p.header.rev)
	}
	// "" creates (or revives a tombstone); otherwise the rev must be current.
	// A tombstone also accepts its own rev, as CouchDB does.
	switch {
	case p.raw == nil || p.header.deleted:
		if doc.Rev != "" && doc.Rev != p.rev {
			return p, store.ErrConflict, nil
		}
	case doc.Rev == "" || doc.Rev != p.rev:
		return p, store.ErrConflict, nil
	}
	return p, nil, nil
}

// checkRevTx reports what putTx would refuse before it writes anything: a
// missing database or a stale revision.
func checkRevTx(tx *bbolt.Tx, db string, doc store.Doc) error {
	b := dbBucket(tx, db)
	if b == nil {
		return store.ErrDBNotFound
	}
	_, conflict, err := currentRev(b.Bucket(bucketDocs), doc)
	if err != nil {
		return fmt.Errorf("doc %s/%s: %w", db, doc.ID, err)
	}
	return conflict
}

// putTx is the body of Put's transaction: it returns the stored doc, or sets
// *outcome to a domain error (conflict, missing db), or returns an I/O error
// (or the Noter's, which refuses the write). n notes the write in the log
// (log.go), with pre when it was prepared; nil writes an unnoted row.
func putTx(tx *bbolt.Tx, db string, doc store.Doc, n store.Noter, pre *preparedNote, outcome *error) (store.Doc, error) {
	b := dbBucket(tx, db)
	if b == nil {
		*outcome = store.ErrDBNotFound
		return store.Doc{}, nil
	}
	docs, seqs, klass, meta := b.Bucket(bucketDocs), b.Bucket(bucketSeqs), b.Bucket(bucketKlass), b.Bucket(bucketMeta)
	// Ids and sort keys arrive in no order, and bbolt splits a full page at
	// its bucket's FillPercent: at the default half, pages of random keys
	// stay half empty (the store file was twice its data).
	docs.FillPercent, klass.FillPercent, seqs.FillPercent = fillPercent, fillPercent, fillPercent
	id := []byte(doc.ID)

	p, conflict, err := currentRev(docs, doc)
	if err != nil {
		return store.Doc{}, fmt.Errorf("doc %s/%s: %w", db, doc.ID, err)
	}
	if conflict != nil {
		*outcome = conflict
		return store.Doc{}, nil
	}
	oldRaw, old, prev := p.raw, p.header, p.rev

	seq := getU64(meta, metaSeq) + 1
	doc.Rev = store.NextRev(prev, doc.Deleted, doc.Body)
	doc.Seq = seq
	row, hist, err := noteTx(n, pre, db, oldRaw, old.seq, old.histSeq, doc)
	if err != nil {
		return store.Doc{}, fmt.Errorf("note %s/%s: %w", db, doc.ID, err)
	}
	last, histSeq := seq, old.histSeq
	if hist != nil {
		last, histSeq = hist.Seq, seq
	}
	newRaw := encodeDocHist(&doc, histSeq)
	if err := docs.Put(id, newRaw); err != nil {
		return store.Doc{}, err
	}

	// One changes row per doc: drop the row of the previous write.
	if oldRaw != nil {
		if err := seqs.Delete(u64(old.seq)); err != nil {
			return store.Doc{}, err
		}
	}
	if err := seqs.Put(u64(seq), id); err != nil {
		return store.Doc{}, err
	}

	if oldRaw != nil && !old.deleted && len(old.klass) > 0 {
		if err := klass.Delete(klassKey(string(old.klass), string(old.sortKey), doc.ID)); err != nil {
			return store.Doc{}, err
		}
	}
	if !doc.Deleted && doc.Klass != "" {
		// The index is covering for small documents: its value is the
		// encoded doc, so list pages and _find read one klass sequentially
		// instead of looking every doc up by id (a B-tree search each), for
		// the price of their bytes twice. A compressed body is looked up
		// instead (its value is empty): it is decompressed on every read
		// anyway, and twice its bytes would be most of the file.
		value := newRaw
		if isPacked(newRaw) {
			value = []byte{}
		}
		if err := klass.Put(klassKey(doc.Klass, doc.SortKey, doc.ID), value); err != nil {
			return store.Doc{}, err
		}
	}

	live, dels := int64(getU64(meta, metaDocs)), int64(getU64(meta, metaDels))
	switch {
	case oldRaw == nil:
	case old.deleted:
		dels--
	default:
		live--
	}
	if doc.Deleted {
		dels++
	} else {
		live++
	}
	for _, kv := range []struct {
		k []byte
		v uint64
	}{{metaSeq, last}, {metaDocs, uint64(live)}, {metaDels, uint64(dels)}} {
		if err := putU64(meta, kv.k, kv.v); err != nil {
			return store.Doc{}, err
		}
	}
	if err := appendLogTx(b, seq, row, hist); err != nil {
		return store.Doc{}, err
	}

	if err := appendOutbox(tx, encodeChange(db, doc.ID, oldRaw, newRaw)); err != nil {
		return store.Doc{}, err
	}
	return doc, nil
}

// indexedDoc returns the encoded doc a klass index entry points at: the
// entry's own value v, or (for entries written before the index was
// covering) the docs bucket's.
func indexedDoc(docs *bbolt.Bucket, v, id []byte) ([]byte, error) {
	if len(v) > 0 {
		return v, nil
	}
	if v = docs.Get(id); v == nil {
		return nil, fmt.Errorf("klass index points at missing doc %q: %w", id, errCorrupt)
	}
	return v, nil
}

// List implements store.Store. The cursor is the index key suffix (sort
// key and id) of the page's last doc, so it stays valid if that doc changes.
func (s *Store) List(ctx context.Context, db string, q store.ListQuery) (store.Page, error) {
	var after []byte
	if q.After != "" {
		var err error
		if after, err = base64.RawURLEncoding.DecodeString(q.After); err != nil {
			return store.Page{}, fmt.Errorf("bolt: invalid list cursor: %w", err)
		}
	}
	prefix := klassPrefix(q.Klass)
	// scan bounds the walk: the klass, narrowed to sort keys starting with
	// q.Prefix (escaping keeps prefixes: no terminator is appended).
	scan := bytes.Clone(prefix)
	for i := 0; i < len(q.Prefix); i++ {
		if q.Prefix[i] == 0 {
			scan = append(scan, 0, 0xFF)
		} else {
			scan = append(scan, q.Prefix[i])
		}
	}
	var page store.Page
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		docs := b.Bucket(bucketDocs)
		c := b.Bucket(bucketKlass).Cursor()

		var k, v []byte
		step := c.Next
		if q.Descending {
			step = c.Prev
			// Start below the cursor, or below the end of the scanned range
			// (the smallest key above every key starting with scan).
			target := append(bytes.Clone(prefix), after...)
			if len(after) == 0 {
				target = successor(scan)
			}
			if k, v = c.Seek(target); k == nil {
				k, v = c.Last()
			} else {
				k, v = c.Prev()
			}
		} else {
			target := append(bytes.Clone(prefix), after...)
			if len(after) == 0 {
				target = scan
			}
			k, v = c.Seek(target)
			if len(after) > 0 && bytes.Equal(k, target) {
				k, v = c.Next()
			}
		}
		for ; k != nil && bytes.HasPrefix(k, scan); k, v = step() {
			suffix := k[len(prefix):]
			id, ok := cutTerm(suffix)
			if !ok {
				return fmt.Errorf("klass index key %q: %w", k, errCorrupt)
			}
			raw, err := indexedDoc(docs, v, id)
			if err != nil {
				return err
			}
			d, err := decodeDoc(string(id), raw)
			if err != nil {
				return err
			}
			page.Docs = append(page.Docs, d)
			if q.Limit > 0 && len(page.Docs) == q.Limit {
				// Only hand out a cursor when another doc follows, so the
				// last page never leads to an empty one.
				next := base64.RawURLEncoding.EncodeToString(suffix)
				if k, _ = step(); k != nil && bytes.HasPrefix(k, scan) {
					page.Next = next
				}
				break
			}
		}
		return nil
	})
	if err != nil {
		return store.Page{}, err
	}
	return page, nil
}

// successor is the smallest byte string above every string starting with b.
func successor(b []byte) []byte {
	out := bytes.Clone(b)
	for i := len(out) - 1; i >= 0; i-- {
		if out[i] < 0xFF {
			out[i]++
			return out[:i+1]
		}
	}
	return nil // b is all 0xFF: nothing is above it; Seek(nil) goes to the start, never used
}

// AllDocs implements store.Store.
func (s *Store) AllDocs(ctx context.Context, db string, q store.AllDocsQuery) ([]store.Doc, error) {
	var out []store.Doc
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		c := b.Bucket(bucketDocs).Cursor()
		var k, v []byte
		step := c.Next
		// past reports whether k is beyond the EndKey bound.
		past := func(k []byte) bool { return q.EndKey != "" && bytes.Compare(k, []byte(q.EndKey)) > 0 }
		if q.Descending {
			step = c.Prev
			past = func(k []byte) bool { return q.EndKey != "" && bytes.Compare(k, []byte(q.EndKey)) < 0 }
			switch {
			case q.StartKey == "":
				k, v = c.Last()
			default:
				if k, v = c.Seek([]byte(q.StartKey)); k == nil {
					k, v = c.Last()
				} else if string(k) != q.StartKey {
					k, v = c.Prev()
				}
			}
		} else if q.StartKey == "" {
			k, v = c.First()
		} else {
			k, v = c.Seek([]byte(q.StartKey))
		}
		skip := q.Skip
		for ; k != nil && !past(k); k, v = step() {
			if isTombstone(v) {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			d, err := decodeDoc(string(k), v)
			if err != nil {
				return err
			}
			out = append(out, d)
			if q.Limit > 0 && len(out) == q.Limit {
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

// changesRow is the document of the seqs row (seq, id): the doc, or for a
// history entry's row (id empty) the entry in its log row (log.go).
func changesRow(b, docs *bbolt.Bucket, seq uint64, id []byte) (store.Doc, error) {
	if len(id) == 0 {
		return historyAt(b, seq)
	}
	v := docs.Get(id)
	if v == nil {
		return store.Doc{}, fmt.Errorf("seq %d points at missing doc %q: %w", seq, id, errCorrupt)
	}
	return decodeDoc(string(id), v)
}

// Changes implements store.Store: the seqs bucket holds one row per doc,
// at the seq of its latest write, and one per history entry.
func (s *Store) Changes(ctx context.Context, db string, q store.ChangesQuery) ([]store.Doc, error) {
	var out []store.Doc
	bytes := 0
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		docs := b.Bucket(bucketDocs)
		c := b.Bucket(bucketSeqs).Cursor()
		var k, id []byte
		step := c.Next
		if q.Descending {
			step = c.Prev
			k, id = c.Last()
		} else if q.Since == math.MaxUint64 {
			return nil
		} else {
			k, id = c.Seek(u64(q.Since + 1))
		}
		for ; k != nil; k, id = step() {
			seq := binary.BigEndian.Uint64(k)
			if seq <= q.Since {
				break // only reachable when descending
			}
			d, err := changesRow(b, docs, seq, id)
			if err != nil {
				return err
			}
			if len(id) == 0 && !q.IncludeDocs {
				d.Body = nil // a history entry's, read from its log row
			}
			out = append(out, d)
			bytes += len(d.Body)
			if q.Limit > 0 && len(out) == q.Limit {
				break
			}
			if q.IncludeDocs && q.MaxBytes > 0 && bytes >= q.MaxBytes {
				break // the answer's bodies are full
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
