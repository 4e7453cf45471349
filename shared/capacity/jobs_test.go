package capacity_test

import (
	"context"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/capacity"
	"github.com/oficina/oficina/shared/schedule"
)

// measureJobs runs each per-Group scheduled job for the shop's Group as the
// worker runs its task (a job firing more than once a day runs twice and
// its second task is counted), and adds up a day of them: each job's tasks a
// day (its schedule's firings, counted over a week) times the capacity
// units its task took on DynamoDB Local.
func measureJobs(t testing.TB, e *apptest.Env, db string) capacity.Jobs {
	t.Helper()
	var day capacity.Jobs
	now := time.Now().UTC()
	for _, j := range e.App.Modules.Jobs() {
		if j.Group == nil {
			continue // a round for the whole deployment, not per tenant
		}
		expr, err := schedule.Parse(j.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		firings := 0
		for at, end := expr.Next(now), now.Add(7*24*time.Hour); at.Before(end); at = expr.Next(at) {
			firings++
		}
		perDay := float64(firings) / 7
		// Through the worker, as functions/worker runs a queued task: its
		// run record (claimed, then done) included.
		run := func(at time.Time) {
			if err := e.App.Worker.Handle(context.Background(), schedule.Task{Job: j.Name, Group: db, Time: at}); err != nil {
				t.Fatalf("job %s for the shop: %v", j.Name, err)
			}
			e.Drain() // what the job wrote goes through the stream too
		}
		if perDay > 1 {
			// Its steady round: the first after a change (the plan) writes
			// what the next ones find unchanged.
			run(now.Add(-time.Hour))
		}
		r0, w0, _ := e.Meter.Totals()
		run(now)
		r1, w1, _ := e.Meter.Totals()
		day.Tasks += perDay
		day.Reads += perDay * (r1 - r0)
		day.Writes += perDay * (w1 - w0)
		day.ByJob = append(day.ByJob, capacity.JobDay{Name: j.Name, Tasks: perDay, Reads: perDay * (r1 - r0), Writes: perDay * (w1 - w0)})
	}
	return day
}
