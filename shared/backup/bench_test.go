package backup_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/backup"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
)

// BenchmarkBackup: a backup of a Group holding 5,000 records (customers
// and tickets, about 300 bytes each) into the filesystem blob store, and a
// restore of it into a new Group, on the embedded store. Reports the
// milliseconds of each and the archive's size.
func BenchmarkBackup(b *testing.B) {
	e := apptest.New(b, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	for done := 0; done < 5000; done += 500 {
		docs := make([]any, 500)
		for i := range docs {
			n := done + i
			if n%2 == 0 {
				docs[i] = map[string]any{"_id": ids.New("cus"), "klass": "Customer", "name": fmt.Sprintf("Cliente %05d", n), "email": fmt.Sprintf("c%05d@example.com", n), "notes": "Cliente desde 2019; prefere contato por telefone à tarde."}
			} else {
				docs[i] = map[string]any{"_id": ids.New("tkt"), "klass": "Ticket", "content": fmt.Sprintf("Troca do compressor %d\nRuído alto ao ligar, vazamento de óleo perto da válvula.", n), "priority": "medium", "ticket_kind": "bug"}
			}
		}
		ana.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs}).Expect(b, http.StatusCreated)
	}
	e.Drain()
	m := backup.New(module.Deps{Store: e.Store, Docs: e.App.Docs, Blobs: e.App.Blobs, Groups: e.App.Accounts, Now: e.Clock.Now}, e.App.Accounts)
	ctx := context.Background()
	owner := &access.Principal{UserID: ana.ID, Name: ana.Email, Label: "Ana"}
	var made, restored time.Duration
	var info backup.Info
	n := 0
	for b.Loop() {
		t0 := time.Now()
		var err error
		if info, err = m.Create(ctx, db, "request"); err != nil {
			b.Fatal(err)
		}
		made += time.Since(t0)
		t0 = time.Now()
		if _, err := m.Restore(ctx, owner, db, info, fmt.Sprintf("Restaurada %d", n)); err != nil {
			b.Fatal(err)
		}
		restored += time.Since(t0)
		n++
	}
	if info.Docs < 5000 {
		b.Fatalf("backed up %d documents", info.Docs)
	}
	b.ReportMetric(float64(made.Milliseconds())/float64(n), "backup-ms")
	b.ReportMetric(float64(restored.Milliseconds())/float64(n), "restore-ms")
	b.ReportMetric(float64(info.Size)/1e6, "archive-MB")
}

// countingStore counts the objects and bytes written through it.
type countingStore struct {
	blob.Store
	puts, bytes atomic.Int64
}

func (c *countingStore) Put(ctx context.Context, key string, r io.Reader) (blob.Version, error) {
	v, err := c.Store.Put(ctx, key, r)
	if err == nil {
		c.puts.Add(1)
		c.bytes.Add(v.Size)
	}
	return v, err
}

// BenchmarkBackupContents: daily backups of a corp Group whose drive holds
// 200 files of 64 KB (12.8 MB), into the filesystem archives. The first
// backup stores every file's contents; each later one, with one file
// changed since, stores that file's new version only (before contents were
// shared, every archive carried a tar of all of them: 12.8 MB a backup).
// Reports the bytes and objects each kind of backup wrote and the later
// backups' milliseconds.
func BenchmarkBackupContents(b *testing.B) {
	e := apptest.New(b, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	e.SetPlan(db, "corp")
	files, body := driveFiles(b, e, ana, db, 200, 64<<10)
	archives := &countingStore{Store: e.App.Blobs}
	m := backup.New(module.Deps{Store: e.Store, Docs: e.App.Docs, Blobs: e.App.Blobs, Groups: e.App.Accounts, Now: e.Clock.Now}, e.App.Accounts).WithArchives(archives)
	ctx := context.Background()
	if _, err := m.Create(ctx, db, "schedule"); err != nil {
		b.Fatal(err)
	}
	firstBytes, firstPuts := archives.bytes.Load(), archives.puts.Load()
	archives.bytes.Store(0)
	archives.puts.Store(0)
	var took time.Duration
	n := 0
	for b.Loop() {
		b.StopTimer()
		binary.BigEndian.PutUint64(body[8:], uint64(n+1))
		ana.Do("PUT", "/api/"+db+"/_drive/files/"+files[n%len(files)]+"/content", body).Expect(b, http.StatusCreated)
		e.Drain()
		b.StartTimer()
		t0 := time.Now()
		if _, err := m.Create(ctx, db, "schedule"); err != nil {
			b.Fatal(err)
		}
		took += time.Since(t0)
		n++
	}
	b.ReportMetric(float64(firstBytes)/1e6, "first-MB")
	b.ReportMetric(float64(firstPuts), "first-objects")
	b.ReportMetric(float64(archives.bytes.Load())/1e6/float64(n), "next-MB")
	b.ReportMetric(float64(archives.puts.Load())/float64(n), "next-objects")
	b.ReportMetric(float64(took.Milliseconds())/float64(n), "next-ms")
}
