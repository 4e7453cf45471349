package dynamo

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bodyzip"
)

// Item layout (single table, see table.json and DESIGN.md §4):
//
//	doc      PK=DB#<db>       SK=D#<id>    rev seq deleted body|z t hp [klass sk]
//	                                       GSI1PK=DB#<db>#<klass> GSI1SK=<sk>#<id>  (live docs with a klass)
//	log row  PK=DB#<db>       SK=C#<seq>   id rev [deleted] dc xc bs [n] [cd] [un] [h hid hkl hk p]
//	db meta  PK=DB#<db>       SK=M         seq doc_count del_count tok   (written by CreateDB only)
//	record   PK=R#<kind>#<key> SK=R        value | n, exp, ttl, tok
//
// A document's body is stored zstd-compressed in z (bodyzip) when that is
// smaller, else as the string body. klass and sk are left out of a live
// document's item when its GSI1 keys carry them. t is the random token of
// the write attempt that stored the revision (a retried write recognises
// its own), hp the seqs of the document's latest log rows that carry a
// history entry, newest first (the history panel's way in).
//
// The log has one row per write, appended in the write's transaction and
// never changed or removed (log.go): the document's id, rev and deleted
// flag; dc and xc, the db's live and deleted document counts after the
// write; bs, the body's size; cd, the write's change to the counters (a
// Noter's, opaque here); un when no Noter noted it; and, when the write
// has a history entry, that entry (hid id, hkl klass, hk sort key, h body
// compressed) with p, the history rows of the same document before it. A
// row with a history entry covers two seqs (n = 2): its key is the
// document's seq and the next seq is the entry's.
//
// Database names and record kinds never contain '#' (rejected up front), so
// every key above splits back unambiguously and no two tenants share one.
// In a db's partition "C#…" < "D#…" < "M", so the log, the documents and
// the meta item are three separate key ranges.
const (
	attrPK       = "PK"
	attrSK       = "SK"
	attrGSI1PK   = "GSI1PK"
	attrGSI1SK   = "GSI1SK"
	attrRev      = "rev"
	attrSeq      = "seq"
	attrDeleted  = "deleted"
	attrKlass    = "klass"
	attrSortKey  = "sk"
	attrBody     = "body"
	attrZBody    = "z"  // the body, compressed (B)
	attrAttempt  = "t"  // the write attempt's token (B)
	attrHistSeqs = "hp" // a document's latest history rows (B, uvarints)
	attrDocCount = "doc_count"
	attrDelCount = "del_count"
	attrValue    = "value" // record value (B)
	attrCounter  = "n"     // Incr counter (N); reads back as a decimal Value
	attrExp      = "exp"   // record expiry, Unix nanoseconds (N); absent = never
	attrTTL      = "ttl"   // exp rounded up to seconds, for DynamoDB's TTL sweeper
	attrToken    = "tok"   // random id of a create-if-absent write (see CreateDB)
	attrID       = "id"    // the document id of a log row

	// log rows
	attrSeqs      = "n"   // seqs the row covers when not 1 (N)
	attrLiveCount = "dc"  // live documents after the write (N)
	attrDelsCount = "xc"  // tombstones after the write (N)
	attrBodySize  = "bs"  // the document body's size (N)
	attrCounts    = "cd"  // the write's counter delta (B)
	attrUnnoted   = "un"  // written without a Noter (BOOL)
	attrHist      = "h"   // the history entry's body, compressed (B)
	attrHistID    = "hid" // the history entry's id (S)
	attrHistKlass = "hkl" // its klass (S)
	attrHistSort  = "hk"  // its sort key (S)
	attrHistPrev  = "p"   // the document's history rows before this one (B, uvarints)

	gsi1 = "GSI1"

	dbPrefix     = "DB#"
	docPrefix    = "D#"
	changePrefix = "C#"
	metaSK       = "M"
	recPrefix    = "R#"
	recSK        = "R"
)

func dbPK(db string) string          { return dbPrefix + db }
func docSK(id string) string         { return docPrefix + id }
func gsi1PK(db, klass string) string { return dbPrefix + db + "#" + klass }

// gsi1SK orders a klass by sort key, ties by id. The '#' separator keeps
// that order as long as sort keys do not contain bytes below '#' (the API
// layer uses timestamps).
func gsi1SK(sortKey, id string) string { return sortKey + "#" + id }

// seqKey pads seq so that string order is numeric order.
func seqKey(seq uint64) string { return fmt.Sprintf("%020d", seq) }

// changeSK is the sort key of the change row at seq.
func changeSK(seq uint64) string { return changePrefix + seqKey(seq) }

func recPK(kind, key string) string { return recPrefix + kind + "#" + key }

func str(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func num(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func numInt(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}
func numUint(v uint64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatUint(v, 10)}
}
func boolean(v bool) types.AttributeValue { return &types.AttributeValueMemberBOOL{Value: v} }

func docKey(db, id string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(dbPK(db)), attrSK: str(docSK(id))}
}

func metaKey(db string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(dbPK(db)), attrSK: str(metaSK)}
}

func recKey(kind, key string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(recPK(kind, key)), attrSK: str(recSK)}
}

// docItem is the full item of one stored revision. Tombstones keep klass
// and sk (the stream consumer reads them) but leave GSI1, so List never
// sees them. attempt is the write attempt's token; hist the document's
// latest history rows.
func docItem(db string, d store.Doc, attempt []byte, hist []uint64) map[string]types.AttributeValue {
	item := docKey(db, d.ID)
	item[attrRev] = str(d.Rev)
	item[attrSeq] = numUint(d.Seq)
	item[attrDeleted] = boolean(d.Deleted)
	if z := bodyzip.Pack(d.Body); bodyzip.Packed(z) {
		item[attrZBody] = &types.AttributeValueMemberB{Value: z}
	} else {
		item[attrBody] = str(string(d.Body))
	}
	if len(attempt) > 0 {
		item[attrAttempt] = &types.AttributeValueMemberB{Value: attempt}
	}
	if len(hist) > 0 {
		item[attrHistSeqs] = &types.AttributeValueMemberB{Value: encodeSeqs(hist)}
	}
	if !d.Deleted && d.Klass != "" {
		// The index keys carry klass and sort key; decodeDoc reads them back.
		item[attrGSI1PK] = str(gsi1PK(db, d.Klass))
		item[attrGSI1SK] = str(gsi1SK(d.SortKey, d.ID))
		return item
	}
	if d.Klass != "" {
		item[attrKlass] = str(d.Klass)
	}
	if d.SortKey != "" {
		item[attrSortKey] = str(d.SortKey)
	}
	return item
}

// DocFromItem turns a document item (a query result or a DynamoDB Streams
// image) into its database name and store.Doc; ok is false for any other
// item (log rows, db meta, records) or a malformed one.
func DocFromItem(item map[string]types.AttributeValue) (db string, doc store.Doc, ok bool) {
	pk, err := getS(item, attrPK)
	if err != nil || !strings.HasPrefix(pk, dbPrefix) {
		return "", store.Doc{}, false
	}
	doc, err = decodeDoc(item)
	if err != nil {
		return "", store.Doc{}, false
	}
	return strings.TrimPrefix(pk, dbPrefix), doc, true
}

func decodeDoc(item map[string]types.AttributeValue) (store.Doc, error) {
	sk, err := getS(item, attrSK)
	if err != nil {
		return store.Doc{}, err
	}
	id, ok := strings.CutPrefix(sk, docPrefix)
	if !ok {
		return store.Doc{}, fmt.Errorf("dynamo: item %q is not a document", sk)
	}
	d := store.Doc{ID: id}
	if d.Rev, err = getS(item, attrRev); err != nil {
		return store.Doc{}, err
	}
	if d.Seq, err = getUint(item, attrSeq); err != nil {
		return store.Doc{}, err
	}
	if v, ok := item[attrDeleted].(*types.AttributeValueMemberBOOL); ok {
		d.Deleted = v.Value
	}
	d.Klass, _ = optS(item, attrKlass)
	d.SortKey, _ = optS(item, attrSortKey)
	if pk, ok := optS(item, attrGSI1PK); ok && d.Klass == "" {
		// DB#<db>#<klass>: db names hold no '#'.
		if i := strings.LastIndexByte(pk, '#'); i >= 0 {
			d.Klass = pk[i+1:]
		}
	}
	if gsk, ok := optS(item, attrGSI1SK); ok && d.SortKey == "" {
		d.SortKey = strings.TrimSuffix(gsk, "#"+id)
	}
	if z, ok := item[attrZBody].(*types.AttributeValueMemberB); ok {
		if d.Body, err = bodyzip.Unpack(z.Value); err != nil {
			return store.Doc{}, fmt.Errorf("dynamo: body of %q: %w", id, err)
		}
	} else if body, ok := optS(item, attrBody); ok && body != "" {
		d.Body = []byte(body)
	}
	return d, nil
}

// docAttempt and docHistory read the write token and history rows of a
// document item.
func docAttempt(item map[string]types.AttributeValue) []byte {
	if v, ok := item[attrAttempt].(*types.AttributeValueMemberB); ok {
		return v.Value
	}
	return nil
}

func docHistory(item map[string]types.AttributeValue) []uint64 {
	if v, ok := item[attrHistSeqs].(*types.AttributeValueMemberB); ok {
		return decodeSeqs(v.Value)
	}
	return nil
}

// encodeSeqs packs seqs as uvarints (a few bytes each).
func encodeSeqs(seqs []uint64) []byte {
	b := make([]byte, 0, 3*len(seqs))
	for _, s := range seqs {
		b = binary.AppendUvarint(b, s)
	}
	return b
}

func decodeSeqs(b []byte) []uint64 {
	var out []uint64
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return out
		}
		out = append(out, v)
		b = b[n:]
	}
	return out
}

func getS(item map[string]types.AttributeValue, name string) (string, error) {
	v, ok := item[name].(*types.AttributeValueMemberS)
	if !ok {
		return "", fmt.Errorf("dynamo: attribute %s missing or not a string", name)
	}
	return v.Value, nil
}

func optS(item map[string]types.AttributeValue, name string) (string, bool) {
	v, ok := item[name].(*types.AttributeValueMemberS)
	if !ok {
		return "", false
	}
	return v.Value, true
}

func getN(item map[string]types.AttributeValue, name string) (string, error) {
	v, ok := item[name].(*types.AttributeValueMemberN)
	if !ok {
		return "", fmt.Errorf("dynamo: attribute %s missing or not a number", name)
	}
	return v.Value, nil
}

func getUint(item map[string]types.AttributeValue, name string) (uint64, error) {
	v, err := getN(item, name)
	if err != nil {
		return 0, err
	}
	u, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("dynamo: attribute %s: %w", name, err)
	}
	return u, nil
}

func getInt(item map[string]types.AttributeValue, name string) (int64, error) {
	v, err := getN(item, name)
	if err != nil {
		return 0, err
	}
	i, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("dynamo: attribute %s: %w", name, err)
	}
	return i, nil
}

// Record expiry is kept in Unix nanoseconds (exact, any year) because TTL
// seconds are too coarse for short windows; ttl is only for the sweeper.

var nanosPerSecond = big.NewInt(int64(time.Second))

func expNanos(t time.Time) string {
	v := new(big.Int).Mul(big.NewInt(t.Unix()), nanosPerSecond)
	return v.Add(v, big.NewInt(int64(t.Nanosecond()))).String()
}

func expTime(v string) (time.Time, error) {
	i, ok := new(big.Int).SetString(v, 10)
	if !ok {
		return time.Time{}, fmt.Errorf("dynamo: bad expiry %q", v)
	}
	sec, nsec := new(big.Int).DivMod(i, nanosPerSecond, new(big.Int))
	if !sec.IsInt64() {
		return time.Time{}, fmt.Errorf("dynamo: expiry %q out of range", v)
	}
	return time.Unix(sec.Int64(), nsec.Int64()), nil
}

// ttlSeconds rounds up so that the sweeper never removes a record before
// its exact expiry.
func ttlSeconds(t time.Time) int64 {
	sec := t.Unix()
	if t.Nanosecond() > 0 {
		sec++
	}
	return sec
}

// setExpiry adds exp and ttl for a non-zero expiry.
func setExpiry(item map[string]types.AttributeValue, at time.Time) {
	if at.IsZero() {
		return
	}
	item[attrExp] = num(expNanos(at))
	item[attrTTL] = numInt(ttlSeconds(at))
}

// decodeRecord reads a record item; live is false when it has expired.
func decodeRecord(kind, key string, item map[string]types.AttributeValue, now time.Time) (r store.Record, live bool, err error) {
	r = store.Record{Kind: kind, Key: key}
	if v, ok := item[attrExp].(*types.AttributeValueMemberN); ok {
		if r.ExpiresAt, err = expTime(v.Value); err != nil {
			return store.Record{}, false, err
		}
		if !r.ExpiresAt.After(now) {
			return store.Record{}, false, nil
		}
	}
	switch v := item[attrValue].(type) {
	case *types.AttributeValueMemberB:
		if len(v.Value) > 0 {
			r.Value = v.Value
		}
	case nil:
		if c, ok := item[attrCounter].(*types.AttributeValueMemberN); ok {
			r.Value = []byte(c.Value)
		}
	default:
		return store.Record{}, false, errors.New("dynamo: record value is not binary")
	}
	return r, true, nil
}

// A List cursor is the GSI1 sort key and the table sort key of the last
// doc of a page; the partition keys are rebuilt from the query, so a cursor
// can never reach another db or klass.
func encodeCursor(d store.Doc) string {
	b, _ := json.Marshal([2]string{gsi1SK(d.SortKey, d.ID), docSK(d.ID)})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(c, db, pk string) (map[string]types.AttributeValue, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errCursor, err)
	}
	var k [2]string
	if err := json.Unmarshal(b, &k); err != nil {
		return nil, fmt.Errorf("%w: %w", errCursor, err)
	}
	if !strings.HasPrefix(k[1], docPrefix) {
		return nil, errCursor
	}
	return map[string]types.AttributeValue{
		attrGSI1PK: str(pk), attrGSI1SK: str(k[0]),
		attrPK: str(dbPK(db)), attrSK: str(k[1]),
	}, nil
}
