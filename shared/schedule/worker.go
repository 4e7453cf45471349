package schedule

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// Task is one unit of a firing: a job for one Group, or the whole round of
// a job that does not run per Group (Group empty). It is the body of an SQS
// message on AWS.
type Task struct {
	Job   string `json:"job"`
	Group string `json:"group,omitempty"`
	// Time is the firing's scheduled time: the period a task is run once in.
	Time time.Time `json:"time"`
	// Event is the scheduled event's id, for the logs.
	Event string `json:"event,omitempty"`
}

// runKey names a task's run record: job, Group and period.
func (t Task) runKey() string {
	return t.Job + "\x00" + t.Group + "\x00" + t.Time.UTC().Format(time.RFC3339)
}

const (
	// LeaseKind is the store record kind of running whole-round jobs'
	// leases (key: the job): two rounds of one job never overlap.
	LeaseKind = "schedule.lease"
	// RunKind is the store record kind of a task's run (key: job, Group,
	// period): "running <token>" while a worker holds it, "done" after.
	RunKind = "schedule.run"
)

// DefaultLease bounds a run's lease when the context has no deadline: a
// crashed run blocks its task for at most this long.
const DefaultLease = 15 * time.Minute

// DoneTTL is how long a finished task is remembered: longer than a task
// can wait in the queue and its dead-letter queue (14 days), so no
// redelivery or redrive runs it again.
const DoneTTL = 15 * 24 * time.Hour

const doneValue = "done"

// ErrInFlight: another worker is running the same task; the queue should
// deliver it again later (it is then found done, or its lease expired).
var ErrInFlight = errors.New("schedule: the task is being run by another worker")

// Worker runs tasks: each task once per job, Group and period however often
// it is delivered, and a whole-round job never twice at once.
type Worker struct {
	jobs  map[string]module.Job
	store store.Store
	log   *slog.Logger
	now   func() time.Time
}

// WorkerOptions configures NewWorker.
type WorkerOptions struct {
	// Store keeps the run records and leases (required).
	Store store.Store
	Log   *slog.Logger
	// Now is the clock of the records (default time.Now; the stores
	// expire records by the real time).
	Now func() time.Time
}

// NewWorker returns a worker for jobs.
func NewWorker(jobs []module.Job, opts WorkerOptions) (*Worker, error) {
	if opts.Store == nil {
		return nil, errors.New("schedule: the worker needs a store for its run records")
	}
	w := &Worker{jobs: map[string]module.Job{}, store: opts.Store, log: opts.Log, now: opts.Now}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if w.now == nil {
		w.now = time.Now
	}
	for _, j := range jobs {
		w.jobs[j.Name] = j
	}
	return w, nil
}

// Handle runs one task. It returns nil when the task ran, had already run,
// or (a whole-round job) found its previous round still going; ErrInFlight
// when another worker holds the same task; the job's error otherwise. On an
// error the task's run record is gone, so a redelivery runs it.
func (w *Worker) Handle(ctx context.Context, t Task) error {
	job, ok := w.jobs[t.Job]
	if !ok {
		return fmt.Errorf("%w %q (event %s)", ErrUnknownJob, t.Job, t.Event)
	}
	if job.Group == nil && t.Group != "" {
		return fmt.Errorf("schedule: task of %s names Group %q, and the job does not run per Group", t.Job, t.Group)
	}
	if job.Group != nil && t.Group == "" {
		return fmt.Errorf("schedule: task of %s names no Group, and the job runs per Group", t.Job)
	}
	if t.Time.IsZero() {
		return fmt.Errorf("schedule: task of %s (%s) has no time", t.Job, t.Group)
	}
	log := w.log.With("job", t.Job, "group", t.Group, "event", t.Event, "scheduled", t.Time)
	// A per-Group job that may run twice keeps no run record
	// (module.Job.Idempotent): its claim stays empty.
	var claim runClaim
	var err error
	if job.Group == nil || !job.Idempotent {
		var ok bool
		if claim, ok, err = w.claim(ctx, t); err != nil || !ok {
			return err
		}
	}
	if job.Group == nil {
		release, held, err := w.lease(ctx, t.Job)
		if err != nil {
			claim.drop(ctx)
			return err
		}
		if !held {
			// As EventBridge with one function did: this round is skipped.
			claim.finish(ctx)
			log.InfoContext(ctx, "job skipped: its previous round is still going")
			return nil
		}
		defer release()
	}
	start := time.Now()
	ev := module.JobEvent{Job: t.Job, Time: t.Time.UTC()}
	if job.Group != nil {
		err = job.Group(ctx, ev, t.Group)
	} else {
		err = job.Run(ctx, ev)
	}
	if err != nil {
		claim.drop(ctx)
		log.ErrorContext(ctx, "job failed", "took", time.Since(start), "err", err)
		return fmt.Errorf("job %s %s: %w", t.Job, t.Group, err)
	}
	claim.finish(ctx)
	log.DebugContext(ctx, "job done", "took", time.Since(start))
	return nil
}

// Done reports whether t has run (its run record says done).
func (w *Worker) Done(ctx context.Context, t Task) (bool, error) {
	rec, err := w.store.GetRecord(ctx, RunKind, t.runKey())
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return string(rec.Value) == doneValue, nil
}

// leaseFor is how long a claim or lease taken under ctx lasts: the run's
// deadline and a minute, so a crashed run's record expires soon after.
func leaseFor(ctx context.Context) time.Duration {
	if dl, has := ctx.Deadline(); has {
		return time.Until(dl) + time.Minute
	}
	return DefaultLease
}

func newToken() []byte {
	var tok [16]byte
	_, _ = rand.Read(tok[:])
	return []byte(hex.EncodeToString(tok[:]))
}

// runClaim is a task's run record while this worker holds it.
type runClaim struct {
	w     *Worker
	key   string
	value []byte
}

// claim takes the task's run record. ok is false, with no error, when the
// task is done already; ErrInFlight when another worker holds it.
func (w *Worker) claim(ctx context.Context, t Task) (runClaim, bool, error) {
	c := runClaim{w: w, key: t.runKey(), value: append([]byte("running "), newToken()...)}
	err := w.store.PutRecord(ctx, store.Record{Kind: RunKind, Key: c.key, Value: c.value, ExpiresAt: w.now().Add(leaseFor(ctx))}, true)
	if err == nil {
		return c, true, nil
	}
	if !errors.Is(err, store.ErrExists) {
		return c, false, fmt.Errorf("schedule: run record of %s %s: %w", t.Job, t.Group, err)
	}
	rec, err := w.store.GetRecord(ctx, RunKind, c.key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// Released or expired in between: the redelivery will take it.
		return c, false, ErrInFlight
	case err != nil:
		return c, false, fmt.Errorf("schedule: run record of %s %s: %w", t.Job, t.Group, err)
	case string(rec.Value) == doneValue:
		w.log.DebugContext(ctx, "task done already", "job", t.Job, "group", t.Group, "scheduled", t.Time)
		return c, false, nil
	default:
		return c, false, ErrInFlight
	}
}

// finish marks the task done, on condition that the claim is still ours.
func (c runClaim) finish(ctx context.Context) {
	if c.w == nil {
		return // no run record (an idempotent job's task)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := c.w.store.Transact(ctx, []store.RecordWrite{{
		Record: store.Record{Kind: RunKind, Key: c.key, Value: []byte(doneValue), ExpiresAt: c.w.now().Add(DoneTTL)},
		Expect: c.value,
	}})
	if err != nil {
		// Our lease ran out and another worker took the task, or the
		// store failed: it may run once more, which the jobs tolerate.
		c.w.log.WarnContext(ctx, "marking a task done failed", "key", c.key, "err", err)
	}
}

// drop removes the claim after a failed run, so a redelivery runs it.
func (c runClaim) drop(ctx context.Context) {
	if c.w == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	err := c.w.store.Transact(ctx, []store.RecordWrite{{Record: store.Record{Kind: RunKind, Key: c.key}, Delete: true, Expect: c.value}})
	if err != nil && !errors.Is(err, store.ErrConflict) {
		c.w.log.WarnContext(ctx, "releasing a task's claim failed; it expires by itself", "key", c.key, "err", err)
	}
}

// lease takes a whole-round job's lease record; held is false when another
// round holds it. release deletes it only while it is still this round's.
func (w *Worker) lease(ctx context.Context, job string) (release func(), held bool, err error) {
	token := newToken()
	rec := store.Record{Kind: LeaseKind, Key: job, Value: token, ExpiresAt: w.now().Add(leaseFor(ctx))}
	switch err := w.store.PutRecord(ctx, rec, true); {
	case errors.Is(err, store.ErrExists):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("schedule: lease of %s: %w", job, err)
	}
	return func() {
		// A fresh context: the run's may be cancelled, the lease must still go.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		err := w.store.Transact(ctx, []store.RecordWrite{{Record: store.Record{Kind: LeaseKind, Key: job}, Delete: true, Expect: token}})
		if err != nil && !errors.Is(err, store.ErrConflict) {
			w.log.WarnContext(ctx, "releasing a job lease failed; it expires by itself", "job", job, "err", err)
		}
	}, true, nil
}

// sqsMargin is the time left under which the worker stops taking a batch's
// next message: it goes back to the queue rather than be cut off.
const sqsMargin = 20 * time.Second

// HandleSQS is the worker Lambda's handler: each message is a Task; the
// messages that failed (or were not started before the deadline came
// near) are reported as partial batch failures, so only they come back,
// and after the queue's receive limit they go to its dead-letter queue.
func (w *Worker) HandleSQS(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	var resp events.SQSEventResponse
	for _, m := range ev.Records {
		fail := func() {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < sqsMargin {
			fail()
			continue
		}
		var t Task
		if err := json.Unmarshal([]byte(m.Body), &t); err != nil {
			w.log.ErrorContext(ctx, "a task message is not a task", "message", m.MessageId, "err", err)
			fail()
			continue
		}
		if err := w.Handle(ctx, t); err != nil {
			if errors.Is(err, ErrInFlight) {
				w.log.InfoContext(ctx, "task in flight elsewhere; it comes back later", "job", t.Job, "group", t.Group)
			}
			fail()
		}
	}
	return resp, nil
}
