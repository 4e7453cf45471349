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
	}
}
