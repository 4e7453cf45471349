package dynamo

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bodyzip"
)

// The change log: one row per write (SK C#<seq>), appended in the write's
// transaction on condition that its key is absent, never changed or
// removed. A writer takes the key after the head row's last seq, so the
// rows are always a contiguous run up to the head: a writer that read an
// old head finds the key taken and reads the head again. That is what
// keeps seqs in commit order without a counter item every write would
// have to update (see the package comment).

// histWindow is how many of a document's history rows its item and each
// history entry name (hp, p): a history panel reads this many per round trip.
const histWindow = 8

// logRow is one row of the log.
type logRow struct {
	seq      uint64
	id, rev  string
	deleted  bool
	docs     int64 // live documents after the write
	dels     int64 // tombstones after the write
	hasCount bool  // docs and dels are present (rows of older versions have none)
	bodySize int
	counts   []byte
	unnoted  bool
	hist     *store.Doc // the history entry (Rev and Seq filled by decodeRow)
	prev     []uint64   // the document's history rows before this one, newest first
}

// last is the last seq the row covers.
func (r logRow) last() uint64 {
	if r.hist != nil {
		return r.seq + 1
	}
	return r.seq
}

func rowKey(db string, seq uint64) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(dbPK(db)), attrSK: str(changeSK(seq))}
}

func rowItem(db string, r logRow) map[string]types.AttributeValue {
	item := rowKey(db, r.seq)
	item[attrID] = str(r.id)
	item[attrRev] = str(r.rev)
	if r.deleted {
		item[attrDeleted] = boolean(true)
	}
	item[attrLiveCount] = numInt(r.docs)
	item[attrDelsCount] = numInt(r.dels)
	item[attrBodySize] = numInt(int64(r.bodySize))
	if len(r.counts) > 0 {
		item[attrCounts] = &types.AttributeValueMemberB{Value: r.counts}
	}
	if r.unnoted {
		item[attrUnnoted] = boolean(true)
	}
	if h := r.hist; h != nil {
		item[attrSeqs] = numInt(2)
		item[attrHist] = &types.AttributeValueMemberB{Value: bodyzip.Pack(h.Body)}
		item[attrHistID] = str(h.ID)
		item[attrHistKlass] = str(h.Klass)
		item[attrHistSort] = str(h.SortKey)
		if len(r.prev) > 0 {
			item[attrHistPrev] = &types.AttributeValueMemberB{Value: encodeSeqs(r.prev)}
		}
	}
	return item
}

// decodeRow reads a log row. Rows written by older versions (one row per
// document, no counts) read as rows without counts or notes.
func decodeRow(item map[string]types.AttributeValue) (logRow, error) {
	sk, err := getS(item, attrSK)
	if err != nil {
		return logRow{}, err
	}
	digits, ok := strings.CutPrefix(sk, changePrefix)
	if !ok {
		return logRow{}, fmt.Errorf("dynamo: item %q is not a log row", sk)
	}
	var r logRow
	if r.seq, err = strconv.ParseUint(digits, 10, 64); err != nil {
		return logRow{}, fmt.Errorf("dynamo: log row %q: %w", sk, err)
	}
	if r.id, err = getS(item, attrID); err != nil {
		return logRow{}, err
	}
	if r.rev, err = getS(item, attrRev); err != nil {
		return logRow{}, err
	}
	if v, ok := item[attrDeleted].(*types.AttributeValueMemberBOOL); ok {
		r.deleted = v.Value
	}
	if _, ok := item[attrLiveCount]; ok {
		if r.docs, err = getInt(item, attrLiveCount); err != nil {
			return logRow{}, err
		}
		if r.dels, err = getInt(item, attrDelsCount); err != nil {
			return logRow{}, err
		}
		r.hasCount = true
	}
	if _, ok := item[attrBodySize]; ok {
		n, err := getInt(item, attrBodySize)
		if err != nil {
			return logRow{}, err
		}
		r.bodySize = int(n)
	}
	if v, ok := item[attrCounts].(*types.AttributeValueMemberB); ok {
		r.counts = v.Value
	}
	if v, ok := item[attrUnnoted].(*types.AttributeValueMemberBOOL); ok {
		r.unnoted = v.Value
	}
	if z, ok := item[attrHist].(*types.AttributeValueMemberB); ok {
		body, err := bodyzip.Unpack(z.Value)
		if err != nil {
			return logRow{}, fmt.Errorf("dynamo: history in log row %d: %w", r.seq, err)
		}
		h := store.Doc{Seq: r.seq + 1, Body: body, Rev: store.NextRev("", false, body)}
		h.ID, _ = optS(item, attrHistID)
		h.Klass, _ = optS(item, attrHistKlass)
		h.SortKey, _ = optS(item, attrHistSort)
		r.hist = &h
		if p, ok := item[attrHistPrev].(*types.AttributeValueMemberB); ok {
			r.prev = decodeSeqs(p.Value)
		}
	}
	return r, nil
}

// docRow is the changes-feed row of the row's document write.
func (r logRow) docRow() store.Doc {
	return store.Doc{ID: r.id, Rev: r.rev, Seq: r.seq, Deleted: r.deleted}
}

// logHead is what a writer and a reader need of the log's newest row.
type logHead struct {
	last       uint64 // the db's update seq: the head row's last seq (0: empty)
	docs, dels int64
}

// readHead reads the newest log row (one strongly consistent Query of one
// item). An empty log reads the meta item instead, which tells a missing
// database (ErrDBNotFound) from an empty one, and gives the counts kept
// there by versions before the log (a row without counts does the same).
func (st *Store) readHead(ctx context.Context, db string) (logHead, error) {
	out, err := st.client.Query(ctx, &dynamodb.QueryInput{
		TableName:                &st.table,
		KeyConditionExpression:   aws.String("#pk = :pk AND begins_with(#sk, :c)"),
		ExpressionAttributeNames: map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(dbPK(db)), ":c": str(changePrefix),
		},
		ScanIndexForward: aws.Bool(false),
		Limit:            aws.Int32(1),
		ConsistentRead:   aws.Bool(true),
	})
	if err != nil {
		return logHead{}, fmt.Errorf("dynamo: log head of %s: %w", db, err)
	}
	if len(out.Items) == 1 {
		r, err := decodeRow(out.Items[0])
		if err != nil {
			return logHead{}, fmt.Errorf("dynamo: log head of %s: %w", db, err)
		}
		if r.hasCount {
			return logHead{last: r.last(), docs: r.docs, dels: r.dels}, nil
		}
		m, err := st.readMeta(ctx, db)
		if err != nil {
			return logHead{}, err
		}
		return logHead{last: max(r.last(), m.seq), docs: m.docs, dels: m.dels}, nil
	}
	m, err := st.readMeta(ctx, db)
	if err != nil {
		return logHead{}, err
	}
	return logHead{last: m.seq, docs: m.docs, dels: m.dels}, nil
}

// scanRows queries the log rows with keys in [from, to] (to 0: no upper
// bound) in key order, page by page, handing each to fn until fn returns
// false. pageRows sizes the pages (0: DynamoDB's 1 MB pages).
func (st *Store) scanRows(ctx context.Context, db string, from, to uint64, descending bool, pageRows int, fn func(logRow) (bool, error)) error {
	hi := changePrefix + "99999999999999999999"
	if to > 0 {
		hi = changeSK(to)
	}
	in := &dynamodb.QueryInput{
		TableName:                &st.table,
		KeyConditionExpression:   aws.String("#pk = :pk AND #sk BETWEEN :lo AND :hi"),
		ExpressionAttributeNames: map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(dbPK(db)), ":lo": str(changeSK(from)), ":hi": str(hi),
		},
		ScanIndexForward: aws.Bool(!descending),
		ConsistentRead:   aws.Bool(true),
	}
	if pageRows > 0 {
		in.Limit = aws.Int32(int32(pageRows))
	}
	for {
		out, err := st.client.Query(ctx, in)
		if err != nil {
			return fmt.Errorf("dynamo: log of %s: %w", db, err)
		}
		for _, item := range out.Items {
			r, err := decodeRow(item)
			if err != nil {
				return fmt.Errorf("dynamo: log of %s: %w", db, err)
			}
			more, err := fn(r)
			if err != nil || !more {
				return err
			}
		}
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// ReadLog implements store.ChangeLog.
func (st *Store) ReadLog(ctx context.Context, db string, since uint64, limit int) ([]store.LogEntry, error) {
	if err := checkDB(db); err != nil {
		return nil, err
	}
	var out []store.LogEntry
	// A row covering since+1 starts at since at the lowest.
	from := max(since, 1)
	page := 0
	if limit > 0 {
		page = limit + 1
	}
	err := st.scanRows(ctx, db, from, 0, false, page, func(r logRow) (bool, error) {
		if r.last() <= since {
			return true, nil
		}
		out = append(out, store.LogEntry{Seq: r.seq, Last: r.last(), Noted: !r.unnoted, Counts: r.counts})
		return limit <= 0 || len(out) < limit, nil
	})
	return out, err
}

// SetNoter implements store.ChangeLog.
func (st *Store) SetNoter(n store.Noter) { st.noter.Store(&n) }

func (st *Store) noterOf() store.Noter {
	if p := st.noter.Load(); p != nil {
		return *p
	}
	return nil
}

// History implements store.ChangeLog: a document's entries are found from
// its item's latest history rows (hp) and, from each row, the ones before
// it (p), histWindow per round trip; every entry of the db by reading the
// log.
func (st *Store) History(ctx context.Context, db, id string, limit int) ([]store.Doc, error) {
	if err := checkDB(db); err != nil {
		return nil, err
	}
	var out []store.Doc
	full := func() bool { return limit > 0 && len(out) >= limit }
	if id == "" {
		err := st.scanRows(ctx, db, 1, 0, true, 0, func(r logRow) (bool, error) {
			if r.hist != nil {
				out = append(out, *r.hist)
			}
			return !full(), nil
		})
		if err != nil {
			return nil, err
		}
		if len(out) == 0 {
			return nil, st.requireDB(ctx, db)
		}
		return out, nil
	}
	item, err := st.getItem(ctx, docKey(db, id))
	if err != nil {
		return nil, err
	}
	if item == nil {
		return nil, st.requireDB(ctx, db)
	}
	next := docHistory(item)
	for len(next) > 0 && !full() {
		keys := make([]map[string]types.AttributeValue, len(next))
		for i, seq := range next {
			keys[i] = rowKey(db, seq)
		}
		rows := make(map[uint64]logRow, len(next))
		err := st.batchGet(ctx, keys, func(item map[string]types.AttributeValue) error {
			r, err := decodeRow(item)
			if err == nil {
				rows[r.seq] = r
			}
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("dynamo: history of %s/%s: %w", db, id, err)
		}
		var oldest logRow
		for _, seq := range next {
			r, ok := rows[seq]
			if !ok || r.hist == nil || r.id != id {
				return nil, fmt.Errorf("dynamo: history of %s/%s: row %d missing", db, id, seq)
			}
			out = append(out, *r.hist)
			oldest = r
		}
		next = oldest.prev
	}
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// historyEntry reads the history entry id names (a Noter tells its seq),
// for Get; nil when there is none.
func (st *Store) historyEntry(ctx context.Context, db, id string) (*store.Doc, error) {
	n := st.noterOf()
	if n == nil {
		return nil, nil
	}
	seq, ok := n.HistorySeq(id)
	if !ok {
		return nil, nil
	}
	item, err := st.getItem(ctx, rowKey(db, seq))
	if err != nil || item == nil {
		return nil, err
	}
	r, err := decodeRow(item)
	if err != nil {
		return nil, fmt.Errorf("dynamo: get %s/%s: %w", db, id, err)
	}
	if r.hist == nil || r.hist.ID != id {
		return nil, nil
	}
	return r.hist, nil
}

// getItem is one strongly consistent GetItem; nil when absent.
func (st *Store) getItem(ctx context.Context, key map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	out, err := st.client.GetItem(ctx, &dynamodb.GetItemInput{TableName: &st.table, Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("dynamo: get item: %w", err)
	}
	return out.Item, nil
}
