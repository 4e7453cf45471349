package backup_test

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/backup"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/store"
)

func sum(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

func contentsKey(db, s string) string { return "backups/" + db + "/contents/" + sum(s) }

// versionsOf counts the versions of key in st (0 when there is none).
func versionsOf(t *testing.T, st blob.Store, key string) int {
	t.Helper()
	vs, err := st.Versions(context.Background(), key)
	if err != nil && !errors.Is(err, blob.ErrNotFound) {
		t.Fatal(err)
	}
	return len(vs)
}

// TestBackupContentsShared: a paid Group's backups store each file
// version's contents once, by SHA-256: two files with the same bytes and
// later backups of unchanged files write nothing again; a backup's size
// counts what it names; contents only dropped backups named are deleted
// (the archives are not locked here); the newest backup restores every
// file version.
func TestBackupContentsShared(t *testing.T) { apptest.Each(t, contentsShared) }

func contentsShared(t *testing.T, e *apptest.Env) {
	ctx := context.Background()
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	api := "/api/" + db
	e.SetPlan(db, "pro")
	newFile := func(name string) string {
		return ana.Do("POST", api, map[string]any{"klass": "CloudFile", "kind": "file", "name": name, "dir_id": ""}).Expect(t, http.StatusCreated)["id"].(string)
	}
	put := func(file, body string) {
		ana.Do("PUT", api+"/_drive/files/"+file+"/content", []byte(body)).Expect(t, http.StatusCreated)
	}
	a, b := newFile("a.txt"), newFile("b.txt")
	put(a, "alpha")
	put(b, "alpha")
	put(b, "beta")
	e.Drain()
	backupNow := func() backup.Info {
		t.Helper()
		if err := e.App.RunJob(ctx, backup.JobScheduled, e.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		l, err := backupsOf(e, db)
		if err != nil {
			t.Fatal(err)
		}
		return l[0]
	}
	week := func() {
		e.Clock.Advance(7 * 24 * time.Hour)
		ana.Do("POST", "/api/_session", map[string]any{"name": "ana@example.com", "password": apptest.Password}).Expect(t, http.StatusOK)
	}

	first := backupNow()
	if first.Files != 3 || first.Format != 2 || first.Size < int64(len("alpha")+len("beta")) {
		t.Fatalf("first backup: %+v", first)
	}
	for _, s := range []string{"alpha", "beta"} {
		if n := versionsOf(t, e.App.Blobs, contentsKey(db, s)); n != 1 {
			t.Fatalf("%q stored %d times, want once", s, n)
		}
	}
	if n := versionsOf(t, e.App.Blobs, "backups/"+db+"/"+first.ID+".files.tar"); n != 0 {
		t.Fatalf("a tar of the contents next to the archive")
	}
	lines := archive(t, ana, db, first.ID)
	if lines[0]["oficina_backup"] != float64(2) {
		t.Fatalf("header %v", lines[0])
	}
	for _, l := range lines {
		if f, ok := l["file"].(map[string]any); ok && (f["stored"] == nil || f["keep_days"] != nil) {
			t.Errorf("manifest line %v: want when it was stored, and no class (the archives are not locked)", f)
		}
	}

	// b moves on: beta falls out of the drive's three versions.
	week()
	put(b, "gamma")
	put(b, "delta")
	put(b, "epsilon")
	e.Drain()
	second := backupNow()
	for s, want := range map[string]int{"alpha": 1, "beta": 1, "gamma": 1, "delta": 1, "epsilon": 1} {
		if n := versionsOf(t, e.App.Blobs, contentsKey(db, s)); n != want {
			t.Fatalf("after the second backup %q stored %d times, want %d", s, n, want)
		}
	}
	if second.Files != 4 || second.Size < int64(len("alphagammadeltaepsilon")) {
		t.Fatalf("second backup: %+v", second)
	}
	// beta is named by the first backup only: it goes when that one does.
	for range backup.Retention("pro") - 2 {
		week()
		backupNow()
		if n := versionsOf(t, e.App.Blobs, contentsKey(db, "beta")); n != 1 {
			t.Fatalf("beta deleted while the first backup is listed")
		}
	}
	week()
	last := backupNow()
	if l, _ := backupsOf(e, db); len(l) != backup.Retention("pro") || l[len(l)-1].ID == first.ID {
		t.Fatalf("the first backup is still listed: %d backups", len(l))
	}
	if n := versionsOf(t, e.App.Blobs, contentsKey(db, "beta")); n != 0 {
		t.Fatalf("beta, named by no listed backup, still stored")
	}
	for _, s := range []string{"alpha", "gamma", "delta", "epsilon"} {
		if n := versionsOf(t, e.App.Blobs, contentsKey(db, s)); n != 1 {
			t.Fatalf("%q stored %d times, want once", s, n)
		}
	}

	restored := ana.Do("POST", api+"/_backups/"+last.ID+"/restore", map[string]any{"name": "Ana (restored)"}).Expect(t, http.StatusCreated)["db"].(string)
	e.Drain()
	compare(t, e, db, restored, true)
	if got := content(t, ana, "/api/"+restored+"/_drive/files/"+a+"/content"); got != "alpha" {
		t.Fatalf("restored a: %q", got)
	}
	if got := versionContents(t, e, ana, restored, b); !slices.Equal(got, []string{"epsilon", "delta", "gamma"}) {
		t.Fatalf("restored versions of b: %q", got)
	}
}

// TestBackupFormatOne: a backup made before contents were shared (format
// 1: the contents in a tar next to the archive) still restores, its files'
// versions with it. The test turns a new backup into that shape.
func TestBackupFormatOne(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		ana := e.SignUp("ana@example.com")
		db := e.Group(ana, "Oficina da Ana")
		api := "/api/" + db
		e.SetPlan(db, "pro")
		file := ana.Do("POST", api, map[string]any{"klass": "CloudFile", "kind": "file", "name": "a.txt", "dir_id": ""}).Expect(t, http.StatusCreated)["id"].(string)
		ana.Do("PUT", api+"/_drive/files/"+file+"/content", []byte("old")).Expect(t, http.StatusCreated)
		ana.Do("PUT", api+"/_drive/files/"+file+"/content", []byte("new")).Expect(t, http.StatusCreated)
		e.Drain()
		if err := e.App.RunJob(ctx, backup.JobScheduled, e.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		l, err := backupsOf(e, db)
		if err != nil {
			t.Fatal(err)
		}
		info := l[0]
		blobs := e.App.Blobs

		// The archive: format 1 in its header, no stored or keep_days.
		key := "backups/" + db + "/" + info.ID + ".ndjson.gz"
		var out bytes.Buffer
		gw := gzip.NewWriter(&out)
		var tb bytes.Buffer
		tw := tar.NewWriter(&tb)
		for _, line := range readLines(t, blobs, key) {
			if line["oficina_backup"] != nil {
				line["oficina_backup"] = 1
			}
			if f, ok := line["file"].(map[string]any); ok {
				delete(f, "stored")
				k := "backups/" + db + "/contents/" + f["sha256"].(string)
				rc, v, err := blobs.Get(ctx, k, "", nil)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(rc)
				rc.Close()
				tw.WriteHeader(&tar.Header{Name: f["id"].(string) + "/" + hex.EncodeToString([]byte(f["version"].(string))), Size: v.Size, Mode: 0o600})
				tw.Write(b)
				if err := blobs.Delete(ctx, k); err != nil {
					t.Fatal(err)
				}
			}
			b, _ := json.Marshal(line)
			gw.Write(append(b, '\n'))
		}
		gw.Close()
		tw.Close()
		if _, err := blobs.Put(ctx, key, &out); err != nil {
			t.Fatal(err)
		}
		if _, err := blobs.Put(ctx, "backups/"+db+"/"+info.ID+".files.tar", &tb); err != nil {
			t.Fatal(err)
		}
		info.Format = 0
		raw, _ := json.Marshal([]backup.Info{info})
		if err := e.Store.PutRecord(ctx, store.Record{Kind: "backup.index", Key: db, Value: raw}, false); err != nil {
			t.Fatal(err)
		}

		restored := ana.Do("POST", api+"/_backups/"+info.ID+"/restore", map[string]any{"name": "Ana (format 1)"}).Expect(t, http.StatusCreated)["db"].(string)
		e.Drain()
		compare(t, e, db, restored, true)
		if got := versionContents(t, e, ana, restored, file); !slices.Equal(got, []string{"new", "old"}) {
			t.Fatalf("restored versions: %q", got)
		}
	})
}

// readLines reads a gzipped NDJSON blob.
func readLines(t *testing.T, st blob.Store, key string) []map[string]any {
	t.Helper()
	rc, _, err := st.Get(context.Background(), key, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	gz, err := gzip.NewReader(rc)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	sc := bufio.NewScanner(gz)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
