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
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	s3types "github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/backup"
	"github.com/oficina/oficina/shared/billing/billingtest"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/blob/blobtest"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

func TestMain(m *testing.M) { os.Exit(billingtest.Main(m)) }

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
		e.SetPlan(db, "pro")
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
		e.SetPlan(other, "corp")
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
// (no role may delete them: the lifecycle does, after the lock). A file
// version's contents are written once, locked for ContentLockDays and
// tagged "contents"; a backup that would outlive the lock extends it in
// place, one that would outlive the bucket's backstop writes the contents
// again, and contents no listed backup names are tagged "dropped".
func TestBackupsLocked(t *testing.T) {
	e, ana, db, file := lockedShop(t)
	ctx := context.Background()
	put := func(body string) {
		t.Helper()
		ana.Do("POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": apptest.Password}).Expect(t, http.StatusOK)
		ana.Do("PUT", "/api/"+db+"/_drive/files/"+file+"/content", []byte(body)).Expect(t, http.StatusCreated)
	}
	if got := backup.RetentionDays("pro"); got != 57 {
		t.Fatalf("pro retention %d days, want 8 weekly backups and a day (57)", got)
	}
	for plan, want := range map[string]int{"free": 91, "corp": 15, "server": 15} {
		if got := backup.RetentionDays(plan); got != want {
			t.Errorf("%s retention %d days, want %d (infra-cdk/lib/backups.ts BACKUP_RETENTION_DAYS)", plan, got, want)
		}
	}
	if backup.BackstopDays != 400 || backup.ContentsClass != "contents" || backup.DroppedClass != "dropped" {
		t.Errorf("backstop %d, classes %q %q: want 400, contents and dropped (infra-cdk/lib/backups.ts)", backup.BackstopDays, backup.ContentsClass, backup.DroppedClass)
	}
	run := func() {
		t.Helper()
		if err := e.App.RunJob(ctx, backup.JobScheduled, e.Clock.Now()); err != nil {
			t.Fatal(err)
		}
	}
	var first []string
	for i := range backup.Retention("pro") + 1 {
		run()
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
	lockedFor := func(key string) time.Duration {
		t.Helper()
		head, err := client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &key})
		if err != nil {
			t.Fatalf("%s, dropped from the list, is gone from the bucket: %v", key, err)
		}
		if head.ObjectLockMode != s3types.ObjectLockModeGovernance || head.ObjectLockRetainUntilDate == nil {
			t.Fatalf("%s: lock %s until %v", key, head.ObjectLockMode, head.ObjectLockRetainUntilDate)
		}
		return head.ObjectLockRetainUntilDate.Sub(*head.LastModified)
	}
	tagOf := func(key string) string {
		t.Helper()
		tags, err := client.GetObjectTagging(ctx, &s3.GetObjectTaggingInput{Bucket: &bucket, Key: &key})
		if err != nil || len(tags.TagSet) != 1 || aws.ToString(tags.TagSet[0].Key) != blob.RetentionTag {
			t.Fatalf("%s: tags %+v (%v)", key, tags, err)
		}
		return aws.ToString(tags.TagSet[0].Value)
	}
	day := 24 * time.Hour
	// The archive is locked for the plan's retention and tagged with it;
	// the contents for ContentLockDays (a retention and 90 days), tagged
	// "contents".
	if got, tag := lockedFor(first[0]), tagOf(first[0]); got < 56*day || got > 58*day || tag != "57" {
		t.Errorf("archive locked %v, tagged %q; want 57 days", got, tag)
	}
	if got := backup.ContentLockDays("pro"); got != 147 {
		t.Errorf("pro contents locked %d days, want 57 + 90", got)
	}
	if got, tag := lockedFor(first[1]), tagOf(first[1]); got < 146*day || got > 148*day || tag != backup.ContentsClass {
		t.Errorf("contents locked %v, tagged %q; want 147 days, contents", got, tag)
	}
	// Nine weekly backups named the contents; they were written once, as
	// they outlive each backup's retention.
	contentVersions := func() []s3types.ObjectVersion {
		t.Helper()
		out, err := client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: &bucket, Prefix: aws.String(first[1])})
		if err != nil {
			t.Fatal(err)
		}
		return out.Versions
	}
	if n := len(contentVersions()); n != 1 {
		t.Fatalf("the contents written %d times by %d backups, want once", n, backup.Retention("pro")+1)
	}
	// 113 days after the first: the lock (147 days) would pass before this
	// backup's retention does. It is extended in place, to 147 days from
	// now: no new version.
	e.Clock.Advance(50 * day)
	run()
	if n := len(contentVersions()); n != 1 {
		t.Fatalf("the contents written %d times once a backup would outlive their lock, want once (the lock extended)", n)
	}
	if got := lockedFor(first[1]); got < (113+146)*day {
		t.Fatalf("contents locked %v after their write, want 113 + 147 days", got)
	}
	// 413 days after the first: the bucket's backstop (400 days after the
	// write) would expire them first. They are written again.
	e.Clock.Advance(300 * day)
	run()
	if vs := contentVersions(); len(vs) != 2 {
		t.Fatalf("the contents written %d times once the backstop would expire them first, want twice", len(vs))
	}
	if tag := tagOf(first[1]); tag != backup.ContentsClass {
		t.Fatalf("rewritten contents tagged %q", tag)
	}
	// The file moves on: "contents" falls out of the drive's three
	// versions, and once the last backup naming it is dropped, it is
	// tagged for the lifecycle (its lock still holds it).
	put("one")
	put("two")
	put("three")
	e.Drain()
	for i := range backup.Retention("pro") - 1 { // the 413-day backup stays listed
		e.Clock.Advance(7 * day)
		run()
		if tag := tagOf(first[1]); tag != backup.ContentsClass {
			t.Fatalf("contents tagged %q while a listed backup names them (run %d)", tag, i)
		}
	}
	e.Clock.Advance(7 * day)
	run()
	if tag := tagOf(first[1]); tag != backup.DroppedClass {
		t.Fatalf("contents no listed backup names tagged %q, want %q", tag, backup.DroppedClass)
	}
	if tag := tagOf(contentsKey(db, "three")); tag != backup.ContentsClass {
		t.Fatalf("named contents tagged %q", tag)
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

// TestBackupsLockedContentsGone: a backup that would extend the lock of
// contents whose blob is gone (expired by the lifecycle: a delete marker
// on the key) writes them again, and the backup restores.
func TestBackupsLockedContentsGone(t *testing.T) {
	e, ana, db, file := lockedShop(t)
	ctx := context.Background()
	if err := e.App.RunJob(ctx, backup.JobScheduled, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	client := blobtest.NewClient(e.App.Cfg().S3Endpoint)
	bucket, key := e.App.Cfg().BackupBucket, contentsKey(db, "contents")
	if _, err := client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &bucket, Key: &key}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(100 * 24 * time.Hour) // the 147-day lock would pass before this backup's retention
	ana.Do("POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": apptest.Password}).Expect(t, http.StatusOK)
	if err := e.App.RunJob(ctx, backup.JobScheduled, e.Clock.Now()); err != nil {
		t.Fatal(err)
	}
	out, err := client.ListObjectVersions(ctx, &s3.ListObjectVersionsInput{Bucket: &bucket, Prefix: &key})
	if err != nil || len(out.Versions) != 2 {
		t.Fatalf("%d versions of the contents (%v), want them written again", len(out.Versions), err)
	}
	l, err := backupsOf(e, db)
	if err != nil {
		t.Fatal(err)
	}
	restored := ana.Do("POST", "/api/"+db+"/_backups/"+l[0].ID+"/restore", map[string]any{"name": "Ana (restored)"}).Expect(t, http.StatusCreated)["db"].(string)
	e.Drain()
	if got := content(t, ana, "/api/"+restored+"/_drive/files/"+file+"/content"); got != "contents" {
		t.Fatalf("restored: %q", got)
	}
}

// lockedShop is a pro Group whose backups go to a bucket with Object Lock,
// with one file in its drive holding "contents".
func lockedShop(t *testing.T) (*apptest.Env, *apptest.Client, string, string) {
	t.Helper()
	e := apptest.New(t, apptest.Bolt, apptest.S3Blobs(t), apptest.S3Backups(t))
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	file := ana.Do("POST", "/api/"+db, map[string]any{"klass": "CloudFile", "kind": "file", "name": "a.txt", "dir_id": ""}).Expect(t, http.StatusCreated)["id"].(string)
	ana.Do("PUT", "/api/"+db+"/_drive/files/"+file+"/content", []byte("contents")).Expect(t, http.StatusCreated)
	e.SetPlan(db, "pro")
	e.Drain()
	return e, ana, db, file
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
