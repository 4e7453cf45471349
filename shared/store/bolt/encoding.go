package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bodyzip"
)

// Stored document layout (docs bucket, key = id):
//
//	[0]     format version (docFormat)
//	[1]     flags (flagDeleted, flagPacked, flagHist)
//	[2:10]  seq, big endian
//	uvarint len + rev, uvarint len + klass, uvarint len + sort key
//	with flagHist, uvarint: the seq of the document's latest write with a
//	        history entry (its log row, log.go)
//	rest    raw JSON body, or with flagPacked the body compressed (bodyzip)
//
// The body follows a small binary header so that Get is one lookup plus a
// copy, with no JSON or base64 work. Bodies of packMin bytes or more are
// stored compressed when that is smaller (a 3 KB feed item takes about a
// third) and looked up from the klass index instead of copied into it;
// smaller ones stay verbatim and covered. packMin is 2 KB, not less: the
// product's records (customers, tickets, equipment: 0.5–1.5 KB) stay
// plain, because _find and list pages read a whole klass and
// decompressing every record was three quarters of a 10,000-record
// _find's CPU; compression pays on DynamoDB's write units, not here.
const (
	docFormat   = 1
	flagDeleted = 1 << 0
	flagPacked  = 1 << 1
	flagHist    = 1 << 2
	docFixedLen = 10
	packMin     = 2048
)

var errCorrupt = errors.New("bolt: corrupt stored value")

// docHeader is a decoded stored document without copying: its slices point
// into the transaction's memory and are valid only inside it.
type docHeader struct {
	deleted bool
	packed  bool // body is compressed: read it with plainBody
	seq     uint64
	rev     []byte
	klass   []byte
	sortKey []byte
	histSeq uint64 // the latest write with a history entry (0: none)
	body    []byte
}

func encodeDoc(d *store.Doc) []byte { return encodeDocHist(d, 0) }

// encodeDocHist is encodeDoc for a document whose latest write with a
// history entry was at histSeq (0: none).
func encodeDocHist(d *store.Doc, histSeq uint64) []byte {
	body := d.Body
	var flags byte
	if d.Deleted {
		flags |= flagDeleted
	}
	if histSeq > 0 {
		flags |= flagHist
	}
	if len(body) >= packMin {
		if z := bodyzip.Pack(body); bodyzip.Packed(z) {
			body, flags = z, flags|flagPacked
		}
	}
	n := docFixedLen + 3*binary.MaxVarintLen32 + binary.MaxVarintLen64 + len(d.Rev) + len(d.Klass) + len(d.SortKey) + len(body)
	b := make([]byte, docFixedLen, n)
	b[0] = docFormat
	b[1] = flags
	binary.BigEndian.PutUint64(b[2:10], d.Seq)
	b = appendString(b, d.Rev)
	b = appendString(b, d.Klass)
	b = appendString(b, d.SortKey)
	if histSeq > 0 {
		b = binary.AppendUvarint(b, histSeq)
	}
	return append(b, body...)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func parseDoc(v []byte) (docHeader, error) {
	var h docHeader
	if len(v) < docFixedLen || v[0] != docFormat {
		return h, errCorrupt
	}
	h.deleted = v[1]&flagDeleted != 0
	h.packed = v[1]&flagPacked != 0
	h.seq = binary.BigEndian.Uint64(v[2:10])
	rest := v[docFixedLen:]
	var ok bool
	if h.rev, rest, ok = cutField(rest); !ok {
		return h, errCorrupt
	}
	if h.klass, rest, ok = cutField(rest); !ok {
		return h, errCorrupt
	}
	if h.sortKey, rest, ok = cutField(rest); !ok {
		return h, errCorrupt
	}
	if v[1]&flagHist != 0 {
		n, k := binary.Uvarint(rest)
		if k <= 0 {
			return h, errCorrupt
		}
		h.histSeq, rest = n, rest[k:]
	}
	h.body = rest
	return h, nil
}

// plainBody returns the body as JSON: the stored bytes (aliasing the
// transaction's memory), or, when packed, a fresh decompressed copy.
func (h docHeader) plainBody() ([]byte, error) {
	if !h.packed {
		return h.body, nil
	}
	return bodyzip.Unpack(h.body)
}

// isPacked reads only the flags byte: the body is compressed.
func isPacked(v []byte) bool { return len(v) > 1 && v[1]&flagPacked != 0 }

// isTombstone reads only the flags byte, for scans that skip tombstones.
func isTombstone(v []byte) bool { return len(v) > 1 && v[1]&flagDeleted != 0 }

func cutField(b []byte) (field, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

// decodeDoc copies a stored document out of the transaction's memory.
func decodeDoc(id string, v []byte) (store.Doc, error) {
	h, err := parseDoc(v)
	if err != nil {
		return store.Doc{}, fmt.Errorf("doc %q: %w", id, err)
	}
	d := store.Doc{
		ID:      id,
		Rev:     string(h.rev),
		Seq:     h.seq,
		Deleted: h.deleted,
		Klass:   string(h.klass),
		SortKey: string(h.sortKey),
	}
	switch {
	case h.packed:
		if d.Body, err = h.plainBody(); err != nil {
			return store.Doc{}, fmt.Errorf("doc %q: %w", id, err)
		}
	case len(h.body) > 0:
		d.Body = bytes.Clone(h.body)
	}
	return d, nil
}

// Outbox entry layout: [version] uvarint len + db, uvarint len + id,
// uvarint len + old encoded doc (0 = no old), rest = new encoded doc.
// Encoded docs are never empty, so a zero length is unambiguous.
const outboxFormat = 1

func encodeChange(db, id string, oldRaw, newRaw []byte) []byte {
	b := make([]byte, 1, 1+3*binary.MaxVarintLen32+len(db)+len(id)+len(oldRaw)+len(newRaw))
	b[0] = outboxFormat
	b = appendString(b, db)
	b = appendString(b, id)
	b = binary.AppendUvarint(b, uint64(len(oldRaw)))
	b = append(b, oldRaw...)
	return append(b, newRaw...)
}

func decodeChange(v []byte) (store.Change, error) {
	var c store.Change
	if len(v) < 1 || v[0] != outboxFormat {
		return c, errCorrupt
	}
	db, rest, ok := cutField(v[1:])
	if !ok {
		return c, errCorrupt
	}
	id, rest, ok := cutField(rest)
	if !ok {
		return c, errCorrupt
	}
	oldRaw, rest, ok := cutField(rest)
	if !ok {
		return c, errCorrupt
	}
	c.DB = string(db)
	if len(oldRaw) > 0 {
		old, err := decodeDoc(string(id), oldRaw)
		if err != nil {
			return c, err
		}
		c.Old = &old
	}
	var err error
	c.New, err = decodeDoc(string(id), rest)
	return c, err
}

// escapeTerm encodes s so that concatenated terms sort like the tuple of
// their strings: 0x00 becomes 0x00 0xFF and the term ends with 0x00 0x00,
// which sorts below any continuation of s.
func escapeTerm(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			b = append(b, 0, 0xFF)
		} else {
			b = append(b, s[i])
		}
	}
	return append(b, 0, 0)
}

// cutTerm splits an escaped term off the front of b (without unescaping:
// callers only need what follows it).
func cutTerm(b []byte) (rest []byte, ok bool) {
	// An escaped 0x00 is always followed by 0xFF, so the first 0x00 0x00 is
	// the terminator.
	i := bytes.Index(b, []byte{0, 0})
	if i < 0 {
		return nil, false
	}
	return b[i+2:], true
}

// klassPrefix is the klass index prefix of one klass.
func klassPrefix(klass string) []byte { return escapeTerm(make([]byte, 0, len(klass)+2), klass) }

// klassKey is klass, sort key, id: the index orders by sort key, then id.
func klassKey(klass, sortKey, id string) []byte {
	b := make([]byte, 0, len(klass)+len(sortKey)+len(id)+4)
	b = escapeTerm(b, klass)
	b = escapeTerm(b, sortKey)
	return append(b, id...)
}

func recordKey(kind, key string) []byte {
	b := make([]byte, 0, len(kind)+len(key)+2)
	b = escapeTerm(b, kind)
	return append(b, key...)
}

func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(make([]byte, 0, 8), v) }

// expiryNanos maps a record expiry to the stored form: 0 = never, otherwise
// Unix nanoseconds clamped to [1, MaxInt64] so far-past and far-future times
// (outside UnixNano's range) keep their meaning.
func expiryNanos(t time.Time) int64 {
	switch {
	case t.IsZero():
		return 0
	case t.Before(time.Unix(0, 1)):
		return 1
	case t.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return t.UnixNano()
}

func expiryTime(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// Stored record layout (records bucket, key = recordKey): [0:8] expiry as
// Unix nanoseconds big endian (0 = never), rest = value.
func encodeRecord(exp int64, value []byte) []byte {
	b := make([]byte, 8, 8+len(value))
	binary.BigEndian.PutUint64(b, uint64(exp))
	return append(b, value...)
}

func recordExpiry(v []byte) int64 {
	if len(v) < 8 {
		return 0
	}
	return int64(binary.BigEndian.Uint64(v[:8]))
}

func recordValue(v []byte) []byte {
	if len(v) < 8 {
		return nil
	}
	return v[8:]
}

// expiryKey orders the expiry index by time, so Sweep reads only what is due.
func expiryKey(exp int64, rk []byte) []byte {
	b := make([]byte, 8, 8+len(rk))
	binary.BigEndian.PutUint64(b, uint64(exp))
	return append(b, rk...)
}
