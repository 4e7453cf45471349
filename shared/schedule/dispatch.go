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

// LeaseKind is the store record kind of running jobs' leases (key: the job).
const LeaseKind = "schedule.lease"

// DefaultLease bounds a run's lease when the context has no deadline: a
// crashed run blocks its job for at most this long.
const DefaultLease = 15 * time.Minute

// ErrUnknownJob: the event names a job no module registered.
var ErrUnknownJob = errors.New("schedule: unknown job")

// Dispatcher runs the job a scheduled event names.
type Dispatcher struct {
	jobs   map[string]module.Job
	leases store.Store
	log    *slog.Logger
	now    func() time.Time
}

// DispatchOptions configures NewDispatcher.
type DispatchOptions struct {
	// Leases, when set, holds a lease record per running job, so that two
	// dispatches of one job (two Lambda invocations, or two processes)
	// never run at once: the second is skipped.
	Leases store.Store
	Log    *slog.Logger
	// Now is the clock of the leases (default time.Now; the stores expire
	// records by the real time).
	Now func() time.Time
}

// NewDispatcher checks every job's schedule and returns a dispatcher.
func NewDispatcher(jobs []module.Job, opts DispatchOptions) (*Dispatcher, error) {
	d := &Dispatcher{jobs: map[string]module.Job{}, leases: opts.Leases, log: opts.Log, now: opts.Now}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.now == nil {
		d.now = time.Now
	}
	for _, j := range jobs {
		if _, err := Parse(j.Schedule); err != nil {
			return nil, fmt.Errorf("job %s: %w", j.Name, err)
		}
		d.jobs[j.Name] = j
	}
	return d, nil
}

// Handle runs the job ev names (the Lambda handler). A job whose previous
// run still holds its lease is skipped without error; a failed run returns
// its error (EventBridge's asynchronous invocation retries it).
func (d *Dispatcher) Handle(ctx context.Context, ev events.CloudWatchEvent) error {
	name, err := JobOf(ev)
	if err != nil {
		return err
	}
	job, ok := d.jobs[name]
	if !ok {
		return fmt.Errorf("%w %q (event %s)", ErrUnknownJob, name, ev.ID)
	}
	release, ok, err := d.lease(ctx, name)
	if err != nil {
		return err
	}
	if !ok {
		d.log.InfoContext(ctx, "job skipped: its previous run is still going", "job", name, "event", ev.ID)
		return nil
	}
	defer release()
	start := time.Now()
	at := ev.Time.UTC()
	if at.IsZero() {
		at = d.now().UTC()
	}
	err = job.Run(ctx, module.JobEvent{Job: name, Time: at})
	if err != nil {
		d.log.ErrorContext(ctx, "job failed", "job", name, "event", ev.ID, "took", time.Since(start), "err", err)
		return fmt.Errorf("job %s: %w", name, err)
	}
	d.log.InfoContext(ctx, "job done", "job", name, "event", ev.ID, "took", time.Since(start))
	return nil
}

// lease takes the job's lease record; ok is false when another run holds
// it. release deletes it only while it is still this run's.
func (d *Dispatcher) lease(ctx context.Context, job string) (release func(), ok bool, err error) {
	if d.leases == nil {
		return func() {}, true, nil
	}
	ttl := DefaultLease
	if dl, has := ctx.Deadline(); has {
		ttl = time.Until(dl) + time.Minute
	}
	var tok [16]byte
	_, _ = rand.Read(tok[:])
	token := []byte(hex.EncodeToString(tok[:]))
	rec := store.Record{Kind: LeaseKind, Key: job, Value: token, ExpiresAt: d.now().Add(ttl)}
	switch err := d.leases.PutRecord(ctx, rec, true); {
	case errors.Is(err, store.ErrExists):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("schedule: lease of %s: %w", job, err)
	}
	return func() {
		// A fresh context: the run's may be cancelled, the lease must still go.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		err := d.leases.Transact(ctx, []store.RecordWrite{{Record: store.Record{Kind: LeaseKind, Key: job}, Delete: true, Expect: token}})
		if err != nil && !errors.Is(err, store.ErrConflict) {
			d.log.WarnContext(ctx, "releasing a job lease failed; it expires by itself", "job", job, "err", err)
		}
	}, true, nil
}
