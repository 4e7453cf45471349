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

// DetailType is the detail-type of every scheduled event.
const DetailType = "Scheduled Event"

// Detail is the detail of the events the stack's rules send: the rule's
// target input is EventBridge's scheduled event with the job named here
// (an input transformer keeps the real event's id, time, account and
// region), so one function serves every job and the event says which.
type Detail struct {
	Job string `json:"job"`
}

// EventFor builds the scheduled event of one firing of job at t, the same
// shape the Lambda receives; the in-process scheduler sends these.
func EventFor(job string, t time.Time) events.CloudWatchEvent {
	detail, _ := json.Marshal(Detail{Job: job}) // a struct of one string always encodes
	var id [16]byte
	_, _ = rand.Read(id[:])
	return events.CloudWatchEvent{
		Version:    "0",
		ID:         hex.EncodeToString(id[:]),
		DetailType: DetailType,
		Source:     "aws.events",
		AccountID:  "local",
		Time:       t.UTC(),
		Region:     "local",
		Resources:  []string{},
		Detail:     detail,
	}
}

// JobOf returns the job an event names.
func JobOf(ev events.CloudWatchEvent) (string, error) {
	if ev.DetailType != DetailType {
		return "", fmt.Errorf("schedule: event %s has detail-type %q, want %q", ev.ID, ev.DetailType, DetailType)
	}
	var d Detail
	if len(ev.Detail) > 0 {
		if err := json.Unmarshal(ev.Detail, &d); err != nil {
			return "", fmt.Errorf("schedule: event %s: detail: %w", ev.ID, err)
		}
	}
	if d.Job == "" {
		return "", fmt.Errorf("schedule: event %s names no job (detail.job is empty): the rule's target input must carry it", ev.ID)
	}
	return d.Job, nil
}

// ErrUnknownJob: the event names a job no module registered.
var ErrUnknownJob = errors.New("schedule: unknown job")

// Queue takes the tasks of a firing: SQS on AWS (sqsqueue.Queue), goroutines
// in the local server (LocalQueue). A task may be delivered more than
// once; the Worker runs it once.
type Queue interface {
	Send(ctx context.Context, tasks []Task) error
}

// GroupLister walks the live Groups (module.WalkGroups over a store).
type GroupLister func(ctx context.Context, fn func(db string) error) error

// StoreGroups lists the Groups of st.
func StoreGroups(st store.Store) GroupLister {
	return func(ctx context.Context, fn func(db string) error) error { return module.WalkGroups(ctx, st, fn) }
}

// sendBatch is how many tasks the dispatcher hands the queue at once (SQS's
// SendMessageBatch takes 10).
const sendBatch = 10

// Dispatcher turns the scheduled event of a firing into tasks: one per
// Group for a job with Group, one for the round otherwise. It runs no job
// itself, so it finishes in seconds whatever the number of Groups; a
// dispatch that fails part-way is retried whole (EventBridge's retries),
// and the tasks it sends again are skipped by the Worker.
type Dispatcher struct {
	jobs   map[string]module.Job
	queue  Queue
	groups GroupLister
	log    *slog.Logger
	now    func() time.Time
}

// DispatchOptions configures NewDispatcher.
type DispatchOptions struct {
	// Queue receives the tasks (required).
	Queue Queue
	// Groups lists the Groups a per-Group job fans out to (required when
	// a job has Group).
	Groups GroupLister
	Log    *slog.Logger
	// Now stands in for an event without a time (default time.Now).
	Now func() time.Time
}

// NewDispatcher checks every job's schedule and returns a dispatcher.
func NewDispatcher(jobs []module.Job, opts DispatchOptions) (*Dispatcher, error) {
	d := &Dispatcher{jobs: map[string]module.Job{}, queue: opts.Queue, groups: opts.Groups, log: opts.Log, now: opts.Now}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.now == nil {
		d.now = time.Now
	}
	if d.queue == nil {
		return nil, errors.New("schedule: the dispatcher needs a queue")
	}
	for _, j := range jobs {
		if _, err := Parse(j.Schedule); err != nil {
			return nil, fmt.Errorf("job %s: %w", j.Name, err)
		}
		if j.Group != nil && d.groups == nil {
			return nil, fmt.Errorf("job %s runs per Group, and the dispatcher has no list of Groups", j.Name)
		}
		d.jobs[j.Name] = j
	}
	return d, nil
}

// Handle queues the tasks of the firing ev names (the dispatcher Lambda's
// handler, and the in-process scheduler's). An error fails the invocation
// (EventBridge retries it); tasks sent before it are not lost.
func (d *Dispatcher) Handle(ctx context.Context, ev events.CloudWatchEvent) error {
	name, err := JobOf(ev)
	if err != nil {
		return err
	}
	job, ok := d.jobs[name]
	if !ok {
		return fmt.Errorf("%w %q (event %s)", ErrUnknownJob, name, ev.ID)
	}
	at := ev.Time.UTC()
	if at.IsZero() {
		at = d.now().UTC()
	}
	if job.Group == nil {
		if err := d.queue.Send(ctx, []Task{{Job: name, Time: at, Event: ev.ID}}); err != nil {
			return fmt.Errorf("job %s: queue: %w", name, err)
		}
		d.log.InfoContext(ctx, "job queued", "job", name, "event", ev.ID)
		return nil
	}
	start := time.Now()
	batch := make([]Task, 0, sendBatch)
	sent := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := d.queue.Send(ctx, batch); err != nil {
			return err
		}
		sent += len(batch)
		batch = batch[:0]
		return nil
	}
	err = d.groups(ctx, func(db string) error {
		batch = append(batch, Task{Job: name, Group: db, Time: at, Event: ev.ID})
		if len(batch) < sendBatch {
			return nil
		}
		return flush()
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		d.log.ErrorContext(ctx, "job fan-out failed part-way", "job", name, "event", ev.ID, "queued", sent, "err", err)
		return fmt.Errorf("job %s: fan out: %w", name, err)
	}
	d.log.InfoContext(ctx, "job fanned out", "job", name, "event", ev.ID, "groups", sent, "took", time.Since(start))
	return nil
}
