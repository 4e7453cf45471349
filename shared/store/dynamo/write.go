package dynamo

import (
	"bytes"
	"context"
	crand "crypto/rand"
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

// The document write path. Every write of a db appends its row to the
// db's log in the same transaction that writes the document (see log.go
// and the package comment), so writes to one db contend for the next log
// key. Within one process they do not race each other: the writes of a db
// queue up and one committer goroutine commits them in batches, one
// transaction per batch (group commit, as the embedded store's db.Batch
// shares one fsync). A batch of k writes appends k rows. Between processes
// (Lambda instances) the rows' conditions decide, and the loser reads the
// head again and commits again.

const (
	// batchDocs bounds the writes of one transaction: each takes two items
	// (the document and its log row); DynamoDB allows 100.
	batchDocs = 50
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

// planned is a write with its prior state, the revision it will store,
// the token of this attempt and its log row.
type planned struct {
	w       *pendingWrite
	p       prior
	out     store.Doc
	attempt []byte
	hist    []uint64 // the document's history rows after the write
	row     logRow
}

// current is a document's item as a write reads it.
type current struct {
	doc     store.Doc
	attempt []byte
	hist    []uint64
}

// commitBatch reads the log head and the batch's documents, answers the
// writes that conflict, gives the rest consecutive log rows and commits
// them in one transaction. When the transaction loses a race it is planned
// again from the current state. Every write of the batch is answered.
//
// Each attempt stores a fresh random token with the document: a write
// whose transaction's outcome was lost (the call failed, yet it applied)
// finds its own token when it reads the document again and is answered
// as done, while an identical write from another client (same body, so
// the same revision) finds a token that is not its own and gets
// ErrConflict, as CouchDB answers it.
func (st *Store) commitBatch(db string, batch []*pendingWrite) {
	// The calls outlive any one caller: each caller stops waiting when its
	// own context ends, and a transaction sent is applied or not as a whole.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(batch[0].ctx), time.Minute)
	defer cancel()
	answer := func(w *pendingWrite, d store.Doc, err error) { w.done <- writeResult{doc: d, err: err} }
	noter := st.noterOf()
	tried := map[*pendingWrite][][]byte{} // tokens of earlier attempts

	for attempt := 0; ; attempt++ {
		ids := make([]string, len(batch))
		for i, w := range batch {
			ids[i] = w.doc.ID
		}
		head, curs, err := st.readForWrite(ctx, db, ids)
		if err != nil {
			for _, w := range batch {
				answer(w, store.Doc{}, err)
			}
			return
		}
		var plan []planned
		var left []*pendingWrite
		next := head.last + 1
		docs, dels := head.docs, head.dels
		for _, w := range batch {
			cur := curs[w.doc.ID]
			if cur != nil && ownAttempt(tried[w], cur.attempt) {
				// Our own write, applied by an attempt whose reply was lost.
				answer(w, cur.doc, nil)
				continue
			}
			var curDoc *store.Doc
			if cur != nil {
				curDoc = &cur.doc
			}
			p, ok := planWrite(w.doc.Rev, curDoc)
			if !ok {
				answer(w, store.Doc{}, store.ErrConflict)
				continue
			}
			pl := planned{w: w, p: p, out: w.doc, attempt: newAttempt()}
			pl.out.Rev = store.NextRev(p.rev, w.doc.Deleted, w.doc.Body)
			pl.out.Seq = next
			dd, dx := counterDeltas(p.state, pl.out.Deleted)
			docs, dels = docs+dd, dels+dx
			pl.row = logRow{seq: next, id: pl.out.ID, rev: pl.out.Rev, deleted: pl.out.Deleted,
				docs: docs, dels: dels, hasCount: true, bodySize: len(pl.out.Body), unnoted: noter == nil}
			if cur != nil {
				pl.hist = cur.hist
			}
			if noter != nil {
				notes, err := noter.Note(store.Change{DB: db, Old: curDoc, New: pl.out})
				if err != nil {
					answer(w, store.Doc{}, fmt.Errorf("dynamo: note %s/%s: %w", db, w.doc.ID, err))
					continue
				}
				pl.row.counts = notes.Counts
				if notes.History != nil {
					h := *notes.History
					pl.row.hist = &h
					pl.row.prev = pl.hist
					pl.hist = append([]uint64{next}, pl.hist[:min(len(pl.hist), histWindow-1)]...)
				}
			}
			next = pl.row.last() + 1
			plan = append(plan, pl)
			left = append(left, w)
		}
		if len(plan) == 0 {
			return
		}
		err = st.commit(ctx, db, plan)
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
		for _, pl := range plan {
			tried[pl.w] = append(tried[pl.w], pl.attempt)
		}
		if err := backoff(ctx, attempt); err != nil {
			for _, w := range batch {
				answer(w, store.Doc{}, err)
			}
			return
		}
	}
}

// newAttempt returns a write attempt's token.
func newAttempt() []byte {
	b := make([]byte, 8)
	crand.Read(b) // never fails (crypto/rand)
	return b
}

// ownAttempt reports whether token is one of a write's earlier attempts.
func ownAttempt(tokens [][]byte, token []byte) bool {
	for _, t := range tokens {
		if len(token) > 0 && bytes.Equal(t, token) {
			return true
		}
	}
	return false
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

// readForWrite reads the log head and the documents' items (absent ones
// are missing from curs) with strongly consistent reads, side by side.
func (st *Store) readForWrite(ctx context.Context, db string, ids []string) (logHead, map[string]*current, error) {
	var (
		head    logHead
		headErr error
		done    = make(chan struct{})
	)
	go func() {
		defer close(done)
		head, headErr = st.readHead(ctx, db)
	}()
	keys := make([]map[string]types.AttributeValue, 0, len(ids))
	for _, id := range ids {
		keys = append(keys, docKey(db, id))
	}
	curs := make(map[string]*current, len(ids))
	err := st.batchGet(ctx, keys, func(item map[string]types.AttributeValue) error {
		d, err := decodeDoc(item)
		if err != nil {
			return err
		}
		curs[d.ID] = &current{doc: d, attempt: docAttempt(item), hist: docHistory(item)}
		return nil
	})
	<-done
	if headErr != nil {
		return logHead{}, nil, headErr
	}
	if err != nil {
		return logHead{}, nil, fmt.Errorf("dynamo: read %s for a write: %w", db, err)
	}
	return head, curs, nil
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

// commit is the transaction of one batch: per write its document over
// its prior state and its log row, on condition that the row's key is
// still free. When a condition fails or another transaction got in the
// way it returns errCondition.
func (st *Store) commit(ctx context.Context, db string, plan []planned) error {
	items := make([]types.TransactWriteItem, 0, 2*len(plan))
	for _, pl := range plan {
		put := &types.Put{TableName: &st.table, Item: docItem(db, pl.out, pl.attempt, pl.hist)}
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
			types.TransactWriteItem{Put: &types.Put{
				TableName: &st.table, Item: rowItem(db, pl.row),
				ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
				ExpressionAttributeNames: map[string]string{"#pk": attrPK},
			}})
	}
	// The SDK fills ClientRequestToken, so its own retries of one call are
	// idempotent and cannot apply a batch twice.
	_, err := st.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
	if err == nil {
		return nil
	}
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		for _, r := range tce.CancellationReasons {
			switch aws.ToString(r.Code) {
			case "ConditionalCheckFailed", "TransactionConflict":
				return errCondition
			}
		}
	}
	var tc *types.TransactionConflictException
	if errors.As(err, &tc) {
		return errCondition
	}
	return fmt.Errorf("dynamo: write %d documents in %s: %w", len(plan), db, err)
}
