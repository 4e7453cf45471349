package capacity_test

import (
	"context"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/capacity"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schedule"
)

// measureJobs runs each per-Group scheduled job for the shop's Group, as a
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
		run := func() {
			if err := j.Group(context.Background(), module.JobEvent{Job: j.Name, Time: now}, db); err != nil {
				t.Fatalf("job %s for the shop: %v", j.Name, err)
			}
			e.Drain() // what the job wrote goes through the stream too
		}
		if perDay > 1 {
			// Its steady round: the first after a change (the plan) writes
			// what the next ones find unchanged.
			run()
		}
		r0, w0, _ := e.Meter.Totals()
		run()
		r1, w1, _ := e.Meter.Totals()
		day.Tasks += perDay
		day.Reads += perDay * (r1 - r0)
		day.Writes += perDay * (w1 - w0)
		day.ByJob = append(day.ByJob, capacity.JobDay{Name: j.Name, Tasks: perDay, Reads: perDay * (r1 - r0), Writes: perDay * (w1 - w0)})
	}
	return day
}
