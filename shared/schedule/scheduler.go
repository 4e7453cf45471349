package schedule

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/module"
)

// Handler handles one scheduled event: Dispatcher.Handle, as on Lambda.
type Handler func(ctx context.Context, ev events.CloudWatchEvent) error

// Clock is the scheduler's time source (tests move it by hand).
type Clock interface {
	Now() time.Time
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Scheduler is the in-process stand-in for EventBridge: it fires each job's
// scheduled event at the times its expression gives and hands it to the same
// handler the Lambda runs. A firing that finds the job's previous run still
// going is skipped (and counted), so a job never overlaps itself; missed
// firings (a sleeping laptop) are not caught up, as EventBridge does not
// either.
type Scheduler struct {
	entries []*entry
	handle  Handler
	clock   Clock
	log     *slog.Logger
}

type entry struct {
	job     string
	expr    Expr
	next    time.Time
	running atomic.Bool
	runs    atomic.Int64
	skips   atomic.Int64
}

// SchedulerOptions configures NewScheduler.
type SchedulerOptions struct {
	Clock Clock // default: the real clock
	Log   *slog.Logger
}

// NewScheduler parses every job's schedule; handle receives their events.
func NewScheduler(jobs []module.Job, handle Handler, opts SchedulerOptions) (*Scheduler, error) {
	s := &Scheduler{handle: handle, clock: opts.Clock, log: opts.Log}
	if s.clock == nil {
		s.clock = realClock{}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	for _, j := range jobs {
		e, err := Parse(j.Schedule)
		if err != nil {
			return nil, fmt.Errorf("job %s: %w", j.Name, err)
		}
		s.entries = append(s.entries, &entry{job: j.Name, expr: e})
	}
	return s, nil
}

// Stats is what happened to one job so far.
type Stats struct {
	Runs, Skips int64
	Next        time.Time
}

// Stats returns each job's counts (for tests and logs).
func (s *Scheduler) Stats() map[string]Stats {
	out := make(map[string]Stats, len(s.entries))
	for _, e := range s.entries {
		out[e.job] = Stats{Runs: e.runs.Load(), Skips: e.skips.Load()}
	}
	return out
}

// Run fires jobs until ctx ends, then waits for the runs in flight, which
// see ctx cancelled.
func (s *Scheduler) Run(ctx context.Context) {
	var wg sync.WaitGroup
	defer wg.Wait()
	now := s.clock.Now()
	for _, e := range s.entries {
		e.next = e.expr.Next(now)
		s.log.Debug("job scheduled", "job", e.job, "schedule", e.expr.String(), "next", e.next)
	}
	for {
		var earliest time.Time
		for _, e := range s.entries {
			if !e.next.IsZero() && (earliest.IsZero() || e.next.Before(earliest)) {
				earliest = e.next
			}
		}
		if earliest.IsZero() {
			<-ctx.Done()
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-s.clock.After(earliest.Sub(s.clock.Now())):
		}
		now := s.clock.Now()
		for _, e := range s.entries {
			if e.next.IsZero() || now.Before(e.next) {
				continue
			}
			s.fire(ctx, &wg, e, e.next)
			e.next = e.expr.Next(now)
		}
	}
}

func (s *Scheduler) fire(ctx context.Context, wg *sync.WaitGroup, e *entry, at time.Time) {
	if !e.running.CompareAndSwap(false, true) {
		e.skips.Add(1)
		s.log.Info("job skipped: its previous run is still going", "job", e.job, "scheduled", at)
		return
	}
	e.runs.Add(1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer e.running.Store(false)
		if err := s.handle(ctx, EventFor(e.job, at)); err != nil && ctx.Err() == nil {
			s.log.Error("scheduled job failed", "job", e.job, "scheduled", at, "err", err)
		}
	}()
}
