package main

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/limits"
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
// DynamoDB Local with 25 Groups, and feeds it the sample scheduled event and
// a per-Group job's: the first becomes one task, the second one task per
// Group, sent to the jobs queue as SQS SendMessageBatch calls of at most
// ten (to a recording endpoint: no SQS server here speaks the SDK's JSON
// protocol). Without a queue the function refuses to start.
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
	var mu sync.Mutex
	var sent []schedule.Task
	calls := 0
	sqs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			QueueUrl string
			Entries  []struct{ Id, MessageBody string }
		}
		if r.Header.Get("X-Amz-Target") != "AmazonSQS.SendMessageBatch" || json.NewDecoder(r.Body).Decode(&in) != nil || len(in.Entries) > 10 {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		type ok struct{ Id, MessageId, MD5OfMessageBody string }
		var out struct{ Successful []ok }
		mu.Lock()
		calls++
		for _, e := range in.Entries {
			var task schedule.Task
			if err := json.Unmarshal([]byte(e.MessageBody), &task); err != nil {
				t.Errorf("message %q: %v", e.MessageBody, err)
			}
			sent = append(sent, task)
			sum := md5.Sum([]byte(e.MessageBody))
			out.Successful = append(out.Successful, ok{Id: e.Id, MessageId: e.Id, MD5OfMessageBody: hex.EncodeToString(sum[:])})
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_ = json.NewEncoder(w).Encode(out)
	}))
	defer sqs.Close()
	t.Setenv("AWS_ACCESS_KEY_ID", creds.AccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", creds.SecretAccessKey)
	t.Setenv("AWS_REGION", client.Options().Region)
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_ENDPOINT_URL_SQS", sqs.URL)
	env := map[string]string{"OFICINA_TABLE": table, "OFICINA_DYNAMO_ENDPOINT": endpoint, "OFICINA_MAIL_FROM": "Oficina <no-reply@oficina.test>"}
	if _, err := wire(t.Context(), func(k string) string { return env[k] }); !errors.Is(err, errNoQueue) {
		t.Fatalf("wired without a queue: %v", err)
	}
	env["OFICINA_JOBS_QUEUE_URL"] = "https://sqs.sa-east-1.amazonaws.com/123456789012/oficina-jobs"
	a, err := wire(t.Context(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	st := dynamo.New(client, table)
	if err := st.CreateDB(t.Context(), ids.AccountsDB); err != nil && !errors.Is(err, store.ErrDBExists) {
		t.Fatal(err)
	}
	for i := range 25 {
		id := fmt.Sprintf("g%02d", i)
		if _, err := st.Put(t.Context(), ids.AccountsDB, store.Doc{ID: id, Klass: "Account", SortKey: id, Body: []byte(`{"name":"x"}`)}); err != nil {
			t.Fatal(err)
		}
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
	if len(sent) != 1 || sent[0] != (schedule.Task{Job: reader.JobRefresh, Time: ev.Time, Event: ev.ID}) {
		t.Fatalf("sent %+v", sent)
	}
	sent, calls = nil, 0
	if err := a.Jobs.Handle(t.Context(), schedule.EventFor(limits.JobCheck, ev.Time)); err != nil {
		t.Fatal(err)
	}
	groups := map[string]bool{}
	for _, task := range sent {
		if task.Job != limits.JobCheck || !task.Time.Equal(ev.Time) {
			t.Fatalf("task %+v", task)
		}
		groups[task.Group] = true
	}
	if len(sent) != 25 || len(groups) != 25 || calls != 3 {
		t.Fatalf("%d tasks for %d Groups in %d calls, want 25, 25, 3", len(sent), len(groups), calls)
	}
	// An event for a job nobody registered fails the invocation.
	if err := a.Jobs.Handle(t.Context(), schedule.EventFor("nobody.registered", ev.Time)); !errors.Is(err, schedule.ErrUnknownJob) {
		t.Fatalf("unknown job: %v", err)
	}
}
