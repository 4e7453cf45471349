package main

import (
	"encoding/json"
	"errors"
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

// TestWire builds the function as main does, from the environment, against
// DynamoDB Local, and feeds it the sample batch: the whole-round task runs
// (the reader's refresh round creates its directory) and releases its
// lease, the per-Group task of a Group that does not exist is done with
// nothing to do, and the message that is not a task is the one partial
// batch failure. The same batch again runs nothing twice.
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
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "sqs-jobs-tasks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.SQSEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		resp, err := a.Worker.HandleSQS(t.Context(), ev)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[2].MessageId {
			t.Fatalf("round %d: failures %+v, want only the message that is not a task", round, resp.BatchItemFailures)
		}
	}
	st := dynamo.New(client, table)
	if _, err := st.DBInfo(t.Context(), reader.DirectoryDB); err != nil {
		t.Fatalf("the refresh round did not run: %v", err)
	}
	if _, err := st.GetRecord(t.Context(), schedule.LeaseKind, reader.JobRefresh); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("lease left: %v", err)
	}
	for _, m := range ev.Records[:2] {
		var task schedule.Task
		if err := json.Unmarshal([]byte(m.Body), &task); err != nil {
			t.Fatal(err)
		}
		if done, err := a.Worker.Done(t.Context(), task); err != nil || !done {
			t.Fatalf("task %+v not marked done: %v", task, err)
		}
	}
}
