package backup_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/backup"
	"github.com/oficina/oficina/shared/billing/billingtest"
	"github.com/oficina/oficina/shared/blob/blobtest"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

func TestMain(m *testing.M) { os.Exit(billingtest.Main(m)) }

// setPlan moves a Group's confirmed plan as the billing webhook would.
func setPlan(t testing.TB, e *apptest.Env, db, plan string) {
	t.Helper()
	ctx := context.Background()
	cur, err := e.App.Accounts.Plan(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	page, err := e.Store.List(ctx, db, store.ListQuery{Klass: "Adjustment"})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range page.Docs {
		if strings.Contains(string(d.Body), `"key":"confirmed-plan"`) {
			body := strings.Replace(string(d.Body), `"value":"`+cur+`"`, `"value":"`+plan+`"`, 1)
			if _, err := e.Store.Put(ctx, db, store.Doc{ID: d.ID, Rev: d.Rev, Klass: d.Klass, SortKey: d.SortKey, Body: []byte(body)}); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatal("no confirmed-plan adjustment")
}

// docsOf reads every live document of db: id → body (stamps included).
func docsOf(t *testing.T, e *apptest.Env, db string) map[string]map[string]any {
	t.Helper()
	all, err := e.Store.AllDocs(context.Background(), db, store.AllDocsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, d := range all {
		if d.Deleted {
			continue
		}
		var b map[string]any
		if err := json.Unmarshal(d.Body, &b); err != nil {
			t.Fatal(err)
		}
		out[d.ID] = b
	}
	return out
}

// compare checks that every document of src came back in dst: the same
// body, but for what a restore gives the new Group by design (its record,
// memberships and own settings; the files' new version ids when the
// contents came along).
func compare(t *testing.T, e *apptest.Env, src, dst string, newVersions bool) int {
	t.Helper()
	a, b := docsOf(t, e, src), docsOf(t, e, dst)
	n := 0
	for id, want := range a {
		switch want["klass"] {
		case "Membership", "Account", "UserToken":
			continue
		case "Adjustment":
			switch want["key"] {
			case "name", "created-by", "created-by-id", "created-at", "confirmed-plan", "unconfirmed-plan", "admin", "billing-email":
				continue
			}
			// Default settings live under ids derived from the db: find by key.
			found := false
			for _, got := range b {
				if got["klass"] == "Adjustment" && got["key"] == want["key"] {
					found = true
					if !reflect.DeepEqual(got["value"], want["value"]) {
						t.Errorf("setting %v: %v, want %v", want["key"], got["value"], want["value"])
					}
				}
			}
			if !found {
				t.Errorf("setting %v not restored", want["key"])
			}
			n++
			continue
		}
		got, ok := b[id]
		if !ok {
			t.Errorf("%s (%v) not restored: %v", id, want["klass"], want)
			continue
		}
		if newVersions && want["klass"] == "CloudFile" {
			for _, m := range []map[string]any{want, got} {
				for _, v := range asList(m["versions"]) {
					delete(v.(map[string]any), "id")
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s differs:\n got %v\nwant %v", id, got, want)
		}
		n++
	}
	return n
}

// content reads a file's contents: served by the API (the filesystem) or
// through the presigned URL it redirects to (S3).
func content(t *testing.T, c *apptest.Client, path string) string {
	t.Helper()
	res := c.Do("GET", path, nil)
	if res.Code == http.StatusFound {
		r, err := http.Get(res.Header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("presigned GET: %d %s", r.StatusCode, b)
		}
		return string(b)
	}
	if res.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.Code, res.Body)
	}
	return string(res.Body)
}

func asList(v any) []any { l, _ := v.([]any); return l }

// versionContents reads every version of file in db, newest first.
func versionContents(t *testing.T, e *apptest.Env, c *apptest.Client, db, file string) []string {
	t.Helper()
	var out []string
	for _, v := range asList(docsOf(t, e, db)[file]["versions"]) {
		out = append(out, content(t, c, "/api/"+db+"/_drive/files/"+file+"/content?version="+v.(map[string]any)["id"].(string)))
	}
	return out
}

// archive downloads a backup and returns its lines.
func archive(t *testing.T, c *apptest.Client, db, id string) []map[string]any {
	t.Helper()
	res := c.Do("GET", "/api/"+db+"/_backups/"+id, nil)
	body := res.Body
	if res.Code == http.StatusFound { // S3: a presigned GET naming the file
		r, err := http.Get(res.Header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		body, _ = io.ReadAll(r.Body)
		if r.StatusCode != http.StatusOK || !strings.Contains(r.Header.Get("Content-Disposition"), ".ndjson.gz") {
			t.Fatalf("presigned download: %d %v", r.StatusCode, r.Header)
		}
	} else if res.Code != http.StatusOK || res.Header.Get("Content-Type") != "application/gzip" || !strings.Contains(res.Header.Get("Content-Disposition"), ".ndjson.gz") {
		t.Fatalf("download: %d %v", res.Code, res.Header)
	}
	gz, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// TestBackupRestore: a free Group's backup on request (once a month), its
// archive (header, every document, the files' manifest, the end line), a
// restore into a new Group that brings every document back; a pro Group's
// scheduled backup with the files' contents, restored with the contents
// readable in the new Group; the job's re-run makes nothing new.
func TestBackupRestore(t *testing.T) { apptest.Each(t, backupRestore) }

// TestBackupRestoreS3: the same on the S3 blob store (the cloud's: real
// version ids, rewritten in the restored files).
func TestBackupRestoreS3(t *testing.T) {
	backupRestore(t, apptest.New(t, apptest.Bolt, apptest.S3Blobs(t)))
}

func backupRestore(t *testing.T, e *apptest.Env) {
	{
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		api := "/api/" + db
		cus := ana.Do("POST", api, map[string]any{"klass": "Customer", "name": "Bia", "email": "bia@example.com"}).Expect(t, http.StatusCreated)["id"].(string)
		ana.Do("POST", api, map[string]any{"klass": "Equipment", "name": "Notebook", "customer_id": cus})
		wallet := ana.Do("POST", api, map[string]any{"klass": "Wallet", "name": "Caixa", "currency": "BRL"}).Expect(t, http.StatusCreated)["id"].(string)
		ana.Do("POST", api, map[string]any{"klass": "Income", "description": "Conserto", "value": 15000, "wallet_id": wallet}).Expect(t, http.StatusCreated)
		ana.Do("POST", api, map[string]any{"klass": "Adjustment", "key": "phones", "label": "phones", "value": []any{map[string]any{"number": "+55 11 5555-0000", "main": true}}}).Expect(t, http.StatusCreated)
		file := ana.Do("POST", api, map[string]any{"klass": "CloudFile", "kind": "file", "name": "notes.txt", "dir_id": ""}).Expect(t, http.StatusCreated)["id"].(string)
		ana.Do("PUT", api+"/_drive/files/"+file+"/content", []byte("first")).Expect(t, http.StatusCreated)
		ana.Do("PUT", api+"/_drive/files/"+file+"/content", []byte("second version")).Expect(t, http.StatusCreated)
		e.Drain()

		// Free: on request, once a month.
		info := ana.Do("POST", api+"/_backups", nil).Expect(t, http.StatusAccepted)
		id := info["id"].(string)
		if info["with_contents"] != false || info["files"] != float64(2) || info["docs"].(float64) < 6 || info["size"].(float64) <= 0 {
			t.Fatalf("free backup: %v", info)
		}
		e.Unchanged(db, func() {
			ana.Do("POST", api+"/_backups", nil).ExpectError(t, http.StatusConflict, "one backup a month")
		})
		list := ana.Do("GET", api+"/_backups", nil).Expect(t, http.StatusOK)["backups"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["id"] != id {
			t.Fatalf("list: %v", list)
		}
		lines := archive(t, ana, db, id)
		if lines[0]["oficina_backup"] != float64(2) || lines[0]["db"] != db || lines[len(lines)-1]["end"] == nil {
			t.Fatalf("archive ends: %v … %v", lines[0], lines[len(lines)-1])
		}
		var nDocs, nFiles int
		for _, l := range lines {
			if l["doc"] != nil {
				nDocs++
			}
			if f, ok := l["file"].(map[string]any); ok {
				nFiles++
				if f["id"] != file || f["sha256"] == "" {
					t.Errorf("manifest line: %v", f)
				}
			}
		}
		if nDocs != int(info["docs"].(float64)) || nFiles != 2 {
			t.Fatalf("archive: %d docs, %d files; info %v", nDocs, nFiles, info)
		}

		// Bad input changes nothing.
		ana.Do("POST", api+"/_backups/"+id+"/restore", map[string]any{"name": " "}).ExpectFields(t, "name", "can't be blank")
		ana.Do("POST", api+"/_backups/nope/restore", map[string]any{"name": "X"}).ExpectError(t, http.StatusNotFound, backup.MsgNoBackup)
		ana.Do("GET", api+"/_backups/nope", nil).ExpectError(t, http.StatusNotFound, backup.MsgNoBackup)

		restored := ana.Do("POST", api+"/_backups/"+id+"/restore", map[string]any{"name": "Ana (restored)"}).Expect(t, http.StatusCreated)["db"].(string)
		if restored == db || !strings.HasPrefix(restored, "acc-") {
			t.Fatalf("restored into %q", restored)
		}
		e.Drain()
		if n := compare(t, e, db, restored, false); n < 6 {
			t.Fatalf("compared %d documents", n)
		}
		// The new Group is a Group like any other: its admin writes there.
		ana.Do("POST", "/api/"+restored, map[string]any{"klass": "Customer", "name": "After restore"}).Expect(t, http.StatusCreated)

		// Pro: the job backs up weekly, with the contents.
		setPlan(t, e, db, "pro")
		e.Drain()
		job, _ := e.App.Modules.JobNamed(backup.JobScheduled)
		run := func() {
			t.Helper()
			if err := job.Run(context.Background(), module.JobEvent{Job: job.Name, Time: e.Clock.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		run()
		run() // a re-run makes nothing new
		list = ana.Do("GET", api+"/_backups", nil).Expect(t, http.StatusOK)["backups"].([]any)
		if len(list) != 2 {
			t.Fatalf("after the job twice: %v", list)
		}
		pro := list[0].(map[string]any)
		if pro["trigger"] != "schedule" || pro["with_contents"] != true {
			t.Fatalf("scheduled backup: %v", pro)
		}
		e.Clock.Advance(24 * time.Hour)
		ana.Do("POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": apptest.Password}).Expect(t, http.StatusOK)
		run()
		if l := ana.Do("GET", api+"/_backups", nil).Expect(t, http.StatusOK)["backups"].([]any); len(l) != 2 {
			t.Fatalf("pro backs up weekly, not daily: %d backups", len(l))
		}
		e.Clock.Advance(6 * 24 * time.Hour)
		ana.Do("POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": apptest.Password}).Expect(t, http.StatusOK)
		run()
		if l := ana.Do("GET", api+"/_backups", nil).Expect(t, http.StatusOK)["backups"].([]any); len(l) != 3 {
			t.Fatalf("a week later: %d backups", len(l))
		}
		pro = ana.Do("GET", api+"/_backups", nil).Expect(t, http.StatusOK)["backups"].([]any)[0].(map[string]any)
		// On a paid plan the owner may also ask, once a day across their Groups.
		other := e.Group(ana, "Ana 2")
		setPlan(t, e, other, "corp")
		ana.Do("POST", api+"/_backups", nil).Expect(t, http.StatusAccepted)
		ana.Do("POST", "/api/"+other+"/_backups", nil).ExpectError(t, http.StatusConflict, backup.MsgOwnerDaily)
		ana.Do("POST", api+"/_backups", nil).ExpectError(t, http.StatusConflict, backup.MsgOwnerDaily)
		restored2 := ana.Do("POST", api+"/_backups/"+pro["id"].(string)+"/restore", map[string]any{"name": "Ana (pro restored)"}).Expect(t, http.StatusCreated)["db"].(string)
		e.Drain()
		compare(t, e, db, restored2, true)
		if got := content(t, ana, "/api/"+restored2+"/_drive/files/"+file+"/content"); got != "second version" {
			t.Fatalf("restored content: %q", got)
		}
		if got := versionContents(t, e, ana, restored2, file); !slices.Equal(got, []string{"second version", "first"}) {
			t.Fatalf("restored versions: %q", got)
		}
	}
}

// TestBackupAccess: a member who is not an admin lists but cannot start,
// download or restore; another Group's admin reaches nothing.
func TestBackupAccess(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana, bia, zed := e.SignUp("ana@example.com"), e.SignUp("bia@example.com"), e.SignUp("zed@example.com")
		db := e.Group(ana, "Oficina da Ana")
		e.Group(zed, "Zed")
		e.Join(ana, bia, db, false)
		id := ana.Do("POST", "/api/"+db+"/_backups", nil).Expect(t, http.StatusAccepted)["id"].(string)
		bia.Do("GET", "/api/"+db+"/_backups", nil).Expect(t, http.StatusOK)
		for _, c := range []*apptest.Client{bia, zed} {
			c.Do("POST", "/api/"+db+"/_backups", nil).ExpectError(t, http.StatusForbidden, "")
			c.Do("GET", "/api/"+db+"/_backups/"+id, nil).ExpectError(t, http.StatusForbidden, "")
			c.Do("POST", "/api/"+db+"/_backups/"+id+"/restore", map[string]any{"name": "Stolen"}).ExpectError(t, http.StatusForbidden, "")
		}
		zed.Do("GET", "/api/"+db+"/_backups", nil).ExpectError(t, http.StatusForbidden, "")
	})
}

// TestBackupRestoreLockedBucket: the whole flow with the backups in a
// bucket of their own with Object Lock, as the stack has them: made,
// downloaded (a presigned GET of that bucket) and restored from there.
func TestBackupRestoreLockedBucket(t *testing.T) {
	backupRestore(t, apptest.New(t, apptest.Bolt, apptest.S3Blobs(t), apptest.S3Backups(t)))
}

// TestBackupsLocked: with a backups bucket, every backup is written there
// (nothing under the drive's backups/), locked in governance mode for its
// plan's RetentionDays and tagged with that class for the lifecycle rules;
// when the plan's retention drops a backup from the list, its objects stay
// (no role may delete them: the lifecycle does, after the lock).
func TestBackupsLocked(t *testing.T) {
	e := apptest.New(t, apptest.Bolt, apptest.S3Blobs(t), apptest.S3Backups(t))
	ctx := context.Background()
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	file := ana.Do("POST", "/api/"+db, map[string]any{"klass": "CloudFile", "kind": "file", "name": "a.txt", "dir_id": ""}).Expect(t, http.StatusCreated)["id"].(string)
	ana.Do("PUT", "/api/"+db+"/_drive/files/"+file+"/content", []byte("contents")).Expect(t, http.StatusCreated)
	setPlan(t, e, db, "pro")
	e.Drain()
	if got := backup.RetentionDays("pro"); got != 57 {
		t.Fatalf("pro retention %d days, want 8 weekly backups and a day (57)", got)
	}
	for plan, want := range map[string]int{"free": 91, "corp": 15, "server": 15} {
		if got := backup.RetentionDays(plan); got != want {
			t.Errorf("%s retention %d days, want %d (infra-cdk/lib/backups.ts BACKUP_RETENTION_DAYS)", plan, got, want)
		}
	}
	for plan, want := range map[string]int{"free": 273, "pro": 171, "corp": 45, "server": 45} {
		if got := backup.ContentDays(plan); got != want {
			t.Errorf("%s contents kept %d days, want %d (infra-cdk/lib/backups.ts BACKUP_CONTENT_DAYS)", plan, got, want)
		}
	}
	var first []string
	for i := range backup.Retention("pro") + 1 {
		if err := e.App.RunJob(ctx, backup.JobScheduled, e.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			l := ana.Do("GET", "/api/"+db+"/_backups", nil).Expect(t, http.StatusOK)["backups"].([]any)
			id := l[0].(map[string]any)["id"].(string)
			first = []string{"backups/" + db + "/" + id + ".ndjson.gz", contentsKey(db, "contents")}
		}
		e.Clock.Advance(7 * 24 * time.Hour)
	}
	l, err := backupsOf(e, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != backup.Retention("pro") {
		t.Fatalf("%d backups listed, want %d", len(l), backup.Retention("pro"))
	}
	client := blobtest.NewClient(e.App.Cfg().S3Endpoint)
	bucket := e.App.Cfg().BackupBucket
	// The archive is locked for the plan's retention, the contents for
	// three (ContentDays), each tagged with its class.
	for i, key := range first {
		days := []int{57, 171}[i]
		head, err := client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
		if err != nil {
			t.Fatalf("%s, dropped from the list, is gone from the bucket: %v", key, err)
		}
		if head.ObjectLockMode != s3types.ObjectLockModeGovernance || head.ObjectLockRetainUntilDate == nil ||
			head.ObjectLockRetainUntilDate.Sub(*head.LastModified) < time.Duration(days-1)*24*time.Hour {
			t.Errorf("%s: lock %s until %v (written %v)", key, head.ObjectLockMode, head.ObjectLockRetainUntilDate, head.LastModified)
		}
		tags, err := client.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: &bucket, Key: &key})
		if err != nil || len(tags.TagSet) != 1 || aws.ToString(tags.TagSet[0].Value) != strconv.Itoa(days) {
			t.Errorf("%s: tags %+v (%v), want retention=%d", key, tags, err, days)
		}
	}
	// Nine weekly backups named the contents; they were written once, as
	// they outlive each backup's retention. A backup that would outlive
	// them writes them again: a new locked version of the same bytes.
	contentVersions := func() int {
		t.Helper()
		out, err := client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: &bucket, Prefix: aws.String(first[1])})
		if err != nil {
			t.Fatal(err)
		}
		return len(out.Versions)
	}
	if n := contentVersions(); n != 1 {
		t.Fatalf("the contents written %d times by %d backups, want once", n, backup.Retention("pro")+1)
	}
	e.Clock.Advance(50 * 24 * time.Hour) // 113 days after the first: 171 - 57 - 1 left
	if err := e.App.RunJob(ctx, backup.JobScheduled, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	if n := contentVersions(); n != 2 {
		t.Fatalf("the contents written %d times once a backup would outlive them, want twice", n)
	}
	drive := e.App.Cfg().Bucket
	out, err := client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: &drive, Prefix: aws.String("backups/")})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Versions) != 0 {
		t.Fatalf("%d backup objects in the drive's bucket", len(out.Versions))
	}
}

// backupsOf reads db's backup list as the module keeps it.
func backupsOf(e *apptest.Env, db string) ([]backup.Info, error) {
	r, err := e.Store.GetRecord(context.Background(), "backup.index", db)
	if err != nil {
		return nil, err
	}
	var l []backup.Info
	return l, json.Unmarshal(r.Value, &l)
}
