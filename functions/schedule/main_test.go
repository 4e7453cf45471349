package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/reader"
	"github.com/oficina/oficina/shared/schedule"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

var update = flag.Bool("update", false, "rewrite jobs.json from the registered jobs")

// jobsFile is what the stack reads to make one EventBridge rule per job.
const jobsFile = "jobs.json"

type jobEntry struct {
	Name     string `json:"name"`
	Schedule string `json:"schedule"`
}

// TestJobsFile: jobs.json lists exactly the jobs the modules register, with
// their schedules, so the stack's rules and the registry cannot drift.
// After adding or changing a job: go test ./functions/schedule -run TestJobsFile -update
func TestJobsFile(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	var want []jobEntry
	for _, j := range e.App.Modules.Jobs() {
		if _, err := schedule.Parse(j.Schedule); err != nil {
			t.Fatalf("job %s: %v", j.Name, err)
		}
		want = append(want, jobEntry{Name: j.Name, Schedule: j.Schedule})
	}
	raw, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, '\n')
	if *update {
		if err := os.WriteFile(jobsFile, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(jobsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, raw) {
		t.Fatalf("%s is out of date (run go test ./functions/schedule -run TestJobsFile -update):\n got %s\nwant %s", jobsFile, got, raw)
	}
	if len(want) == 0 {
		t.Fatal("no jobs registered")
	}
}

// TestWire builds the function as main does, from the environment, against
// DynamoDB Local, and feeds it the sample scheduled event: the job it names
// runs (the reader's refresh round creates its directory), and its lease is
// released.
func TestWire(t *testing.T) {
	endpoint, client := ddblocal.Start(t)
	table := ddblocal.TableName(t)
	if err := dynamo.CreateTable(t.Context(), client, table); err != nil {
		t.Fatal(err)
	}
	creds, err := client.Options().Credentials.Retrieve(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", creds.AccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", creds.SecretAccessKey)
	t.Setenv("AWS_REGION", client.Options().Region)
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	env := map[string]string{"OFICINA_TABLE": table, "OFICINA_DYNAMO_ENDPOINT": endpoint, "OFICINA_MAIL_FROM": "Oficina <no-reply@oficina.test>"}
	a, err := wire(t.Context(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "eventbridge-scheduled.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.CloudWatchEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	if job, err := schedule.JobOf(ev); err != nil || job != reader.JobRefresh {
		t.Fatalf("the sample names %q (%v)", job, err)
	}
	if err := a.Jobs.Handle(t.Context(), ev); err != nil {
		t.Fatal(err)
	}
	st := dynamo.New(client, table)
	if _, err := st.DBInfo(t.Context(), reader.DirectoryDB); err != nil {
		t.Fatalf("the refresh round did not run: %v", err)
	}
	if _, err := st.GetRecord(t.Context(), schedule.LeaseKind, reader.JobRefresh); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("lease left: %v", err)
	}
	// An event for a job nobody registered fails the invocation.
	if err := a.Jobs.Handle(t.Context(), schedule.EventFor("nobody.registered", ev.Time)); !errors.Is(err, schedule.ErrUnknownJob) {
		t.Fatalf("unknown job: %v", err)
	}
}
