package dynamo

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
)

// Item layout (single table, see table.json and DESIGN.md §4):
//
//	doc      PK=DB#<db>       SK=D#<id>    rev seq deleted klass sk body
//	                                       GSI1PK=DB#<db>#<klass> GSI1SK=<sk>#<id>  (live docs with a klass)
//	change   PK=DB#<db>       SK=C#<seq>   id rev deleted  (one per document, at its latest seq; 20 digits)
//	db meta  PK=DB#<db>       SK=M         seq doc_count del_count tok
//	record   PK=R#<kind>#<key> SK=R        value | n, exp, ttl, tok
//
// Database names and record kinds never contain '#' (rejected up front), so
// every key above splits back unambiguously and no two tenants share one.
// In a db's partition "C#…" < "D#…" < "M", so the changes feed, the
// documents and the meta item are three separate key ranges.
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
	attrDocCount = "doc_count"
	attrDelCount = "del_count"
	attrValue    = "value" // record value (B)
	attrCounter  = "n"     // Incr counter (N); reads back as a decimal Value
	attrExp      = "exp"   // record expiry, Unix nanoseconds (N); absent = never
	attrTTL      = "ttl"   // exp rounded up to seconds, for DynamoDB's TTL sweeper
	attrToken    = "tok"   // random id of a create-if-absent write (see CreateDB)
	attrID       = "id"    // the document id of a change row

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
// sees them.
func docItem(db string, d store.Doc) map[string]types.AttributeValue {
	item := docKey(db, d.ID)
	item[attrRev] = str(d.Rev)
	item[attrSeq] = numUint(d.Seq)
	item[attrDeleted] = boolean(d.Deleted)
	item[attrBody] = str(string(d.Body))
	if d.Klass != "" {
		item[attrKlass] = str(d.Klass)
	}
	if d.SortKey != "" {
		item[attrSortKey] = str(d.SortKey)
	}
	if !d.Deleted && d.Klass != "" {
		item[attrGSI1PK] = str(gsi1PK(db, d.Klass))
		item[attrGSI1SK] = str(gsi1SK(d.SortKey, d.ID))
	}
	return item
}

// changeItem is the changes-feed row of a revision: small (no body), in the
// base table so that it is read with strong consistency.
func changeItem(db string, d store.Doc) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		attrPK:      str(dbPK(db)),
		attrSK:      str(changeSK(d.Seq)),
		attrID:      str(d.ID),
		attrRev:     str(d.Rev),
		attrDeleted: boolean(d.Deleted),
	}
}

func changeKey(db string, seq uint64) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(dbPK(db)), attrSK: str(changeSK(seq))}
}

// decodeChange reads a change row back as a Doc without body, klass or
// sort key.
func decodeChange(item map[string]types.AttributeValue) (store.Doc, error) {
	sk, err := getS(item, attrSK)
	if err != nil {
		return store.Doc{}, err
	}
	digits, ok := strings.CutPrefix(sk, changePrefix)
	if !ok {
		return store.Doc{}, fmt.Errorf("dynamo: item %q is not a change row", sk)
	}
	var d store.Doc
	if d.Seq, err = strconv.ParseUint(digits, 10, 64); err != nil {
		return store.Doc{}, fmt.Errorf("dynamo: change row %q: %w", sk, err)
	}
	if d.ID, err = getS(item, attrID); err != nil {
		return store.Doc{}, err
	}
	if d.Rev, err = getS(item, attrRev); err != nil {
		return store.Doc{}, err
	}
	if v, ok := item[attrDeleted].(*types.AttributeValueMemberBOOL); ok {
		d.Deleted = v.Value
	}
	return d, nil
}

// DocFromItem turns a document item (a query result or a DynamoDB Streams
// image) into its database name and store.Doc; ok is false for any other
// item (db meta, records) or a malformed one.
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
	if body, ok := optS(item, attrBody); ok && body != "" {
		d.Body = []byte(body)
	}
	return d, nil
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
