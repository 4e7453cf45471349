package backup_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/backup"
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
