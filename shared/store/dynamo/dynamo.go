// Package dynamo implements store.Store on one DynamoDB table (DESIGN.md
// §4; schema in table.json, item layout in items.go).
//
// Consistency: Get, DBInfo, AllDocs, Changes and records use strongly
// consistent reads of the base table. Only List reads a global secondary
// index (GSI1), which DynamoDB updates asynchronously: on AWS it can lag a
// write by a fraction of a second.
//
// The changes feed is gap-free and commits in seq order. Every document
// write is one transaction of two items: the document, and the write's row
// in the db's append-only log (log.go) under the key after the head row's,
// on condition that the key is free. So seqs are taken in commit order,
// none is burnt by a conflict, and a document's seqs only grow; Changes
// reads the head row first and returns rows up to it only, so a client
// following last_seq never steps over a write that commits later with a
// lower seq. Writes to one db are serialised on the log's next key (a
// transaction that lost the race reads the head again and tries again),
// which bounds one db to roughly one commit per round trip under
// contention; writes that arrive together share one transaction.
//
// The log row also carries what the change stream used to write after the
// fact: the write's history entry and its change to the counters, computed
// when the write is planned by the Noter the consumer installs
// (store.ChangeLog). A 1 KB document's create or update then costs 4 WCU
// in the transaction (document and row, 1 KB units doubled), 1 in GSI1 and
// 1 for the counters the stream folds per db and batch.
package dynamo

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
)

var (
	errEmptyID   = errors.New("dynamo: empty document id")
	errNotUTF8   = errors.New("dynamo: document body is not valid UTF-8")
	errCursor    = errors.New("dynamo: invalid list cursor")
	errNotCount  = errors.New("dynamo: record is not a counter")
	errHashInKey = errors.New("dynamo: '#' is not allowed in database names and record kinds")
	// errCondition is internal: a conditional write found another state.
	errCondition = errors.New("dynamo: condition failed")
)

const (
	// conflictRetries bounds retries of requests cancelled by a concurrent
	// transaction on the same item (the SDK does not retry those).
	conflictRetries = 10
)

// Store is a store.Store backed by one DynamoDB table.
type Store struct {
	client *dynamodb.Client
	table  string

	// mu guards queues: the document writes of each db waiting for its
	// committer (write.go).
	mu     sync.Mutex
	queues map[string]*writeQueue

	noter atomic.Pointer[store.Noter] // notes each write (SetNoter); nil: none
}

var (
	_ store.Store     = (*Store)(nil)
	_ store.ChangeLog = (*Store)(nil)
)

// New returns a Store on an existing table (see CreateTable).
func New(client *dynamodb.Client, table string) *Store {
	return &Store{client: client, table: table, queues: map[string]*writeQueue{}}
}

// Close does nothing: the client is the caller's.
func (st *Store) Close() error { return nil }

// checkDB rejects names that could make keys of two databases collide; such
// a database cannot have been created.
func checkDB(db string) error {
	if strings.Contains(db, "#") {
		return store.ErrDBNotFound
	}
	return nil
}

// ---- databases ----

// CreateDB writes the db's meta item if it is absent. The item carries a
// random token so that an SDK retry of a create whose reply was lost finds
// its own item and succeeds instead of reporting ErrDBExists.
func (st *Store) CreateDB(ctx context.Context, db string) error {
	if strings.Contains(db, "#") {
		return fmt.Errorf("create db %q: %w", db, errHashInKey)
	}
	tok := newToken()
	item := metaKey(db)
	item[attrSeq] = numInt(0)
	item[attrDocCount] = numInt(0)
	item[attrDelCount] = numInt(0)
	item[attrToken] = str(tok)
	_, err := st.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                           &st.table,
		Item:                                item,
		ConditionExpression:                 aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames:            map[string]string{"#pk": attrPK},
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if old, _ := optS(ccf.Item, attrToken); old == tok {
			return nil
		}
		return store.ErrDBExists
	}
	if err != nil {
		return fmt.Errorf("dynamo: create db %q: %w", db, err)
	}
	return nil
}

// DBInfo is one strongly consistent read of the log's head row (of the
// meta item when the log is empty): its last seq is the seq of the latest
// committed write, and it carries the counts after that write.
func (st *Store) DBInfo(ctx context.Context, db string) (store.DBInfo, error) {
	if err := checkDB(db); err != nil {
		return store.DBInfo{}, err
	}
	h, err := st.readHead(ctx, db)
	if err != nil {
		return store.DBInfo{}, err
	}
	return store.DBInfo{Name: db, DocCount: h.docs, DelCount: h.dels, UpdateSeq: h.last}, nil
}

// meta is a db's meta item.
type meta struct {
	seq        uint64
	docs, dels int64
}

func decodeMeta(item map[string]types.AttributeValue) (meta, error) {
	var m meta
	var err error
	if m.seq, err = getUint(item, attrSeq); err != nil {
		return meta{}, err
	}
	if m.docs, err = getInt(item, attrDocCount); err != nil {
		return meta{}, err
	}
	if m.dels, err = getInt(item, attrDelCount); err != nil {
		return meta{}, err
	}
	return m, nil
}

// readMeta reads the meta item; ErrDBNotFound when there is none.
func (st *Store) readMeta(ctx context.Context, db string) (meta, error) {
	out, err := st.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      &st.table,
		Key:            metaKey(db),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return meta{}, fmt.Errorf("dynamo: db info %q: %w", db, err)
	}
	if out.Item == nil {
		return meta{}, store.ErrDBNotFound
	}
	m, err := decodeMeta(out.Item)
	if err != nil {
		return meta{}, fmt.Errorf("dynamo: db info %q: %w", db, err)
	}
	return m, nil
}

// dbExists tells ErrDBNotFound from an empty answer; it runs only on the
// paths that found nothing, so hits pay nothing for it.
func (st *Store) dbExists(ctx context.Context, db string) (bool, error) {
	out, err := st.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:                &st.table,
		Key:                      metaKey(db),
		ConsistentRead:           aws.Bool(true),
		ProjectionExpression:     aws.String("#pk"),
		ExpressionAttributeNames: map[string]string{"#pk": attrPK},
	})
	if err != nil {
		return false, fmt.Errorf("dynamo: check db %q: %w", db, err)
	}
	return out.Item != nil, nil
}

// requireDB returns ErrDBNotFound for a missing database.
func (st *Store) requireDB(ctx context.Context, db string) error {
	ok, err := st.dbExists(ctx, db)
	if err != nil {
		return err
	}
	if !ok {
		return store.ErrDBNotFound
	}
	return nil
}

// ---- documents ----

// getDoc reads the current item of a document, tombstone or not.
func (st *Store) getDoc(ctx context.Context, db, id string) (store.Doc, bool, error) {
	out, err := st.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      &st.table,
		Key:            docKey(db, id),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.Doc{}, false, fmt.Errorf("dynamo: get %s/%s: %w", db, id, err)
	}
	if out.Item == nil {
		return store.Doc{}, false, nil
	}
	d, err := decodeDoc(out.Item)
	if err != nil {
		return store.Doc{}, false, fmt.Errorf("dynamo: get %s/%s: %w", db, id, err)
	}
	return d, true, nil
}

// Get is one strongly consistent GetItem (1 RCU up to 4 KB of item). A
// history entry, which lives in its write's log row, is found on a miss
// through the seq its id names.
func (st *Store) Get(ctx context.Context, db, id string) (store.Doc, error) {
	if err := checkDB(db); err != nil {
		return store.Doc{}, err
	}
	d, found, err := st.getDoc(ctx, db, id)
	if err != nil {
		return store.Doc{}, err
	}
	if !found {
		if h, err := st.historyEntry(ctx, db, id); err != nil || h != nil {
			if h == nil {
				return store.Doc{}, err
			}
			return *h, nil
		}
		if err := st.requireDB(ctx, db); err != nil {
			return store.Doc{}, err
		}
		return store.Doc{}, store.ErrNotFound
	}
	if d.Deleted {
		return d, store.ErrDeleted
	}
	return d, nil
}

// Delete writes a tombstone with an empty body.
func (st *Store) Delete(ctx context.Context, db, id, rev string) (store.Doc, error) {
	return st.Put(ctx, db, store.Doc{ID: id, Rev: rev, Deleted: true})
}

// batchGet reads keys (any number) with strongly consistent BatchGetItem
// calls of up to 100 keys, retrying unprocessed keys, and hands each item
// found to fn in no particular order.
func (st *Store) batchGet(ctx context.Context, keys []map[string]types.AttributeValue, fn func(map[string]types.AttributeValue) error) error {
	const maxKeys = 100
	for len(keys) > 0 {
		n := min(len(keys), maxKeys)
		pending := map[string]types.KeysAndAttributes{st.table: {Keys: keys[:n], ConsistentRead: aws.Bool(true)}}
		keys = keys[n:]
		for attempt := 0; len(pending) > 0; attempt++ {
			out, err := st.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return err
			}
			for _, item := range out.Responses[st.table] {
				if err := fn(item); err != nil {
					return err
				}
			}
			pending = out.UnprocessedKeys
			if len(pending) > 0 {
				// Throttled or over 16 MB: DynamoDB asks to come back.
				if err := backoff(ctx, attempt); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// newToken returns a random value that tells our own write from others'.
func newToken() string { return crand.Text() }

// ---- queries ----

// pageLimit is the Limit of a query still wanting n items.
func pageLimit(n int) *int32 {
	return aws.Int32(int32(min(n, math.MaxInt32)))
}

// List queries GSI1, one klass of one db in sort-key order. It reads one
// item past the page so that the last page has no Next cursor.
func (st *Store) List(ctx context.Context, db string, q store.ListQuery) (store.Page, error) {
	if err := checkDB(db); err != nil {
		return store.Page{}, err
	}
	pk := gsi1PK(db, q.Klass)
	in := &dynamodb.QueryInput{
		TableName:                 &st.table,
		IndexName:                 aws.String(gsi1),
		KeyConditionExpression:    aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrGSI1PK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pk)},
		ScanIndexForward:          aws.Bool(!q.Descending),
	}
	if q.Prefix != "" {
		// The index key is "<sort key>#<id>", so a sort-key prefix is a
		// key prefix: the query reads only the matching items.
		in.KeyConditionExpression = aws.String("#pk = :pk AND begins_with(#sk, :prefix)")
		in.ExpressionAttributeNames["#sk"] = attrGSI1SK
		in.ExpressionAttributeValues[":prefix"] = str(q.Prefix)
	}
	if q.After != "" {
		key, err := decodeCursor(q.After, db, pk)
		if err != nil {
			return store.Page{}, err
		}
		in.ExclusiveStartKey = key
	}
	var docs []store.Doc
	for {
		if q.Limit > 0 {
			in.Limit = pageLimit(q.Limit + 1 - len(docs))
		}
		out, err := st.client.Query(ctx, in)
		if err != nil {
			return store.Page{}, fmt.Errorf("dynamo: list %s/%s: %w", db, q.Klass, err)
		}
		for _, item := range out.Items {
			d, err := decodeDoc(item)
			if err != nil {
				return store.Page{}, fmt.Errorf("dynamo: list %s/%s: %w", db, q.Klass, err)
			}
			docs = append(docs, d)
		}
		if q.Limit > 0 && len(docs) > q.Limit {
			docs = docs[:q.Limit]
			return store.Page{Docs: docs, Next: encodeCursor(docs[q.Limit-1])}, nil
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	if len(docs) == 0 {
		if err := st.requireDB(ctx, db); err != nil {
			return store.Page{}, err
		}
	}
	return store.Page{Docs: docs}, nil
}

// AllDocs queries the db's partition between D#<low> and D#<high> with
// strongly consistent reads, dropping tombstones (which still cost reads).
func (st *Store) AllDocs(ctx context.Context, db string, q store.AllDocsQuery) ([]store.Doc, error) {
	if err := checkDB(db); err != nil {
		return nil, err
	}
	low, high := q.StartKey, q.EndKey
	if q.Descending {
		low, high = high, low
	}
	lowSK, highSK := docSK(low), docSK(high)
	if high == "" {
		highSK = "D$" // '$' follows '#': above every D#<id>, below the meta item M
	}
	if lowSK > highSK {
		return nil, st.requireDB(ctx, db)
	}
	in := &dynamodb.QueryInput{
		TableName:                &st.table,
		KeyConditionExpression:   aws.String("#pk = :pk AND #sk BETWEEN :lo AND :hi"),
		ExpressionAttributeNames: map[string]string{"#pk": attrPK, "#sk": attrSK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(dbPK(db)), ":lo": str(lowSK), ":hi": str(highSK),
		},
		ScanIndexForward: aws.Bool(!q.Descending),
		ConsistentRead:   aws.Bool(true),
	}
	skip := max(q.Skip, 0)
	var docs []store.Doc
	for {
		if q.Limit > 0 {
			in.Limit = pageLimit(skip + q.Limit - len(docs))
		}
		out, err := st.client.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("dynamo: all docs %s: %w", db, err)
		}
		for _, item := range out.Items {
			d, err := decodeDoc(item)
			if err != nil {
				return nil, fmt.Errorf("dynamo: all docs %s: %w", db, err)
			}
			if d.Deleted {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			docs = append(docs, d)
			if q.Limit > 0 && len(docs) == q.Limit {
				return docs, nil
			}
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	if len(docs) == 0 {
		if err := st.requireDB(ctx, db); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// Changes reads the log (log.go). Ascending, it reads the head row first
// and the rows after q.Since up to it, both strongly consistent: every row
// up to the head has committed, so no row can later appear below a seq
// this answer returned. The log keeps every write, so a document written
// again appears in several rows: within the rows read, only its newest
// counts; when a page stops before the head, the documents of its rows are
// read to drop rows that a later write (up to the head) superseded, and
// the page reads on. Descending, the newest row of each document is the
// first met. History entries are served from their rows. With
// q.IncludeDocs the documents are read too (one BatchGetItem per 100
// rows); a document written again after the head comes back as it is now,
// under the row's seq (its newer row follows later).
func (st *Store) Changes(ctx context.Context, db string, q store.ChangesQuery) ([]store.Doc, error) {
	if err := checkDB(db); err != nil {
		return nil, err
	}
	if q.Descending {
		return st.changesDescending(ctx, db, q)
	}
	head, err := st.readHead(ctx, db)
	if err != nil {
		return nil, err
	}
	if q.Since >= head.last {
		return nil, nil
	}
	f := newFeed(q)
	checked := map[string]store.Doc{} // documents read, by id
	cut := false                      // the scan stopped before the head
	// Pages a little larger than the answer: most rows are live.
	pageRows := 0
	if q.Limit > 0 {
		pageRows = q.Limit + q.Limit/4 + 2
	}
	err = st.scanRows(ctx, db, max(q.Since, 1), head.last, false, pageRows, func(r logRow) (bool, error) {
		f.add(r)
		if !f.full() {
			return true, nil
		}
		// Full before the head: drop the superseded rows of the answer.
		if err := st.dropSuperseded(ctx, db, f, checked, head.last); err != nil {
			return false, err
		}
		cut = f.full()
		return !cut, nil
	})
	if err != nil {
		return nil, err
	}
	return st.answer(ctx, db, f.rows(), q.IncludeDocs, checked)
}

// changesDescending scans the log from the top: the first row met of a
// document is its newest.
func (st *Store) changesDescending(ctx context.Context, db string, q store.ChangesQuery) ([]store.Doc, error) {
	f := newFeed(q)
	seen := map[string]bool{}
	pageRows := 0
	if q.Limit > 0 {
		pageRows = q.Limit + q.Limit/4 + 2
	}
	any := false
	err := st.scanRows(ctx, db, max(q.Since, 1), 0, true, pageRows, func(r logRow) (bool, error) {
		any = true
		if r.last() <= q.Since {
			return false, nil
		}
		if r.hist != nil && r.hist.Seq > q.Since {
			f.push(feedRow{doc: *r.hist, hist: true, size: len(r.hist.Body)})
		}
		if r.seq > q.Since && !seen[r.id] {
			seen[r.id] = true
			f.push(feedRow{doc: r.docRow(), size: r.bodySize})
		}
		return !f.full(), nil
	})
	if err != nil {
		return nil, err
	}
	if !any {
		if err := st.requireDB(ctx, db); err != nil {
			return nil, err
		}
	}
	return st.answer(ctx, db, f.rows(), q.IncludeDocs, nil)
}

// feed collects an answer's rows in order, a document's older rows
// dropped when its newer one is added, up to the query's limit and byte
// bound.
type feed struct {
	q     store.ChangesQuery
	list  []feedRow
	live  int
	bytes int
	at    map[string]int // document id → index of its live row
}

type feedRow struct {
	doc  store.Doc
	hist bool // a history entry, served from its log row
	size int  // the body's size
	gone bool // superseded
}

func newFeed(q store.ChangesQuery) *feed { return &feed{q: q, at: map[string]int{}} }

// add appends the rows of one log row (ascending scans).
func (f *feed) add(r logRow) {
	if r.seq > f.q.Since {
		if i, ok := f.at[r.id]; ok {
			f.drop(i)
		}
		f.at[r.id] = len(f.list)
		f.push(feedRow{doc: r.docRow(), size: r.bodySize})
	}
	if r.hist != nil && r.hist.Seq > f.q.Since {
		f.push(feedRow{doc: *r.hist, hist: true, size: len(r.hist.Body)})
	}
}

func (f *feed) push(r feedRow) {
	f.list = append(f.list, r)
	f.live++
	f.bytes += r.size
}

func (f *feed) drop(i int) {
	if f.list[i].gone {
		return
	}
	f.list[i].gone = true
	f.live--
	f.bytes -= f.list[i].size
}

// full reports whether the answer has its rows: the limit, or (with
// documents) the byte bound, which the sizes noted in the log tell before
// any document is read.
func (f *feed) full() bool {
	if f.q.Limit > 0 && f.live >= f.q.Limit {
		return true
	}
	return f.q.IncludeDocs && f.q.MaxBytes > 0 && f.live > 0 && f.bytes >= f.q.MaxBytes
}

// rows returns the live rows, within the limit and the byte bound.
func (f *feed) rows() []feedRow {
	var out []feedRow
	bytes := 0
	for _, r := range f.list {
		if r.gone {
			continue
		}
		if f.q.Limit > 0 && len(out) == f.q.Limit {
			break
		}
		if f.q.IncludeDocs && f.q.MaxBytes > 0 && len(out) > 0 && bytes >= f.q.MaxBytes {
			break
		}
		out = append(out, r)
		bytes += r.size
	}
	return out
}

// dropSuperseded reads the documents of the answer's rows not read yet and
// drops the rows whose document was written again up to head (its newer
// row is further on in the log).
func (st *Store) dropSuperseded(ctx context.Context, db string, f *feed, checked map[string]store.Doc, head uint64) error {
	var keys []map[string]types.AttributeValue
	for _, r := range f.list {
		if r.gone || r.hist {
			continue
		}
		if _, ok := checked[r.doc.ID]; !ok {
			keys = append(keys, docKey(db, r.doc.ID))
			checked[r.doc.ID] = store.Doc{}
		}
	}
	if len(keys) > 0 {
		err := st.batchGet(ctx, keys, func(item map[string]types.AttributeValue) error {
			d, err := decodeDoc(item)
			if err == nil {
				checked[d.ID] = d
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("dynamo: changes %s: documents: %w", db, err)
		}
	}
	for i, r := range f.list {
		if r.gone || r.hist {
			continue
		}
		if cur := checked[r.doc.ID]; cur.Seq > r.doc.Seq && cur.Seq <= head {
			f.drop(i)
			delete(f.at, r.doc.ID)
		}
	}
	return nil
}

// answer turns the feed's rows into the answer; with documents, it reads
// those not read yet and puts each under its row's seq (history rows
// carry theirs already).
func (st *Store) answer(ctx context.Context, db string, rows []feedRow, includeDocs bool, known map[string]store.Doc) ([]store.Doc, error) {
	out := make([]store.Doc, len(rows))
	var keys []map[string]types.AttributeValue
	byID := map[string]store.Doc{}
	for i, r := range rows {
		out[i] = r.doc
		if !includeDocs || r.hist {
			if !includeDocs && r.hist {
				out[i] = store.Doc{ID: r.doc.ID, Rev: r.doc.Rev, Seq: r.doc.Seq}
			}
			continue
		}
		if d, ok := known[r.doc.ID]; ok && d.ID != "" {
			byID[r.doc.ID] = d
			continue
		}
		if _, ok := byID[r.doc.ID]; !ok {
			byID[r.doc.ID] = store.Doc{}
			keys = append(keys, docKey(db, r.doc.ID))
		}
	}
	if !includeDocs {
		return out, nil
	}
	err := st.batchGet(ctx, keys, func(item map[string]types.AttributeValue) error {
		d, err := decodeDoc(item)
		if err != nil {
			return err
		}
		byID[d.ID] = d
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("dynamo: changes %s: documents: %w", db, err)
	}
	for i, r := range rows {
		if r.hist {
			continue
		}
		d := byID[r.doc.ID]
		if d.ID == "" {
			return nil, fmt.Errorf("dynamo: changes %s: row %d names missing document %q", db, r.doc.Seq, r.doc.ID)
		}
		d.Seq = r.doc.Seq
		out[i] = d
	}
	return out, nil
}

// ---- errors and retries ----

func isConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}

// isTxnConflict reports a request that lost a race with a transaction on
// the same item and can simply be sent again. A cancelled transaction
// whose own condition failed is not retried: that is a real answer.
func isTxnConflict(err error) bool {
	var tc *types.TransactionConflictException
	if errors.As(err, &tc) {
		return true
	}
	var tce *types.TransactionCanceledException
	if !errors.As(err, &tce) {
		return false
	}
	conflict := false
	for _, r := range tce.CancellationReasons {
		switch aws.ToString(r.Code) {
		case "ConditionalCheckFailed":
			return false
		case "TransactionConflict":
			conflict = true
		}
	}
	return conflict
}

// retryConflicts runs fn again, with jittered backoff, while it loses races
// with concurrent transactions.
func retryConflicts(ctx context.Context, fn func() error) error {
	for attempt := 0; ; attempt++ {
		err := fn()
		if err == nil || attempt >= conflictRetries || !isTxnConflict(err) {
			return err
		}
		backoff := min(5*time.Millisecond<<attempt, 250*time.Millisecond)
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (after %v)", ctx.Err(), err)
		case <-time.After(rand.N(backoff) + time.Millisecond):
		}
	}
}
