package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.Main(m)) }

// fakeClock moves only when the test says; After reports each wait on
// waiting so the test knows the scheduler is asleep.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []fakeTimer
	waiting chan struct{}
}

type fakeTimer struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock(t time.Time) *fakeClock {
	return &fakeClock{now: t, waiting: make(chan struct{}, 100)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
	} else {
		c.timers = append(c.timers, fakeTimer{at: c.now.Add(d), ch: ch})
	}
	c.waiting <- struct{}{}
	return ch
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.timers[:0]
	for _, tm := range c.timers {
		if !tm.at.After(c.now) {
			tm.ch <- c.now
		} else {
			kept = append(kept, tm)
		}
	}
	c.timers = kept
}

func (c *fakeClock) awaitSleep(t *testing.T) {
	t.Helper()
	select {
	case <-c.waiting:
	case <-time.After(5 * time.Second):
		t.Fatal("the scheduler did not go back to sleep")
	}
}

// TestSchedulerNoOverlap: a job that runs longer than its period is not
// started again while it runs; the skipped firings are counted; it runs
// again at the first firing after it finished. Each run gets the event of
// its scheduled time, through the handler (the Lambda's shape).
func TestSchedulerNoOverlap(t *testing.T) {
	start := time.Date(2026, 5, 4, 9, 0, 30, 0, time.UTC)
	clock := newFakeClock(start)
	release := make(chan struct{})
	started := make(chan events.CloudWatchEvent, 10)
	handle := func(ctx context.Context, ev events.CloudWatchEvent) error {
		started <- ev
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil
	}
	s, err := NewScheduler([]module.Job{{Name: "slow", Schedule: "rate(1 minute)", Run: func(context.Context, module.JobEvent) error { return nil }}},
		handle, SchedulerOptions{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()

	clock.awaitSleep(t)
	clock.Advance(30 * time.Second) // 09:01:00 — first firing
	ev := <-started
	job, err := JobOf(ev)
	if err != nil || job != "slow" || !ev.Time.Equal(time.Date(2026, 5, 4, 9, 1, 0, 0, time.UTC)) || ev.DetailType != DetailType {
		t.Fatalf("event %+v (%v)", ev, err)
	}
	for range 3 { // 09:02, 09:03, 09:04: still running
		clock.awaitSleep(t)
		clock.Advance(time.Minute)
	}
	clock.awaitSleep(t)
	if st := s.Stats()["slow"]; st.Runs != 1 || st.Skips != 3 {
		t.Fatalf("stats %+v, want 1 run and 3 skips", st)
	}
	release <- struct{}{}
	waitIdle(t, s)
	clock.Advance(time.Minute) // 09:05
	if ev := <-started; !ev.Time.Equal(time.Date(2026, 5, 4, 9, 5, 0, 0, time.UTC)) {
		t.Fatalf("second run at %v", ev.Time)
	}
	clock.awaitSleep(t)
	// Cancelling stops the loop and the run in flight sees it.
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if st := s.Stats()["slow"]; st.Runs != 2 || st.Skips != 3 {
		t.Fatalf("stats %+v", st)
	}
}

// TestSchedulerSeveralJobs: each job fires on its own schedule; a job
// failing does not stop the others.
func TestSchedulerSeveralJobs(t *testing.T) {
	clock := newFakeClock(time.Date(2026, 5, 4, 0, 0, 0, 0, time.UTC))
	var mu sync.Mutex
	got := map[string][]time.Time{}
	counted := []module.Job{
		{Name: "every5", Schedule: "rate(5 minutes)", Run: func(_ context.Context, ev module.JobEvent) error {
			mu.Lock()
			defer mu.Unlock()
			got[ev.Job] = append(got[ev.Job], ev.Time)
			return errors.New("boom")
		}},
		{Name: "hourly", Schedule: "cron(0 * * * ? *)", Run: func(_ context.Context, ev module.JobEvent) error {
			mu.Lock()
			defer mu.Unlock()
			got[ev.Job] = append(got[ev.Job], ev.Time)
			return nil
		}},
	}
	dispatch, err := NewDispatcher(counted, DispatchOptions{Queue: inlineQueue(t, counted)})
	if err != nil {
		t.Fatal(err)
	}
	jobs := []module.Job{{Name: "every5", Schedule: "rate(5 minutes)", Run: noop}, {Name: "hourly", Schedule: "cron(0 * * * ? *)", Run: noop}}
	s, err := NewScheduler(jobs, dispatch.Handle, SchedulerOptions{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	for range 14 { // 70 minutes, five at a time
		clock.awaitSleep(t)
		waitIdle(t, s)
		clock.Advance(5 * time.Minute)
	}
	clock.awaitSleep(t)
	waitIdle(t, s)
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if len(got["every5"]) != 14 || len(got["hourly"]) != 1 {
		t.Fatalf("runs %v", got)
	}
	if !got["hourly"][0].Equal(time.Date(2026, 5, 4, 1, 0, 0, 0, time.UTC)) {
		t.Fatalf("hourly at %v", got["hourly"][0])
	}
}

// waitIdle waits until no job of s is running.
func waitIdle(t *testing.T, s *Scheduler) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, e := range s.entries {
		for e.running.Load() {
			if time.Now().After(deadline) {
				t.Fatal("a run did not finish")
			}
			time.Sleep(time.Millisecond)
		}
	}
}

func noop(context.Context, module.JobEvent) error { return nil }

func TestNewSchedulerRefusesBadSchedules(t *testing.T) {
	_, err := NewScheduler([]module.Job{{Name: "x", Schedule: "rate(5 weeks)", Run: noop}}, nil, SchedulerOptions{})
	if err == nil {
		t.Fatal("accepted rate(5 weeks)")
	}
	if _, err := NewDispatcher([]module.Job{{Name: "x", Schedule: "cron(0 0 * * * *)", Run: noop}}, DispatchOptions{Queue: inline{}}); err == nil {
		t.Fatal("accepted a cron with both days set")
	}
}

// TestSampleEvent feeds events/eventbridge-scheduled.json through the
// dispatcher, as the Lambda receives it.
func TestSampleEvent(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "eventbridge-scheduled.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.CloudWatchEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	var seen module.JobEvent
	jobs := []module.Job{{Name: "reader.refresh", Schedule: "rate(5 minutes)", Run: func(_ context.Context, ev module.JobEvent) error {
		seen = ev
		return nil
	}}}
	d, err := NewDispatcher(jobs, DispatchOptions{Queue: inlineQueue(t, jobs)})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Handle(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if seen.Job != "reader.refresh" || !seen.Time.Equal(time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("ran %+v", seen)
	}
}

// TestDispatchRefuses: events that name no job, an unknown job, or are not
// scheduled events are errors (the Lambda invocation fails, visibly).
func TestDispatchRefuses(t *testing.T) {
	ran := false
	jobs := []module.Job{{Name: "a", Schedule: "rate(1 hour)", Run: func(context.Context, module.JobEvent) error { ran = true; return nil }}}
	d, _ := NewDispatcher(jobs, DispatchOptions{Queue: inlineQueue(t, jobs)})
	noJob := EventFor("a", time.Now())
	noJob.Detail = json.RawMessage(`{}`)
	wrongType := EventFor("a", time.Now())
	wrongType.DetailType = "Object Created"
	badDetail := EventFor("a", time.Now())
	badDetail.Detail = json.RawMessage(`"a"`)
	for name, ev := range map[string]events.CloudWatchEvent{
		"no job": noJob, "wrong type": wrongType, "bad detail": badDetail, "unknown": EventFor("b", time.Now()),
	} {
		if err := d.Handle(context.Background(), ev); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := d.Handle(context.Background(), EventFor("b", time.Now())); !errors.Is(err, ErrUnknownJob) {
		t.Errorf("unknown job: %v", err)
	}
	if ran {
		t.Fatal("a refused event ran the job")
	}
}

// TestWorkerLease: on both stores, a round of a whole-round job whose
// previous round holds the lease is skipped (two workers never overlap);
// the lease goes when the round ends, and an expired lease (a crashed
// run) does not block the job.
func TestWorkerLease(t *testing.T) {
	for _, backend := range []string{"bolt", "dynamo"} {
		t.Run(backend, func(t *testing.T) {
			st := openStore(t, backend)
			var running, runs atomic.Int32
			release := make(chan struct{})
			entered := make(chan struct{}, 2)
			job := module.Job{Name: "reader.refresh", Schedule: "rate(5 minutes)", Run: func(ctx context.Context, _ module.JobEvent) error {
				if running.Add(1) > 1 {
					t.Error("two runs at once")
				}
				runs.Add(1)
				entered <- struct{}{}
				<-release
				running.Add(-1)
				return nil
			}}
			w, err := NewWorker([]module.Job{job}, WorkerOptions{Store: st})
			if err != nil {
				t.Fatal(err)
			}
			at := time.Now().Truncate(time.Minute)
			task := func(d time.Duration) Task { return Task{Job: job.Name, Time: at.Add(d)} }
			first := make(chan error, 1)
			go func() { first <- w.Handle(context.Background(), task(0)) }()
			<-entered
			if err := w.Handle(context.Background(), task(5*time.Minute)); err != nil {
				t.Fatalf("overlapping round: %v", err)
			}
			if runs.Load() != 1 {
				t.Fatalf("the overlapping round ran the job")
			}
			close(release)
			if err := <-first; err != nil {
				t.Fatal(err)
			}
			if _, err := st.GetRecord(context.Background(), LeaseKind, job.Name); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("lease left behind: %v", err)
			}
			if err := w.Handle(context.Background(), task(10*time.Minute)); err != nil || runs.Load() != 2 {
				t.Fatalf("after release: %v, runs %d", err, runs.Load())
			}
			// The same firing delivered again does not run again.
			if err := w.Handle(context.Background(), task(10*time.Minute)); err != nil || runs.Load() != 2 {
				t.Fatalf("a redelivery: %v, runs %d", err, runs.Load())
			}
			// A crashed run's lease expires.
			if err := st.PutRecord(context.Background(), store.Record{Kind: LeaseKind, Key: job.Name, Value: []byte("x"), ExpiresAt: time.Now().Add(-time.Second)}, false); err != nil {
				t.Fatal(err)
			}
			if err := w.Handle(context.Background(), task(15*time.Minute)); err != nil || runs.Load() != 3 {
				t.Fatalf("after an expired lease: %v, runs %d", err, runs.Load())
			}
		})
	}
}

// TestWorkerIdempotentJob: a per-Group job marked Idempotent runs without
// a run record (no claim, no "done": two writes a task saved), so a task
// delivered twice runs twice; an unmarked one runs once and leaves its
// record, on both stores.
func TestWorkerIdempotentJob(t *testing.T) {
	for _, backend := range []string{"bolt", "dynamo"} {
		t.Run(backend, func(t *testing.T) {
			st := openStore(t, backend)
			runs := map[string]int{}
			group := func(name string) func(context.Context, module.JobEvent, string) error {
				return func(context.Context, module.JobEvent, string) error { runs[name]++; return nil }
			}
			jobs := []module.Job{
				{Name: "limits.check", Schedule: "rate(1 hour)", Group: group("limits.check"), Idempotent: true},
				{Name: "backup.scheduled", Schedule: "cron(0 2 * * ? *)", Group: group("backup.scheduled")},
			}
			w, err := NewWorker(jobs, WorkerOptions{Store: st})
			if err != nil {
				t.Fatal(err)
			}
			at := time.Now().Truncate(time.Hour)
			for _, j := range jobs {
				task := Task{Job: j.Name, Group: "acc-0123456789abcdef0123456789abcdef", Time: at}
				for range 2 {
					if err := w.Handle(context.Background(), task); err != nil {
						t.Fatal(err)
					}
				}
				done, err := w.Done(context.Background(), task)
				if err != nil {
					t.Fatal(err)
				}
				if want := map[bool]int{true: 2, false: 1}[j.Idempotent]; runs[j.Name] != want || done == j.Idempotent {
					t.Errorf("%s delivered twice: ran %d times (want %d), run record done %v", j.Name, runs[j.Name], want, done)
				}
			}
		})
	}
}

func openStore(t *testing.T, backend string) store.Store {
	t.Helper()
	switch backend {
	case "bolt":
		st, err := bolt.Open(filepath.Join(t.TempDir(), "s.db"), bolt.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	default:
		_, client := ddblocal.Start(t)
		table := ddblocal.TableName(t)
		if err := dynamo.CreateTable(context.Background(), client, table); err != nil {
			t.Fatal(err)
		}
		return dynamo.New(client, table)
	}
}

// inline is a queue that runs each task at once in the caller, through a
// worker on a real store: the dispatcher's tests see the job run inside
// Handle.
type inline struct{ w *Worker }

func (q inline) Send(ctx context.Context, tasks []Task) error {
	var errs []error
	for _, t := range tasks {
		errs = append(errs, q.w.Handle(ctx, t))
	}
	return errors.Join(errs...)
}

func inlineQueue(t *testing.T, jobs []module.Job) inline {
	t.Helper()
	w, err := NewWorker(jobs, WorkerOptions{Store: openStore(t, "bolt")})
	if err != nil {
		t.Fatal(err)
	}
	return inline{w}
}
