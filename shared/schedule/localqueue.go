package schedule

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

// LocalQueue is the local server's stand-in for the SQS queue and the
// worker functions on it: tasks wait in memory and Workers goroutines
// hand them to the same Worker the Lambda runs. A task that fails comes
// back after a growing delay, MaxAttempts times at most, then is logged as
// dead (the dead-letter queue's part). Like the in-process scheduler it
// keeps nothing across a restart.
type LocalQueue struct {
	handle func(context.Context, Task) error
	opts   LocalQueueOptions
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	pending []queued
	active  int // workers running
	delayed int // failed tasks waiting to come back
	idle    chan struct{}
	dead    []Task
}

type queued struct {
	task     Task
	attempts int
}

// LocalQueueOptions configures NewLocalQueue.
type LocalQueueOptions struct {
	// Workers is how many tasks run at once (default 8).
	Workers int
	// MaxAttempts is how often a task is tried before it is dead (default 5).
	MaxAttempts int
	// Backoff is the delay before the first retry, doubled each time
	// (default 5 s).
	Backoff time.Duration
	Log     *slog.Logger
}

// NewLocalQueue returns a queue whose workers call handle; they run under
// ctx, and stop taking tasks when it ends.
func NewLocalQueue(ctx context.Context, handle func(context.Context, Task) error, opts LocalQueueOptions) *LocalQueue {
	if opts.Workers <= 0 {
		opts.Workers = 8
	}
	if opts.MaxAttempts <= 0 {
		opts.MaxAttempts = 5
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 5 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	q := &LocalQueue{handle: handle, opts: opts}
	q.ctx, q.cancel = context.WithCancel(ctx)
	return q
}

// Send implements Queue.
func (q *LocalQueue) Send(ctx context.Context, tasks []Task) error {
	if err := q.ctx.Err(); err != nil {
		return errors.New("schedule: the local queue is closed")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, t := range tasks {
		q.pending = append(q.pending, queued{task: t})
	}
	q.startWorkersLocked()
	return nil
}

func (q *LocalQueue) startWorkersLocked() {
	for q.active < q.opts.Workers && q.active < len(q.pending) {
		q.active++
		go q.work()
	}
}

func (q *LocalQueue) work() {
	for {
		q.mu.Lock()
		if len(q.pending) == 0 || q.ctx.Err() != nil {
			q.active--
			q.signalIdleLocked()
			q.mu.Unlock()
			return
		}
		next := q.pending[0]
		q.pending[0] = queued{}
		q.pending = q.pending[1:]
		q.mu.Unlock()

		err := q.handle(q.ctx, next.task)
		if err == nil || q.ctx.Err() != nil {
			continue
		}
		// A task another worker holds is not a failure: it comes back
		// after Backoff until that worker is done (or its claim expired).
		inFlight := errors.Is(err, ErrInFlight)
		if !inFlight {
			next.attempts++
		}
		if next.attempts >= q.opts.MaxAttempts {
			q.opts.Log.Error("scheduled task failed for good", "job", next.task.Job, "group", next.task.Group,
				"scheduled", next.task.Time, "attempts", next.attempts, "err", err)
			q.mu.Lock()
			q.dead = append(q.dead, next.task)
			q.mu.Unlock()
			continue
		}
		delay := q.opts.Backoff
		if !inFlight {
			delay <<= next.attempts - 1
			q.opts.Log.Warn("scheduled task failed; it is tried again", "job", next.task.Job, "group", next.task.Group,
				"attempt", next.attempts, "in", delay, "err", err)
		}
		q.mu.Lock()
		q.delayed++
		q.mu.Unlock()
		time.AfterFunc(delay, func() {
			q.mu.Lock()
			defer q.mu.Unlock()
			q.delayed--
			if q.ctx.Err() != nil {
				q.signalIdleLocked()
				return
			}
			q.pending = append(q.pending, next)
			q.startWorkersLocked()
		})
	}
}

func (q *LocalQueue) signalIdleLocked() {
	if q.active == 0 && q.delayed == 0 && len(q.pending) == 0 && q.idle != nil {
		close(q.idle)
		q.idle = nil
	}
}

// Wait returns when no task is waiting, running or due to come back, or
// when ctx ends.
func (q *LocalQueue) Wait(ctx context.Context) error {
	q.mu.Lock()
	if q.active == 0 && q.delayed == 0 && len(q.pending) == 0 {
		q.mu.Unlock()
		return nil
	}
	if q.idle == nil {
		q.idle = make(chan struct{})
	}
	idle := q.idle
	q.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Dead lists the tasks that failed MaxAttempts times.
func (q *LocalQueue) Dead() []Task {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]Task(nil), q.dead...)
}

// Close stops the workers after the tasks they are running; waiting tasks
// are dropped.
func (q *LocalQueue) Close() { q.cancel() }
