package bolt

import (
	"errors"
	"fmt"
	"sync"

	bbolt "go.etcd.io/bbolt"
)

// Group commit. Every write of the store is a function run in a bbolt
// write transaction; writes that wait at the same time share one
// transaction and its fsyncs. Unlike bbolt's own Batch, which holds every
// batch back for a fixed delay to let it fill, a transaction starts as soon
// as the previous one has committed: a lone writer waits for nothing but
// its fsync, and under load each commit takes everything that arrived
// while the one before it was syncing, however long that took.
//
// The writer that finds no commit running leads: it commits what is
// pending, its own write first, and then hands the lead to the oldest
// writer still waiting, so no writer commits other writers' work for longer
// than one transaction.

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
	// after runs once after every commit, with the commit's transaction
	// size (the file's high-water mark in bytes), outside the transaction.
	after func(size int64)

	mu      sync.Mutex
	pending []*commitCall
	leading bool // a writer is committing or about to
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
	if !lead {
		if err := <-call.done; err != errLead {
			return err
		}
	}
	c.lead()
	return <-call.done
}

// lead commits one batch (the leader is its first call) and passes the
// lead on.
func (c *committer) lead() {
	c.mu.Lock()
	n := min(len(c.pending), c.maxBatch)
	calls := c.pending[:n:n]
	c.pending = c.pending[n:]
	c.mu.Unlock()

	defer func() {
		c.mu.Lock()
		if len(c.pending) > 0 {
			c.pending[0].done <- errLead
		} else {
			c.leading = false
			c.pending = nil // let the old backing array go
		}
		c.mu.Unlock()
	}()
	var size int64
	err := c.db.Update(func(tx *bbolt.Tx) error {
		for _, call := range calls {
			if err := safely(call.fn, tx); err != nil {
				return err
			}
		}
		size = tx.Size()
		return nil
	})
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
	if err == nil && c.after != nil {
		c.after(size)
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
