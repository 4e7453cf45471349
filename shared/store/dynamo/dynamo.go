// Package dynamo implements store.Store on one DynamoDB table (DESIGN.md
// §4; schema in table.json, item layout in items.go).
//
// Consistency: Get, DBInfo counts, AllDocs and records use strongly
// consistent reads of the base table. List (GSI1), Changes (GSI2) and
// DBInfo.UpdateSeq (GSI2) read global secondary indexes, which DynamoDB
// updates asynchronously: on AWS they can lag a write by a fraction of a
// second (DynamoDB Local showed no lag, so tests need no retries).
//
// Sequences come from an atomic counter on the db's meta item, taken before
// the conditional document write. A write that then conflicts leaves a gap,
// and two concurrent writers can commit their sequences out of order, so a
// reader of Changes that saw seq N may later find a new row with a seq below
// N. The change-stream consumer reads DynamoDB Streams and is not affected;
// clients polling Changes should re-read a short window behind their cursor.
package dynamo

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"
	"unicode/utf8"

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
	// stateRetries bounds re-planning a write whose guessed prior state
	// was wrong or changed under it.
	stateRetries = 8
)

// Store is a store.Store backed by one DynamoDB table.
type Store struct {
	client *dynamodb.Client
	table  string
}

var _ store.Store = (*Store)(nil)

// New returns a Store on an existing table (see CreateTable).
func New(client *dynamodb.Client, table string) *Store {
	return &Store{client: client, table: table}
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

// DBInfo reads the counts from the meta item and UpdateSeq from the newest
// GSI2 row: the meta seq counter also counts sequences burnt by conflicting
// writes, while the index holds only committed ones.
func (st *Store) DBInfo(ctx context.Context, db string) (store.DBInfo, error) {
	if err := checkDB(db); err != nil {
		return store.DBInfo{}, err
	}
	out, err := st.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      &st.table,
		Key:            metaKey(db),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.DBInfo{}, fmt.Errorf("dynamo: db info %q: %w", db, err)
	}
	if out.Item == nil {
		return store.DBInfo{}, store.ErrDBNotFound
	}
	info := store.DBInfo{Name: db}
	if info.DocCount, err = getInt(out.Item, attrDocCount); err != nil {
		return store.DBInfo{}, err
	}
	if info.DelCount, err = getInt(out.Item, attrDelCount); err != nil {
		return store.DBInfo{}, err
	}
	q, err := st.client.Query(ctx, &dynamodb.QueryInput{
		TableName:                 &st.table,
		IndexName:                 aws.String(gsi2),
		KeyConditionExpression:    aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrGSI2PK, "#seq": attrSeq},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(dbPK(db))},
		ProjectionExpression:      aws.String("#seq"),
		ScanIndexForward:          aws.Bool(false),
		Limit:                     aws.Int32(1),
	})
	if err != nil {
		return store.DBInfo{}, fmt.Errorf("dynamo: db info %q: update seq: %w", db, err)
	}
	if len(q.Items) > 0 {
		if info.UpdateSeq, err = getUint(q.Items[0], attrSeq); err != nil {
			return store.DBInfo{}, err
		}
	}
	return info, nil
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

// nextSeq atomically takes the db's next sequence number; the condition
// keeps writes from creating a meta item for a db that does not exist.
func (st *Store) nextSeq(ctx context.Context, db string) (uint64, error) {
	var out *dynamodb.UpdateItemOutput
	err := retryConflicts(ctx, func() (err error) {
		out, err = st.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 &st.table,
			Key:                       metaKey(db),
			UpdateExpression:          aws.String("ADD #seq :one"),
			ConditionExpression:       aws.String("attribute_exists(#pk)"),
			ExpressionAttributeNames:  map[string]string{"#seq": attrSeq, "#pk": attrPK},
			ExpressionAttributeValues: map[string]types.AttributeValue{":one": numInt(1)},
			ReturnValues:              types.ReturnValueUpdatedNew,
		})
		return err
	})
	if isConditionFailed(err) {
		return 0, store.ErrDBNotFound
	}
	if err != nil {
		return 0, fmt.Errorf("dynamo: next seq of %q: %w", db, err)
	}
	return getUint(out.Attributes, attrSeq)
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

// Get is one strongly consistent GetItem (1 RCU up to 4 KB of item).
func (st *Store) Get(ctx context.Context, db, id string) (store.Doc, error) {
	if err := checkDB(db); err != nil {
		return store.Doc{}, err
	}
	d, found, err := st.getDoc(ctx, db, id)
	if err != nil {
		return store.Doc{}, err
	}
	if !found {
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

type priorState int

const (
	priorMissing priorState = iota
	priorLive
	priorTombstone
)

// prior is the state a write expects to replace; its condition enforces it.
type prior struct {
	state priorState
	rev   string
}

// Put takes a sequence number, then writes the revision on condition that
// the document is still in the expected state. An update of a live doc is
// one PutItem; creates, deletes and revivals also move the db's counters,
// so they are a transaction of the doc and the meta item.
//
// Put guesses the state from Rev: "" a new id, otherwise a live doc. When
// the guess is wrong the failed condition returns the current item (ALL_OLD)
// and the write is re-planned with the same sequence: Rev "" over a
// tombstone revives it, continuing its revision history, and a Rev naming
// the tombstone itself is accepted too, as CouchDB does. Anything else is a
// conflict. So a create costs no read, and a conflict costs the failed
// write (and leaves a gap in the seq counter).
func (st *Store) Put(ctx context.Context, db string, doc store.Doc) (store.Doc, error) {
	if doc.ID == "" {
		return store.Doc{}, errEmptyID
	}
	if len(doc.Body) > store.MaxDocBytes {
		return store.Doc{}, store.ErrTooLarge
	}
	if !utf8.Valid(doc.Body) {
		// The body is stored as a string attribute, which must be UTF-8.
		return store.Doc{}, errNotUTF8
	}
	if err := checkDB(db); err != nil {
		return store.Doc{}, err
	}
	// Guess the common case; a wrong guess comes back with the current item.
	p := prior{state: priorMissing}
	if doc.Rev != "" {
		p = prior{state: priorLive, rev: doc.Rev}
	}

	var seq uint64
	for attempt := 0; ; attempt++ {
		if seq == 0 {
			// A sequence is taken once: after a failed condition it is
			// still unused, so a re-planned write keeps it.
			var err error
			if seq, err = st.nextSeq(ctx, db); err != nil {
				return store.Doc{}, err
			}
		}
		out := doc
		out.Rev = store.NextRev(p.rev, doc.Deleted, doc.Body)
		out.Seq = seq
		cur, err := st.writeDoc(ctx, db, out, p)
		if err == nil {
			return out, nil
		}
		if !errors.Is(err, errCondition) {
			return store.Doc{}, err
		}
		if cur == nil && p.state == priorMissing {
			// The item exists but the failure came without it: read it.
			d, found, err := st.getDoc(ctx, db, doc.ID)
			if err != nil {
				return store.Doc{}, err
			}
			if found {
				cur = &d
			}
		}
		if cur != nil && cur.Rev == out.Rev && cur.Seq == seq {
			// Our own write, applied by an SDK retry whose reply was lost.
			return out, nil
		}
		next, ok := replan(doc.Rev, p, cur)
		if !ok || attempt >= stateRetries {
			return store.Doc{}, store.ErrConflict
		}
		p = next
	}
}

// replan decides, from the item that failed a write's condition (nil if
// there is none), whether the write can still succeed and from what state.
func replan(rev string, p prior, cur *store.Doc) (prior, bool) {
	if rev == "" {
		switch {
		case cur == nil:
			return prior{state: priorMissing}, true
		case cur.Deleted:
			return prior{state: priorTombstone, rev: cur.Rev}, true
		}
		return prior{}, false
	}
	if p.state == priorLive && cur != nil && cur.Deleted && cur.Rev == rev {
		return prior{state: priorTombstone, rev: rev}, true
	}
	return prior{}, false
}

// counterDeltas is the change of (live docs, tombstones) of a write.
func counterDeltas(from priorState, toDeleted bool) (docs, dels int64) {
	switch from {
	case priorLive:
		docs--
	case priorTombstone:
		dels--
	}
	if toDeleted {
		dels++
	} else {
		docs++
	}
	return docs, dels
}

// writeDoc writes d if the item is in state p. On a failed condition it
// returns errCondition and the item DynamoDB compared against (nil when
// there was none).
func (st *Store) writeDoc(ctx context.Context, db string, d store.Doc, p prior) (*store.Doc, error) {
	names := map[string]string{}
	values := map[string]types.AttributeValue{}
	var cond string
	switch p.state {
	case priorMissing:
		cond = "attribute_not_exists(#pk)"
		names["#pk"] = attrPK
	default:
		cond = "#rev = :rev AND #del = :del"
		names["#rev"], names["#del"] = attrRev, attrDeleted
		values[":rev"], values[":del"] = str(p.rev), boolean(p.state == priorTombstone)
	}
	put := &types.Put{
		TableName:                           &st.table,
		Item:                                docItem(db, d),
		ConditionExpression:                 &cond,
		ExpressionAttributeNames:            names,
		ExpressionAttributeValues:           values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
	if len(values) == 0 {
		put.ExpressionAttributeValues = nil // DynamoDB rejects an empty map
	}

	docs, dels := counterDeltas(p.state, d.Deleted)
	if docs == 0 && dels == 0 {
		err := retryConflicts(ctx, func() error {
			_, err := st.client.PutItem(ctx, &dynamodb.PutItemInput{
				TableName:                           put.TableName,
				Item:                                put.Item,
				ConditionExpression:                 put.ConditionExpression,
				ExpressionAttributeNames:            put.ExpressionAttributeNames,
				ExpressionAttributeValues:           put.ExpressionAttributeValues,
				ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
			})
			return err
		})
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			return failedItem(ccf.Item)
		}
		if err != nil {
			return nil, fmt.Errorf("dynamo: put %s/%s: %w", db, d.ID, err)
		}
		return nil, nil
	}

	meta := &types.Update{
		TableName:                &st.table,
		Key:                      metaKey(db),
		UpdateExpression:         aws.String("ADD #dc :dc, #xc :xc"),
		ConditionExpression:      aws.String("attribute_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#dc": attrDocCount, "#xc": attrDelCount, "#pk": attrPK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":dc": numInt(docs), ":xc": numInt(dels),
		},
	}
	// The SDK fills ClientRequestToken, so its own retries of one call are
	// idempotent and cannot count a document twice.
	err := retryConflicts(ctx, func() error {
		_, err := st.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
			TransactItems: []types.TransactWriteItem{{Put: put}, {Update: meta}},
		})
		return err
	})
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		r := tce.CancellationReasons
		if len(r) > 0 && aws.ToString(r[0].Code) == "ConditionalCheckFailed" {
			return failedItem(r[0].Item)
		}
		if len(r) > 1 && aws.ToString(r[1].Code) == "ConditionalCheckFailed" {
			return nil, store.ErrDBNotFound
		}
	}
	if err != nil {
		return nil, fmt.Errorf("dynamo: put %s/%s: %w", db, d.ID, err)
	}
	return nil, nil
}

func failedItem(item map[string]types.AttributeValue) (*store.Doc, error) {
	if len(item) == 0 {
		return nil, errCondition
	}
	d, err := decodeDoc(item)
	if err != nil {
		return nil, err
	}
	return &d, errCondition
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

// Changes queries GSI2, where each doc item sits under its latest seq.
func (st *Store) Changes(ctx context.Context, db string, q store.ChangesQuery) ([]store.Doc, error) {
	if err := checkDB(db); err != nil {
		return nil, err
	}
	in := &dynamodb.QueryInput{
		TableName:                &st.table,
		IndexName:                aws.String(gsi2),
		KeyConditionExpression:   aws.String("#pk = :pk AND #sk > :since"),
		ExpressionAttributeNames: map[string]string{"#pk": attrGSI2PK, "#sk": attrGSI2SK},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": str(dbPK(db)), ":since": str(seqKey(q.Since)),
		},
		ScanIndexForward: aws.Bool(!q.Descending),
	}
	var docs []store.Doc
	for {
		if q.Limit > 0 {
			in.Limit = pageLimit(q.Limit - len(docs))
		}
		out, err := st.client.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("dynamo: changes %s: %w", db, err)
		}
		for _, item := range out.Items {
			d, err := decodeDoc(item)
			if err != nil {
				return nil, fmt.Errorf("dynamo: changes %s: %w", db, err)
			}
			docs = append(docs, d)
		}
		if out.LastEvaluatedKey == nil || (q.Limit > 0 && len(docs) >= q.Limit) {
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
