package bolt

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	bbolt "go.etcd.io/bbolt"
)

// Group commit. Every write of the store is a function run in a bbolt
// write transaction; writes that wait at the same time share one
// transaction and its fsyncs, which are most of a commit's time.
//
// The writer that finds no commit running leads: it commits what is
// pending, its own write first, and then hands the lead to the oldest
// writer still waiting, so no writer commits other writers' work for longer
// than one transaction.
//
// bbolt's own Batch holds every batch back for a fixed delay. Here a lone
// writer never waits, and a leader only waits for writers it has reason to
// expect: the ones the previous commit has just answered. Without that, the
// writers of a busy server split into two halves that take turns — the
// half a commit answers comes back while the next commit, carrying the
// other half, is already syncing — and every commit carries half of what it
// could. The wait is bounded by a fraction of the last commit's duration and
// ends early once the expected writers are in or arrivals stop.

const (
	// maxGatherWait bounds how long a leader waits for expected writers.
	maxGatherWait = 2 * time.Millisecond
	// gatherGap ends the wait when no writer arrived for this long.
	gatherGap = 300 * time.Microsecond
)

// errLead is what a waiting writer receives when the lead passes to it.
var errLead = errors.New("bolt: lead the next commit")

// commitCall is one waiting write.
type commitCall struct {
	fn   func(tx *bbolt.Tx) error
	done chan error // buffered: the result, or errLead
}

// committer queues writes for group commit.
type committer struct {
	db       *bbolt.DB
	maxBatch int

	mu      sync.Mutex
	pending []*commitCall
	leading bool          // a writer is committing or about to
	arrived chan struct{} // a writer arrived while the leader gathers (buffered 1)
	// The last commit: how many writes it carried, when it ended and how
	// long it took.
	lastSize int
	lastEnd  time.Time
	lastDur  time.Duration

	commits, writes atomic.Int64 // CommitStats
}

// CommitStats counts the store's write transactions and the writes they
// carried since it was opened: writes per commit is how well concurrent
// writers share fsyncs, and commits per request what a write path costs.
// PageWrites counts the pages the commits wrote (bbolt's TxStats.Write):
// one write call each, most of a commit's time besides its two fdatasyncs,
// so a write that lands on a page of its own (a random key in a large
// bucket) shows here.
type CommitStats struct {
	Commits, Writes, PageWrites int64
}

// CommitStats returns the counts so far.
func (s *Store) CommitStats() CommitStats {
	tx := s.db.Stats().TxStats
	return CommitStats{Commits: s.commit.commits.Load(), Writes: s.commit.writes.Load(), PageWrites: tx.GetWrite()}
}

func newCommitter(db *bbolt.DB, maxBatch int) *committer {
	return &committer{db: db, maxBatch: maxBatch, arrived: make(chan struct{}, 1)}
}

// run commits fn, alone or with the writes waiting with it. fn may run
// more than once (again alone, when its shared transaction failed), so it
// must reset what it records at its start and return only I/O errors.
func (c *committer) run(fn func(tx *bbolt.Tx) error) error {
	call := &commitCall{fn: fn, done: make(chan error, 1)}
	c.mu.Lock()
	c.pending = append(c.pending, call)
	lead := !c.leading
	c.leading = true
	c.mu.Unlock()
	select {
	case c.arrived <- struct{}{}:
	default:
	}
	handedOver := false
	if !lead {
		if err := <-call.done; err != errLead {
			return err
		}
		handedOver = true
	}
	c.lead(handedOver)
	return <-call.done
}

// lead commits one batch (the leader is its first call) and passes the
// lead on. handedOver tells a leader that waited through the previous
// commit from one that arrived when no commit was running.
func (c *committer) lead(handedOver bool) {
	c.mu.Lock()
	c.gather(handedOver)
	n := min(len(c.pending), c.maxBatch)
	calls := c.pending[:n:n]
	c.pending = c.pending[n:]
	c.mu.Unlock()

	start := time.Now()
	err := c.db.Update(func(tx *bbolt.Tx) error {
		for _, call := range calls {
			if err := safely(call.fn, tx); err != nil {
				return err
			}
		}
		return nil
	})
	end := time.Now()

	c.mu.Lock()
	c.lastSize, c.lastEnd, c.lastDur = len(calls), end, end.Sub(start)
	c.commits.Add(1)
	c.writes.Add(int64(len(calls)))
	if len(c.pending) > 0 {
		c.pending[0].done <- errLead
	} else {
		c.leading = false
		c.pending = nil // let the old backing array go
	}
	c.mu.Unlock()

	if err != nil && len(calls) > 1 {
		// One write failed and took the others with it: each runs again
		// alone, so only the failing one sees its error.
		for _, call := range calls {
			call.done <- c.db.Update(func(tx *bbolt.Tx) error { return safely(call.fn, tx) })
		}
		return
	}
	for _, call := range calls {
		call.done <- err
	}
}

// gather waits (c.mu held) for the writers the last commit answered, when
// they are likely to come back: a leader handed the lead waited through
// that commit, so the writers now pending are others and the last commit's
// writers are still to come; a leader that found no commit running may be
// one of them, and waits for the rest if that commit ended moments ago.
func (c *committer) gather(handedOver bool) {
	expect := c.lastSize
	if handedOver {
		expect += len(c.pending)
	}
	expect = min(expect, c.maxBatch)
	wait := min(c.lastDur/2, maxGatherWait)
	if len(c.pending) >= expect || wait <= 0 || time.Since(c.lastEnd) > c.lastDur {
		return
	}
	deadline := time.Now().Add(wait)
	gap := time.NewTimer(gatherGap)
	defer gap.Stop()
	for len(c.pending) < expect {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		gap.Reset(min(gatherGap, left))
		// Drop a signal of an arrival that is already counted.
		select {
		case <-c.arrived:
		default:
		}
		c.mu.Unlock()
		select {
		case <-c.arrived:
			c.mu.Lock()
		case <-gap.C:
			c.mu.Lock()
			return
		}
	}
}

// safely runs fn, turning a panic into an error so that a broken write
// cannot leave the lead stuck and every other writer waiting.
func safely(fn func(tx *bbolt.Tx) error, tx *bbolt.Tx) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("bolt: write panicked: %v", p)
		}
	}()
	return fn(tx)
}
