package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/oficina/oficina/shared/store"
)

// The change log (store.ChangeLog), as on DynamoDB: every document write
// appends a row to its database's "log" bucket in the write's own
// transaction, with what the change-stream consumer notes of it (its
// history entry and its change to the counters, store.Noter). The consumer
// then writes no history documents and no per-document contributions: it
// folds the rows' counter deltas into one record per database, and history
// panels read the entries from the rows. A write with a history entry
// covers two seqs, its own and its entry's, and the entry has a changes
// row of its own (an empty seqs value: the entry is in the log row one seq
// before), so clients following _changes see it as they did when it was a
// document. A document's entries are a chain: its stored value names its
// latest write with an entry (docHeader.histSeq), and each such row the
// one before it. (An index keyed by id and seq would put every write on a
// random page of its own: a tenth of PUT throughput.)
//
//	"dbs"/<db>/"log"   seq (8 bytes BE) → log row (below); never changed
//
// Log row: [logFormat] [flags] uvarint len + counts (JSON, may be empty)
// and, with logWithHist, uvarint len + the entry's id, uvarint: the seq of
// the document's previous write with an entry (0: none), then the entry
// encoded as a document (encodeDoc).
const (
	logFormat   = 1
	logUnnoted  = 1 << 0 // written while no Noter was set
	logWithHist = 1 << 1
)

var bucketLog = []byte("log")

// SetNoter implements store.ChangeLog.
func (s *Store) SetNoter(n store.Noter) { s.noter.Store(&n) }

func (s *Store) noterOf() store.Noter {
	if p := s.noter.Load(); p != nil {
		return *p
	}
	return nil
}

// preparedNote is a write's note made before its transaction
// (store.NotePreparer) against the revision then stored: the store's seq
// of it (0: none) and the revision the write gets, or, for a numbered
// write, that it was prepared with the number 0 (its revision is known
// once the transaction takes the number).
type preparedNote struct {
	oldSeq   uint64
	rev      string
	numbered bool
	at       store.PreparedNote
}

// prepareNote notes the write of doc (numbered by number, when not nil)
// before its transaction, so that the Noter's work (decoding bodies, the
// history entry) runs beside other commits instead of inside one; nil when
// the Noter cannot or the write will be refused anyway (the transaction
// then notes it, or refuses it).
func (s *Store) prepareNote(ctx context.Context, db string, doc store.Doc, number *store.Numbering) *preparedNote {
	np, ok := s.noterOf().(store.NotePreparer)
	if !ok {
		return nil
	}
	if number != nil {
		doc.Body = store.SetNumber(doc.Body, number.Field, 0)
	}
	var pre *preparedNote
	_ = s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		p, conflict, err := currentRev(b.Bucket(bucketDocs), doc)
		if err != nil || conflict != nil || (number != nil && p.raw != nil && !p.header.deleted) {
			return nil // numbers are taken by creates (store.PreparedNote)
		}
		doc.Rev = store.NextRev(p.rev, doc.Deleted, doc.Body)
		ch, err := changeOf(db, p.raw, doc)
		if err != nil {
			return nil
		}
		at, err := np.PrepareNote(ch)
		if err != nil {
			return nil
		}
		pre = &preparedNote{oldSeq: p.header.seq, rev: doc.Rev, numbered: number != nil, at: at}
		return nil
	})
	return pre
}

// changeOf is the change of writing doc over the stored revision oldRaw
// (nil: none).
func changeOf(db string, oldRaw []byte, doc store.Doc) (store.Change, error) {
	ch := store.Change{DB: db, New: doc}
	if oldRaw != nil {
		old, err := decodeDoc(doc.ID, oldRaw)
		if err != nil {
			return store.Change{}, err
		}
		ch.Old = &old
	}
	return ch, nil
}

// noteTx notes the write of doc over the stored revision oldRaw (nil:
// none; stored at oldSeq): the log row to append and the history entry,
// with its seq and rev, when there is one. pre is used when it was made
// against the same revision; otherwise the Noter notes the write here. A
// Noter's error refuses the write. prevHist is the seq of the document's
// previous write with an entry, which the row names.
func noteTx(n store.Noter, pre *preparedNote, db string, oldRaw []byte, oldSeq, prevHist uint64, doc store.Doc) (row []byte, hist *store.Doc, err error) {
	flags := byte(0)
	var notes store.ChangeNotes
	switch {
	case n == nil:
		flags |= logUnnoted
	case pre != nil && pre.oldSeq == oldSeq && (pre.rev == doc.Rev || pre.numbered):
		notes = pre.at(doc.Seq, doc)
	default:
		ch, err := changeOf(db, oldRaw, doc)
		if err != nil {
			return nil, nil, err
		}
		if notes, err = n.Note(ch); err != nil {
			return nil, nil, err
		}
	}
	counts := notes.Counts
	if notes.History != nil {
		h := *notes.History
		h.Seq = doc.Seq + 1
		h.Rev = store.NextRev("", false, h.Body)
		hist = &h
		flags |= logWithHist
	}
	row = append(make([]byte, 0, 64+len(counts)), logFormat, flags)
	row = binary.AppendUvarint(row, uint64(len(counts)))
	row = append(row, counts...)
	if hist != nil {
		// Stored as documents are (compressed from 2 KB): compressing every
		// entry would save a third of its bytes, but it runs inside the
		// write transaction and cost 10-14 % of PUT throughput.
		row = appendString(row, hist.ID)
		row = binary.AppendUvarint(row, prevHist)
		row = append(row, encodeDoc(hist)...)
	}
	return row, hist, nil
}

// logRow is a decoded log row.
type logRow struct {
	unnoted  bool
	counts   []byte
	withHist bool       // the write has a history entry
	hist     *store.Doc // the entry, when it was asked for
	prevHist uint64     // with hist: the document's previous write with an entry
}

// decodeLogRow decodes the row at seq, and its history entry when
// withHist (the counters' fold reads only the counts).
func decodeLogRow(seq uint64, v []byte, withHist bool) (logRow, error) {
	var r logRow
	if len(v) < 2 || v[0] != logFormat {
		return r, fmt.Errorf("log row %d: %w", seq, errCorrupt)
	}
	flags := v[1]
	r.unnoted = flags&logUnnoted != 0
	r.withHist = flags&logWithHist != 0
	counts, rest, ok := cutField(v[2:])
	if !ok {
		return r, fmt.Errorf("log row %d: %w", seq, errCorrupt)
	}
	if len(counts) > 0 {
		r.counts = bytes.Clone(counts)
	}
	if r.withHist && withHist {
		id, rest, ok := cutField(rest)
		if !ok {
			return r, fmt.Errorf("log row %d: %w", seq, errCorrupt)
		}
		prev, k := binary.Uvarint(rest)
		if k <= 0 {
			return r, fmt.Errorf("log row %d: %w", seq, errCorrupt)
		}
		r.prevHist = prev
		enc := rest[k:]
		h, err := decodeDoc(string(id), enc)
		if err != nil {
			return r, fmt.Errorf("log row %d: %w", seq, err)
		}
		r.hist = &h
	}
	return r, nil
}

// last is the last seq a row at seq covers.
func (r logRow) last(seq uint64) uint64 {
	if r.withHist {
		return seq + 1
	}
	return seq
}

// appendLogTx appends the row of the write at seq and, with a history
// entry, the entry's changes row.
func appendLogTx(b *bbolt.Bucket, seq uint64, row []byte, hist *store.Doc) error {
	lg, err := b.CreateBucketIfNotExists(bucketLog) // databases made before the log have none
	if err != nil {
		return err
	}
	lg.FillPercent = 1 // appended in key order: full pages (bbolt's default splits them half empty)
	if err := lg.Put(u64(seq), row); err != nil {
		return err
	}
	if hist == nil {
		return nil
	}
	return b.Bucket(bucketSeqs).Put(u64(hist.Seq), []byte{})
}

// readRow reads the log row at seq; found is false when there is none.
func readRow(b *bbolt.Bucket, seq uint64) (r logRow, found bool, err error) {
	lg := b.Bucket(bucketLog)
	if lg == nil {
		return r, false, nil
	}
	v := lg.Get(u64(seq))
	if v == nil {
		return r, false, nil
	}
	r, err = decodeLogRow(seq, v, true)
	return r, err == nil, err
}

// historyAt is the changes feed's document for a history entry's changes
// row at seq: the entry in the log row before it.
func historyAt(b *bbolt.Bucket, seq uint64) (store.Doc, error) {
	r, found, err := readRow(b, seq-1)
	if err != nil {
		return store.Doc{}, err
	}
	if !found || r.hist == nil {
		return store.Doc{}, fmt.Errorf("seq %d names a history entry its log row lacks: %w", seq, errCorrupt)
	}
	return *r.hist, nil
}

// ReadLog implements store.ChangeLog.
func (s *Store) ReadLog(ctx context.Context, db string, since uint64, limit int) ([]store.LogEntry, error) {
	var out []store.LogEntry
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		lg := b.Bucket(bucketLog)
		if lg == nil {
			return nil
		}
		c := lg.Cursor()
		// A row covering since+1 starts at since at the lowest.
		for k, v := c.Seek(u64(max(since, 1))); k != nil; k, v = c.Next() {
			seq := binary.BigEndian.Uint64(k)
			r, err := decodeLogRow(seq, v, false)
			if err != nil {
				return err
			}
			if r.last(seq) <= since {
				continue
			}
			out = append(out, store.LogEntry{Seq: seq, Last: r.last(seq), Noted: !r.unnoted, Counts: r.counts})
			if limit > 0 && len(out) == limit {
				break
			}
		}
		return nil
	})
	return out, err
}

// History implements store.ChangeLog: a document's entries by following
// its chain, every entry of the database by reading the log backwards.
func (s *Store) History(ctx context.Context, db, id string, limit int) ([]store.Doc, error) {
	var out []store.Doc
	full := func() bool { return limit > 0 && len(out) >= limit }
	err := s.viewDB(ctx, db, func(b *bbolt.Bucket) error {
		if id == "" {
			lg := b.Bucket(bucketLog)
			if lg == nil {
				return nil
			}
			c := lg.Cursor()
			for k, v := c.Last(); k != nil && !full(); k, v = c.Prev() {
				if len(v) < 2 || v[1]&logWithHist == 0 {
					continue
				}
				r, err := decodeLogRow(binary.BigEndian.Uint64(k), v, true)
				if err != nil {
					return err
				}
				out = append(out, *r.hist)
			}
			return nil
		}
		v := b.Bucket(bucketDocs).Get([]byte(id))
		if v == nil {
			return nil
		}
		h, err := parseDoc(v)
		if err != nil {
			return fmt.Errorf("history of %q: %w", id, err)
		}
		for seq := h.histSeq; seq > 0 && !full(); {
			r, found, err := readRow(b, seq)
			if err != nil {
				return err
			}
			if !found || r.hist == nil {
				return fmt.Errorf("history of %q: row %d missing: %w", id, seq, errCorrupt)
			}
			out = append(out, *r.hist)
			seq = r.prevHist
		}
		return nil
	})
	return out, err
}

// historyEntry reads the history entry id names (the Noter tells the seq
// of its write), for Get; nil when there is none.
func historyEntry(n store.Noter, b *bbolt.Bucket, id string) (*store.Doc, error) {
	if n == nil {
		return nil, nil
	}
	seq, ok := n.HistorySeq(id)
	if !ok {
		return nil, nil
	}
	r, found, err := readRow(b, seq)
	if err != nil || !found || r.hist == nil || r.hist.ID != id {
		return nil, err
	}
	return r.hist, nil
}
