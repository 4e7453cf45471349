package main

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/limits"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/reader"
	"github.com/oficina/oficina/shared/schedule"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// TestWire builds the function as main does, from the environment, against
// a fresh table of DynamoDB Local, and feeds it the sample batch: the first
// event makes the system databases, which the cold start left alone; the
// whole-round task runs (the reader's refresh round creates its directory)
// and releases its lease, the per-Group task of a Group that does not
// exist is done with nothing to do, and the message that is not a task is
// the one partial batch failure. The same batch again runs nothing twice.
func TestWire(t *testing.T) {
	h, st := wired(t)
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", "sqs-jobs-tasks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.SQSEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	// The cold start read nothing: the first event makes the system
	// databases on this fresh table before its tasks run.
	systemDBs := []string{ids.UsersDB, ids.AccountsDB, ids.PricesDB}
	for _, db := range systemDBs {
		if _, err := st.DBInfo(t.Context(), db); !errors.Is(err, store.ErrDBNotFound) {
			t.Fatalf("%s before the first event: %v, want none", db, err)
		}
	}
	for round := range 2 {
		out, err := h.Invoke(t.Context(), raw)
		if err != nil {
			t.Fatal(err)
		}
		resp := out.(events.SQSEventResponse)
		if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != ev.Records[2].MessageId {
			t.Fatalf("round %d: failures %+v, want only the message that is not a task", round, resp.BatchItemFailures)
		}
	}
	for _, db := range systemDBs {
		if _, err := st.DBInfo(t.Context(), db); err != nil {
			t.Errorf("%s after the first event: %v", db, err)
		}
	}
	if _, err := st.DBInfo(t.Context(), reader.DirectoryDB); err != nil {
		t.Fatalf("the refresh round did not run: %v", err)
	}
	if _, err := st.GetRecord(t.Context(), schedule.LeaseKind, reader.JobRefresh); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("lease left: %v", err)
	}
	// The whole-round task is marked done; the limit check, a per-Group
	// job marked Idempotent, runs without a run record.
	for _, m := range ev.Records[:2] {
		var task schedule.Task
		if err := json.Unmarshal([]byte(m.Body), &task); err != nil {
			t.Fatal(err)
		}
		want := task.Job != limits.JobCheck
		if done, err := h.Worker.Done(t.Context(), task); err != nil || done != want {
			t.Fatalf("task %+v marked done %v, want %v: %v", task, done, want, err)
		}
	}
}

// TestFeedback feeds the worker SES's reports as the feedback topic
// delivers them (events/sns-ses-*.json) on DynamoDB Local: a permanent
// bounce and a complaint put their addresses on the suppression list, a
// transient bounce and a delivery put none, a message that is no report is
// dropped without failing, and an event from elsewhere is refused. The
// guarded sender then drops mail to them.
func TestFeedback(t *testing.T) {
	h, st := wired(t)
	for _, name := range []string{"sns-ses-bounce.json", "sns-ses-complaint.json", "sns-ses-other.json"} {
		raw, err := os.ReadFile(filepath.Join("..", "..", "events", name))
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // SNS delivers at least once
			if _, err := h.Invoke(t.Context(), raw); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	for addr, want := range map[string]string{"gone@example.com": mail.ReasonBounce, "GONE@example.com": mail.ReasonBounce, "angry@example.com": mail.ReasonComplaint, "full@example.com": "", "fine@example.com": ""} {
		s, ok, err := h.Suppressions.Lookup(t.Context(), addr)
		if err != nil || ok != (want != "") || s.Reason != want {
			t.Errorf("%s: %+v %v %v, want %q", addr, s, ok, err, want)
		}
	}
	s, _, _ := h.Suppressions.Lookup(t.Context(), "gone@example.com")
	if s.Kind != "invite" || !strings.Contains(s.Detail, "550 5.1.1") || s.At.IsZero() {
		t.Errorf("the bounce's record: %+v", s)
	}
	// The first invocation seeded the plan prices (kept out of the cold start).
	if info, err := st.DBInfo(t.Context(), ids.PricesDB); err != nil || info.DocCount == 0 {
		t.Errorf("plan prices: %+v %v", info, err)
	}
	junk := `{"Records":[{"EventSource":"aws:sns","Sns":{"MessageId":"x","Message":"hello"}}]}`
	if _, err := h.Invoke(t.Context(), json.RawMessage(junk)); err != nil {
		t.Errorf("a message that is no report: %v", err)
	}
	if _, err := h.Invoke(t.Context(), json.RawMessage(`{"Records":[{"eventSource":"aws:s3"}]}`)); err == nil {
		t.Error("an S3 event was taken")
	}
	if _, err := h.Invoke(t.Context(), json.RawMessage(`{"job":"reader.refresh"}`)); err == nil {
		t.Error("a bare task was taken")
	}
}

// TestBackupRequests: the api's direct invocations about backups
// ({"backup": request}, backup.Module.Keep) reach the worker's backups,
// which alone hold the backups bucket: a signed GET names that bucket and
// the backup's key, and its answer is the JSON itself (Lambda returns it
// as the invocation's payload); a request that is not one is an error.
func TestBackupRequests(t *testing.T) {
	h, _ := wired(t, map[string]string{
		"OFICINA_BLOBS": "s3", "OFICINA_BUCKET": "drive", "OFICINA_BACKUP_BUCKET": "locked-backups",
		"OFICINA_S3_ENDPOINT": "http://127.0.0.1:9",
	})
	db := ids.New("acc")
	out, err := h.Invoke(t.Context(), json.RawMessage(`{"backup":{"op":"sign","db":"`+db+`","id":"20261128T070000Z-0123456789abcdef","part":"archive","name":"b.ndjson.gz"}}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := out.(json.RawMessage)
	var ans struct{ URL string }
	if !ok || json.Unmarshal(raw, &ans) != nil || !strings.Contains(ans.URL, "/locked-backups/backups/"+db+"/20261128T070000Z-0123456789abcdef.ndjson.gz?") {
		t.Fatalf("answer %T %s", out, out)
	}
	if _, err := h.Invoke(t.Context(), json.RawMessage(`{"backup":{"op":"delete","db":"`+db+`"}}`)); err == nil {
		t.Error("an unknown backup request was taken")
	}
}

// wired builds the function as main does, from the environment (with
// extra settings), against a fresh table of DynamoDB Local.
func wired(t *testing.T, extra ...map[string]string) (*Handler, store.Store) {
	t.Helper()
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
	for _, x := range extra {
		maps.Copy(env, x)
	}
	h, err := wire(t.Context(), func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return h, dynamo.New(client, table)
}
