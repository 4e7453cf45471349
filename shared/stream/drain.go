package stream

import (
	"context"
	"time"

	"github.com/oficina/oficina/shared/store"
)

const (
	// DrainBatch is how many outbox entries one Apply takes.
	DrainBatch = 200
	// drainBackoffMin and drainBackoffMax bound the wait after a failure.
	drainBackoffMin = 100 * time.Millisecond
	drainBackoffMax = 10 * time.Second
	// drainGather is how long Drain waits after a batch of one change
	// before it reads the next; a fuller batch waits less, a full one not
	// at all (more is waiting). Under a steady stream of writes the next
	// batch then carries more changes and the consumer's own commits
	// (history, counters, acknowledgement) come fewer per write: on the
	// embedded store they share fsyncs and pages with the requests', and
	// without the wait they took part in nearly every commit. Since a full
	// batch never waits, the consumer keeps up with any rate it kept up
	// with before; live updates and counters lag by at most this much more.
	drainGather = 50 * time.Millisecond
)

// Drain feeds the store's outbox to the consumer until ctx ends, then
// returns ctx's error: read a batch, apply it, acknowledge it, and sleep on
// the outbox signal when nothing is pending. Entries are acknowledged only
// after Apply succeeded, so a crash in between redelivers them
// (at-least-once; Apply is idempotent). Failures are logged and retried
// with backoff: the outbox keeps the entries meanwhile.
func (c *Consumer) Drain(ctx context.Context, ob store.Outbox) error {
	backoff := time.Duration(0)
	fail := func(what string, err error) {
		backoff = min(max(2*backoff, drainBackoffMin), drainBackoffMax)
		if ctx.Err() == nil {
			c.log.ErrorContext(ctx, "change stream: "+what+" failed, retrying", "err", err, "retry_in", backoff)
		}
	}
	for {
		if backoff > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff):
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		// Take the signal before reading, so an entry committed between the
		// read and the wait still wakes us.
		signal := ob.OutboxSignal()
		entries, err := ob.ReadOutbox(ctx, DrainBatch)
		if err != nil {
			fail("reading the outbox", err)
			continue
		}
		if len(entries) == 0 {
			backoff = 0
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-signal:
			}
			continue
		}
		changes := make([]store.Change, len(entries))
		keys := make([]uint64, len(entries))
		for i, e := range entries {
			changes[i], keys[i] = e.Change, e.Key
		}
		start := time.Now()
		if err := c.Apply(ctx, changes); err != nil {
			fail("applying changes", err)
			continue
		}
		if err := ob.AckOutbox(ctx, keys); err != nil {
			fail("acknowledging the outbox", err)
			continue
		}
		backoff = 0
		c.log.DebugContext(ctx, "change stream applied", "changes", len(changes), "took", time.Since(start))
		if wait := drainGather * time.Duration(DrainBatch-len(entries)) / DrainBatch; wait > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
		}
	}
}
