package backup_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/backup"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/blob/blobtest"
)

// workerFunction is the stand-in worker's name.
const workerFunction = "oficina-worker"

// standInLambda answers Lambda's Invoke API (POST
// /2015-03-31/functions/{name}/invocations) with keep, as the worker
// function's handler does; a failure is a function error, as Lambda
// reports a handler's. It returns the SDK's client for it and a count of
// the invocations.
func standInLambda(t *testing.T, keep func() backup.Invoke) (*lambda.Client, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/2015-03-31/functions/"+workerFunction+"/invocations" {
			http.Error(w, `{"Message":"Function not found"}`, http.StatusNotFound)
			return
		}
		n.Add(1)
		payload, _ := io.ReadAll(r.Body)
		out, err := keep()(r.Context(), payload)
		if err != nil {
			w.Header().Set("X-Amz-Function-Error", "Unhandled")
			out, _ = json.Marshal(map[string]string{"errorMessage": err.Error()})
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	client := lambda.New(lambda.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(srv.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
	return client, &n
}

// TestBackupsThroughWorker: as in the stack, the api holds no grant on the
// backups bucket (it is given no store for it). It asks the worker, through
// Lambda's Invoke API (the SDK's client against a stand-in endpoint), to
// make a backup on request and to sign its download and a restore's reads.
// The backups land in the locked bucket, none in the drive's, and the
// download and both restores (a free backup, a pro one with contents)
// work through the signed URLs.
func TestBackupsThroughWorker(t *testing.T) {
	var keep backup.Invoke
	client, invoked := standInLambda(t, func() backup.Invoke { return keep })
	e := apptest.NewWithWorker(t, apptest.Bolt, app.InvokeFunction(client, workerFunction), apptest.S3Blobs(t), apptest.S3Backups(t))
	cfg := e.App.Cfg()
	s3c := blobtest.NewClient(cfg.S3Endpoint)
	// The worker: the same store and drive, and the backups bucket.
	keep = backup.New(e.App.Deps(), e.App.Accounts).WithArchives(blob.NewS3(s3c, cfg.BackupBucket, s3.NewPresignClient(s3c))).Keep

	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	api := "/api/" + db
	ana.Do("POST", api, map[string]any{"klass": "Customer", "name": "Bia"}).Expect(t, http.StatusCreated)
	file := ana.Do("POST", api, map[string]any{"klass": "CloudFile", "kind": "file", "name": "notes.txt", "dir_id": ""}).Expect(t, http.StatusCreated)["id"].(string)
	ana.Do("PUT", api+"/_drive/files/"+file+"/content", []byte("kept")).Expect(t, http.StatusCreated)
	e.Drain()

	free := ana.Do("POST", api+"/_backups", nil).Expect(t, http.StatusAccepted)["id"].(string)
	if invoked.Load() != 1 {
		t.Fatalf("%d invocations for a backup on request, want 1", invoked.Load())
	}
	if lines := archive(t, ana, db, free); lines[0]["db"] != db || lines[len(lines)-1]["end"] == nil {
		t.Fatalf("downloaded archive: %v … %v", lines[0], lines[len(lines)-1])
	}
	restored := ana.Do("POST", api+"/_backups/"+free+"/restore", map[string]any{"name": "Ana (restored)"}).Expect(t, http.StatusCreated)["db"].(string)
	e.Drain()
	if n := compare(t, e, db, restored, false); n < 3 {
		t.Fatalf("compared %d documents", n)
	}

	e.SetPlan(db, "pro")
	e.Drain()
	pro := ana.Do("POST", api+"/_backups", nil).Expect(t, http.StatusAccepted)
	if pro["with_contents"] != true {
		t.Fatalf("pro backup: %v", pro)
	}
	restored2 := ana.Do("POST", api+"/_backups/"+pro["id"].(string)+"/restore", map[string]any{"name": "Ana (pro)"}).Expect(t, http.StatusCreated)["db"].(string)
	e.Drain()
	if got := content(t, ana, "/api/"+restored2+"/_drive/files/"+file+"/content"); got != "kept" {
		t.Fatalf("restored content: %q", got)
	}

	ctx := context.Background()
	for bucket, want := range map[string]int{cfg.BackupBucket: 3, cfg.Bucket: 0} {
		out, err := s3c.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: aws.String(bucket), Prefix: aws.String("backups/")})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Versions) != want {
			t.Errorf("%d backup objects in %s, want %d", len(out.Versions), bucket, want)
		}
	}
}

// TestKeepRefuses: the worker's entry signs only a well-formed backup of a
// Group's db; anything else is a refusal or an error, never a URL.
func TestKeepRefuses(t *testing.T) {
	e := apptest.New(t, apptest.Bolt, apptest.S3Blobs(t), apptest.S3Backups(t))
	cfg := e.App.Cfg()
	s3c := blobtest.NewClient(cfg.S3Endpoint)
	m := backup.New(e.App.Deps(), e.App.Accounts).WithArchives(blob.NewS3(s3c, cfg.BackupBucket, s3.NewPresignClient(s3c)))
	db := e.Group(e.SignUp("ana@example.com"), "Oficina")
	for _, tc := range []struct {
		name, payload, fault string
	}{
		{"not an envelope", `{"op":"sign"}`, ""},
		{"malformed", `{"backup":`, ""},
		{"unknown op", `{"backup":{"op":"delete","db":"` + db + `","id":"x"}}`, ""},
		{"not a Group", `{"backup":{"op":"sign","db":"usr-0123456789abcdef0123456789abcdef","id":"x","part":"archive"}}`, ""},
		{"a path for an id", `{"backup":{"op":"sign","db":"` + db + `","id":"../../x","part":"archive"}}`, backup.MsgNoBackup},
		{"unknown part", `{"backup":{"op":"sign","db":"` + db + `","id":"x","part":"keys"}}`, ""},
		{"create by schedule", `{"backup":{"op":"create","db":"` + db + `","trigger":"schedule"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := m.Keep(t.Context(), []byte(tc.payload))
			if tc.fault == "" {
				if err == nil {
					t.Fatalf("answered %s, want an error", out)
				}
				return
			}
			if err != nil || !strings.Contains(string(out), tc.fault) || strings.Contains(string(out), `"url"`) {
				t.Fatalf("answer %s (%v), want the refusal %q", out, err, tc.fault)
			}
		})
	}
}
