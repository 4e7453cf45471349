package dynamo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
)

// The document write path. Every write of a db takes the db's next seq in
// the same transaction that writes the document (see the package comment),
// so writes to one db contend for its meta item. Within one process they do
// not race each other: the writes of a db queue up and one committer
// goroutine commits them in batches, one transaction per batch (group
// commit, as the embedded store's db.Batch shares one fsync). A batch of k
// writes takes seqs N+1…N+k and moves the meta item once. Between
// processes (Lambda instances) the meta item's condition decides, and the
// loser re-reads and commits again.

const (
	// batchDocs bounds the writes of one transaction: each takes up to 3
	// items (document, new change row, old change row) and the batch one
	// more (the meta item); DynamoDB allows 100.
	batchDocs = 33
	// batchBytes bounds the document bytes of one transaction (DynamoDB
	// allows 4 MB in all); a single larger document still goes alone.
	batchBytes = 3 << 20
	// writeAttempts bounds how often a batch is planned again after losing
	// a race to another process (or after a document changed under it).
	writeAttempts = 100
)

// errBusy: a write kept losing races for writeAttempts.
var errBusy = errors.New("dynamo: database too busy")

type priorState int

const (
	priorMissing priorState = iota
	priorLive
	priorTombstone
)

// prior is the state a write replaces; its transaction's condition
// enforces it.
type prior struct {
	state priorState
	rev   string
	seq   uint64
}

// pendingWrite is one Put waiting for its batch.
type pendingWrite struct {
	ctx  context.Context
	doc  store.Doc
	done chan writeResult // buffered: the committer never blocks on it
}

type writeResult struct {
	doc store.Doc
	err error
}

// writeQueue holds a db's waiting writes; committing is true while its
// committer goroutine runs.
type writeQueue struct {
	pending    []*pendingWrite
	committing bool
}

// Put writes doc if doc.Rev is the current revision ("" when the document
// does not exist or is a tombstone: a revival continues the tombstone's
// revision history; a Rev naming the tombstone itself is accepted too, as
// CouchDB does) and returns it with its new Rev and Seq. Otherwise
// ErrConflict, and nothing is written.
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
	w := &pendingWrite{ctx: ctx, doc: doc, done: make(chan writeResult, 1)}
	st.mu.Lock()
	q := st.queues[db]
	if q == nil {
		q = &writeQueue{}
		st.queues[db] = q
	}
	q.pending = append(q.pending, w)
	start := !q.committing
	q.committing = true
	st.mu.Unlock()
	if start {
		go st.commitQueue(db, q)
	}
	select {
	case r := <-w.done:
		return r.doc, r.err
	case <-ctx.Done():
		// The write may still commit: like any request cut short.
		return store.Doc{}, ctx.Err()
	}
}

// commitQueue commits db's queued writes batch by batch until none is left.
func (st *Store) commitQueue(db string, q *writeQueue) {
	for {
		st.mu.Lock()
		batch := takeBatch(q)
		if len(batch) == 0 {
			q.committing = false
			delete(st.queues, db)
			st.mu.Unlock()
			return
		}
		st.mu.Unlock()
		st.commitBatch(db, batch)
	}
}

// takeBatch removes the next batch from q: writes in arrival order, one per
// document id (a second write of the same id waits for the next batch, so
// it sees the first), within batchDocs and batchBytes. Writes whose caller
// has gone are answered and dropped.
func takeBatch(q *writeQueue) []*pendingWrite {
	var batch, rest []*pendingWrite
	ids := map[string]bool{}
	bytes := 0
	for _, w := range q.pending {
		if err := w.ctx.Err(); err != nil {
			w.done <- writeResult{err: err}
			continue
		}
		full := len(batch) >= batchDocs || (len(batch) > 0 && bytes+len(w.doc.Body) > batchBytes)
		if full || ids[w.doc.ID] {
			rest = append(rest, w)
			continue
		}
		ids[w.doc.ID] = true
		bytes += len(w.doc.Body)
		batch = append(batch, w)
	}
	q.pending = rest
	return batch
}

// planned is a write with its prior state and the revision it will store.
type planned struct {
	w   *pendingWrite
	p   prior
	out store.Doc
}

// commitBatch reads the meta item and the batch's documents (one strongly
// consistent BatchGetItem), answers the writes that conflict, gives the
// rest consecutive seqs and commits them in one transaction. When the
// transaction loses a race it is planned again from the current state;
// when only the seq moved, the failure carries the new seq and no re-read
// is needed. Every write of the batch is answered.
func (st *Store) commitBatch(db string, batch []*pendingWrite) {
	// The calls outlive any one caller: each caller stops waiting when its
	// own context ends, and a transaction sent is applied or not as a whole.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(batch[0].ctx), time.Minute)
	defer cancel()
	answer := func(w *pendingWrite, d store.Doc, err error) { w.done <- writeResult{doc: d, err: err} }

	var (
		m     meta
		curs  map[string]*store.Doc
		known bool // m and curs are current: no need to read them
		tried map[string]store.Doc
	)
	for attempt := 0; ; attempt++ {
		if !known {
			ids := make([]string, len(batch))
			for i, w := range batch {
				ids[i] = w.doc.ID
			}
			var err error
			if m, curs, err = st.readForWrite(ctx, db, ids); err != nil {
				for _, w := range batch {
					answer(w, store.Doc{}, err)
				}
				return
			}
		}
		var plan []planned
		var left []*pendingWrite
		for _, w := range batch {
			cur := curs[w.doc.ID]
			if t, ok := tried[w.doc.ID]; ok && !known && cur != nil && cur.Rev == t.Rev && cur.Seq == t.Seq {
				// Our own write, applied by an SDK retry whose reply was lost.
				answer(w, t, nil)
				continue
			}
			p, ok := planWrite(w.doc.Rev, cur)
			if !ok {
				answer(w, store.Doc{}, store.ErrConflict)
				continue
			}
			out := w.doc
			out.Rev = store.NextRev(p.rev, w.doc.Deleted, w.doc.Body)
			out.Seq = m.seq + uint64(len(plan)) + 1
			plan = append(plan, planned{w: w, p: p, out: out})
			left = append(left, w)
		}
		if len(plan) == 0 {
			return
		}
		seqNow, err := st.commit(ctx, db, plan, m.seq)
		if err == nil {
			for _, pl := range plan {
				answer(pl.w, pl.out, nil)
			}
			return
		}
		if !errors.Is(err, errCondition) || attempt+1 >= writeAttempts {
			if errors.Is(err, errCondition) {
				err = fmt.Errorf("put in %s: %w after %d attempts", db, errBusy, writeAttempts)
			}
			for _, pl := range plan {
				answer(pl.w, store.Doc{}, err)
			}
			return
		}
		batch = left
		tried = make(map[string]store.Doc, len(plan))
		for _, pl := range plan {
			tried[pl.w.doc.ID] = pl.out
		}
		// Only the seq moved, and the failure says to what: plan again
		// from there without reading.
		known = seqNow > m.seq
		if known {
			m.seq = seqNow
		}
		if err := backoff(ctx, attempt); err != nil {
			for _, w := range batch {
				answer(w, store.Doc{}, err)
			}
			return
		}
	}
}

// backoff sleeps a jittered, growing pause before attempt+1.
func backoff(ctx context.Context, attempt int) error {
	d := min(time.Millisecond<<min(attempt, 6), 50*time.Millisecond)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(rand.N(d) + time.Millisecond/2):
		return nil
	}
}

// planWrite decides from the current item (nil if there is none) whether a
// write with the given Rev can succeed, and over what state.
func planWrite(rev string, cur *store.Doc) (prior, bool) {
	switch {
	case cur == nil:
		return prior{state: priorMissing}, rev == ""
	case cur.Deleted:
		p := prior{state: priorTombstone, rev: cur.Rev, seq: cur.Seq}
		return p, rev == "" || rev == cur.Rev
	default:
		return prior{state: priorLive, rev: cur.Rev, seq: cur.Seq}, rev == cur.Rev
	}
}

// readForWrite reads the db's meta item and the documents' items (absent
// ones are missing from curs) with strongly consistent reads.
func (st *Store) readForWrite(ctx context.Context, db string, ids []string) (meta, map[string]*store.Doc, error) {
	keys := make([]map[string]types.AttributeValue, 0, len(ids)+1)
	keys = append(keys, metaKey(db))
	for _, id := range ids {
		keys = append(keys, docKey(db, id))
	}
	var m meta
	curs := make(map[string]*store.Doc, len(ids))
	foundMeta := false
	err := st.batchGet(ctx, keys, func(item map[string]types.AttributeValue) error {
		sk, err := getS(item, attrSK)
		if err != nil {
			return err
		}
		if sk == metaSK {
			foundMeta = true
			m, err = decodeMeta(item)
			return err
		}
		d, err := decodeDoc(item)
		if err != nil {
			return err
		}
		curs[d.ID] = &d
		return nil
	})
	if err != nil {
		return meta{}, nil, fmt.Errorf("dynamo: read %s for a write: %w", db, err)
	}
	if !foundMeta {
		return meta{}, nil, store.ErrDBNotFound
	}
	return m, curs, nil
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

// commit is the transaction of one batch: the meta item from prevSeq to
// the batch's last seq (with the batch's count changes), and per write its
// document over its prior state, its new change row and the removal of its
// old one. When a condition fails or another transaction got in the way it
// returns errCondition, and the db's current seq when the failure told it
// (else 0).
func (st *Store) commit(ctx context.Context, db string, plan []planned, prevSeq uint64) (uint64, error) {
	var docs, dels int64
	items := make([]types.TransactWriteItem, 1, 1+3*len(plan))
	for _, pl := range plan {
		dd, dx := counterDeltas(pl.p.state, pl.out.Deleted)
		docs, dels = docs+dd, dels+dx
		put := &types.Put{TableName: &st.table, Item: docItem(db, pl.out)}
		if pl.p.state == priorMissing {
			put.ConditionExpression = aws.String("attribute_not_exists(#pk)")
			put.ExpressionAttributeNames = map[string]string{"#pk": attrPK}
		} else {
			put.ConditionExpression = aws.String("#rev = :rev AND #del = :del AND #seq = :seq")
			put.ExpressionAttributeNames = map[string]string{"#rev": attrRev, "#del": attrDeleted, "#seq": attrSeq}
			put.ExpressionAttributeValues = map[string]types.AttributeValue{
				":rev": str(pl.p.rev), ":del": boolean(pl.p.state == priorTombstone), ":seq": numUint(pl.p.seq),
			}
		}
		items = append(items,
			types.TransactWriteItem{Put: put},
			types.TransactWriteItem{Put: &types.Put{TableName: &st.table, Item: changeItem(db, pl.out)}})
		if pl.p.state != priorMissing {
			items = append(items, types.TransactWriteItem{Delete: &types.Delete{TableName: &st.table, Key: changeKey(db, pl.p.seq)}})
		}
	}
	update := "SET #seq = :seq"
	names := map[string]string{"#seq": attrSeq}
	values := map[string]types.AttributeValue{":seq": numUint(prevSeq + uint64(len(plan))), ":prev": numUint(prevSeq)}
	if docs != 0 || dels != 0 {
		update += " ADD #dc :dc, #xc :xc"
		names["#dc"], names["#xc"] = attrDocCount, attrDelCount
		values[":dc"], values[":xc"] = numInt(docs), numInt(dels)
	}
	items[0] = types.TransactWriteItem{Update: &types.Update{
		TableName:                           &st.table,
		Key:                                 metaKey(db),
		UpdateExpression:                    &update,
		ConditionExpression:                 aws.String("#seq = :prev"),
		ExpressionAttributeNames:            names,
		ExpressionAttributeValues:           values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}

	// The SDK fills ClientRequestToken, so its own retries of one call are
	// idempotent and cannot apply a batch twice.
	_, err := st.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
	if err == nil {
		return 0, nil
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		var seqNow uint64
		retry, docChanged := false, false
		for i, r := range tce.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "ConditionalCheckFailed":
				retry = true
				if i > 0 {
					docChanged = true
				} else if m, err := decodeMeta(r.Item); err == nil {
					seqNow = m.seq
				}
			case "TransactionConflict":
				retry, docChanged = true, true
			}
		}
		if retry {
			if docChanged {
				seqNow = 0 // read everything again
			}
			return seqNow, errCondition
		}
	}
	var tc *types.TransactionConflictException
	if errors.As(err, &tc) {
		return 0, errCondition
	}
	return 0, fmt.Errorf("dynamo: write %d documents in %s: %w", len(plan), db, err)
}
