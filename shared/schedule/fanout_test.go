package schedule

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// twice is SQS's at-least-once delivery made certain: every task goes to
// both queues, each with its own workers (two worker functions), sharing
// the store.
type twice [2]*LocalQueue

func (q twice) Send(ctx context.Context, tasks []Task) error {
	return errors.Join(q[0].Send(ctx, tasks), q[1].Send(ctx, tasks))
}

// groupLedger records what a per-Group job did to each Group.
type groupLedger struct {
	mu       sync.Mutex
	done     map[string]int // successful runs per Group and period
	attempts map[string]int
	running  map[string]bool
	overlaps atomic.Int64
}

func newLedger() *groupLedger {
	return &groupLedger{done: map[string]int{}, attempts: map[string]int{}, running: map[string]bool{}}
}

// seed puts n live Groups (and a few deleted ones, which no job may reach)
// in the accounts db, written concurrently as sign-ups would.
func seedGroups(t *testing.T, st store.Store, n int) (live []string) {
	t.Helper()
	ctx := context.Background()
	if err := st.CreateDB(ctx, ids.AccountsDB); err != nil && !errors.Is(err, store.ErrDBExists) {
		t.Fatal(err)
	}
	names := make([]string, n+n/100)
	for i := range names {
		names[i] = fmt.Sprintf("g%06d", i)
	}
	var wg sync.WaitGroup
	work := make(chan string)
	errs := make(chan error, 1)
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				d, err := st.Put(ctx, ids.AccountsDB, store.Doc{ID: id, Klass: "Account", SortKey: id, Body: []byte(`{"name":"` + id + `"}`)})
				if err == nil && id >= fmt.Sprintf("g%06d", n) {
					_, err = st.Delete(ctx, ids.AccountsDB, id, d.Rev)
				}
				if err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	for _, id := range names {
		work <- id
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	return names[:n]
}

// TestFanOut10000Groups: a per-Group job over 10,000 Groups (DynamoDB
// Local: 100, for time), fired by the in-process scheduler through the
// dispatcher onto two local queues that each receive every task (so every
// task is delivered twice), plus the same firing dispatched once more (an
// EventBridge retry): four deliveries per Group. Each Group's run takes a
// delay of its own, and one Group in 97 fails its first attempt. Every
// Group runs exactly once per firing, none is skipped, the deleted Groups
// are never reached, no Group runs twice at once, and the next firing runs
// every Group once more.
func TestFanOut10000Groups(t *testing.T) {
	for _, tc := range []struct {
		backend string
		groups  int
	}{{"bolt", 10000}, {"dynamo", 100}} {
		t.Run(tc.backend, func(t *testing.T) {
			st := openStore(t, tc.backend)
			live := seedGroups(t, st, tc.groups)
			ledger := newLedger()
			job := module.Job{Name: "test.each", Schedule: "rate(1 hour)", Group: func(ctx context.Context, ev module.JobEvent, db string) error {
				key := db + "@" + ev.Time.Format(time.RFC3339)
				ledger.mu.Lock()
				if ledger.running[db] {
					ledger.overlaps.Add(1)
				}
				ledger.running[db] = true
				ledger.attempts[key]++
				first := ledger.attempts[key] == 1
				ledger.mu.Unlock()
				h := fnv.New32a()
				h.Write([]byte(db))
				sum := h.Sum32()
				time.Sleep(time.Duration(sum%2000) * time.Microsecond) // 0–2 ms, each Group its own
				ledger.mu.Lock()
				defer ledger.mu.Unlock()
				ledger.running[db] = false
				if first && sum%97 == 0 {
					return errors.New("injected failure")
				}
				ledger.done[key]++
				return nil
			}}
			job.Run = module.EachGroup(st, job.Group)
			jobs := []module.Job{job}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var queues twice
			for i := range queues {
				w, err := NewWorker(jobs, WorkerOptions{Store: st})
				if err != nil {
					t.Fatal(err)
				}
				queues[i] = NewLocalQueue(ctx, w.Handle, LocalQueueOptions{Workers: 16, Backoff: 20 * time.Millisecond, MaxAttempts: 8})
				defer queues[i].Close()
			}
			d, err := NewDispatcher(jobs, DispatchOptions{Queue: queues, Groups: StoreGroups(st)})
			if err != nil {
				t.Fatal(err)
			}
			clock := newFakeClock(time.Date(2026, 5, 4, 9, 30, 0, 0, time.UTC))
			s, err := NewScheduler(jobs, d.Handle, SchedulerOptions{Clock: clock})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() { s.Run(ctx); close(done) }()

			for round, at := range []time.Time{
				time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC),
				time.Date(2026, 5, 4, 11, 0, 0, 0, time.UTC),
			} {
				clock.awaitSleep(t)
				clock.Advance(at.Sub(clock.Now()))
				waitIdle(t, s)                                                // the dispatch of the firing has queued its tasks
				if err := d.Handle(ctx, EventFor(job.Name, at)); err != nil { // EventBridge's retry
					t.Fatal(err)
				}
				wctx, wcancel := context.WithTimeout(ctx, 5*time.Minute)
				for _, q := range queues {
					if err := q.Wait(wctx); err != nil {
						t.Fatalf("round %d: the queues did not drain: %v", round, err)
					}
				}
				wcancel()
				for _, q := range queues {
					if dead := q.Dead(); len(dead) > 0 {
						t.Fatalf("round %d: %d tasks failed for good, first %+v", round, len(dead), dead[0])
					}
				}
				ledger.mu.Lock()
				failed := 0
				for _, db := range live {
					key := db + "@" + at.Format(time.RFC3339)
					if n := ledger.done[key]; n != 1 {
						t.Errorf("round %d: Group %s ran %d times", round, db, n)
					}
					if ledger.attempts[key] == 2 {
						failed++
					}
				}
				runs := 0
				for _, n := range ledger.done {
					runs += n
				}
				ledger.mu.Unlock()
				if want := len(live) * (round + 1); runs != want {
					t.Errorf("round %d: %d runs in all, want %d (deleted Groups reached?)", round, runs, want)
				}
				if failed == 0 {
					t.Errorf("round %d: no Group failed its first attempt: the retry path went untested", round)
				}
			}
			if n := ledger.overlaps.Load(); n > 0 {
				t.Errorf("%d runs overlapped a run of the same Group", n)
			}
			cancel()
			<-done
		})
	}
}
