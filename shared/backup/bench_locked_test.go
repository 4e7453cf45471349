package backup_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/backup"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/blob/blobtest"
	"github.com/oficina/oficina/shared/module"
)

// BenchmarkBackupContentsLocked: a corp Group's daily backups into a
// bucket with Object Lock on the S3 gateway, as the stack keeps them: 100
// files of 256 KB on the drive, one changed a day, one backup a day for
// b.N days (run it for 120: `-benchtime 120x`). Reports, per 30 days after
// the first backup, what the backups asked of the bucket: MB written,
// objects written, lock extensions and retags (counted off the requests),
// and the share of the bytes written cold (Glacier Instant Retrieval).
// The file is self-contained so that it runs unchanged in an older
// build's tree (with blobtest/recorder.go), side by side.
func BenchmarkBackupContentsLocked(b *testing.B) {
	e := apptest.New(b, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	e.SetPlan(db, "corp")
	files, body := driveFiles(b, e, ana, db, 100, 256<<10)
	plain, _ := blobtest.StartS3(b)
	bucket := blobtest.BucketName(b) + "-locked"
	if err := blobtest.CreateLockedBucket(b.Context(), plain, bucket); err != nil {
		b.Fatal(err)
	}
	client, rec := blobtest.Recording(plain)
	m := backup.New(module.Deps{Store: e.Store, Docs: e.App.Docs, Blobs: e.App.Blobs, Groups: e.App.Accounts, Now: e.Clock.Now}, e.App.Accounts).
		WithArchives(blob.NewS3(client, bucket, nil))
	ctx := context.Background()
	if _, err := m.Create(ctx, db, "schedule"); err != nil {
		b.Fatal(err)
	}
	rec.Snapshot()
	var objects, retentions, taggings int
	var bytes, cold int64
	n := 0
	for b.Loop() {
		e.Clock.Advance(24 * time.Hour)
		ana.Do("POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": apptest.Password}).Expect(b, http.StatusOK)
		binary.BigEndian.PutUint64(body[8:], uint64(n+1))
		ana.Do("PUT", "/api/"+db+"/_drive/files/"+files[n%len(files)]+"/content", body).Expect(b, http.StatusCreated)
		e.Drain()
		if _, err := m.Create(ctx, db, "schedule"); err != nil {
			b.Fatal(err)
		}
		o, by, r, t := rec.Snapshot()
		objects, bytes, retentions, taggings = objects+o, bytes+by, retentions+r, taggings+t
		n++
	}
	rec.Lock()
	for key, class := range rec.Classes {
		if class == "GLACIER_IR" && len(key) == 64 {
			cold++
		}
	}
	rec.Unlock()
	month := 30 / float64(n)
	b.ReportMetric(float64(bytes)/1e6*month, "MB-written/month")
	b.ReportMetric(float64(objects)*month, "objects/month")
	b.ReportMetric(float64(retentions)*month, "extensions/month")
	b.ReportMetric(float64(taggings)*month, "retags/month")
	b.ReportMetric(float64(cold), "cold-blobs")
}

// driveFiles puts n files of size bytes, each with its own contents, in
// db's drive; it returns their ids and a buffer of that size to write new
// versions from.
func driveFiles(b *testing.B, e *apptest.Env, ana *apptest.Client, db string, n, size int) ([]string, []byte) {
	body := make([]byte, size)
	files := make([]string, n)
	for i := range files {
		files[i] = ana.Do("POST", "/api/"+db, map[string]any{"klass": "CloudFile", "kind": "file", "name": fmt.Sprintf("f%03d.bin", i), "dir_id": ""}).Expect(b, http.StatusCreated)["id"].(string)
		binary.BigEndian.PutUint64(body, uint64(i))
		ana.Do("PUT", "/api/"+db+"/_drive/files/"+files[i]+"/content", body).Expect(b, http.StatusCreated)
	}
	e.Drain()
	return files, body
}
