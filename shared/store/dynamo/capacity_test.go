package dynamo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

// itemBytes is an item's size by AWS's rules.
func itemBytes(item map[string]types.AttributeValue) int { return ddblocal.ItemSize(item) }

// docOfItemSize returns a doc whose stored item is size bytes (or just
// under): the body is random text, which compresses only a little, so the
// pad is found by trying.
func docOfItemSize(db string, d store.Doc, size int) store.Doc {
	d.Rev = store.NextRev("", false, nil)
	d.Seq = 1 << 20
	pad := size
	for range 64 {
		d.Body = bodyOf(pad + 8)
		got := itemBytes(docItem(db, d, []byte("12345678"), nil))
		if got == size {
			break
		}
		pad += (size - got) / 2
		if got < size && (size-got) < 2 {
			pad++
		}
	}
	d.Rev, d.Seq = "", 0
	return d
}

// bodyOf returns an n-byte JSON body of random letters: stored bodies are
// compressed, and this one shrinks little, so its item stays near n bytes.
func bodyOf(n int) []byte {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/"
	r := rand.New(rand.NewPCG(uint64(n), 7))
	b := make([]byte, n-8)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return []byte(`{"x":"` + string(b) + `"}`)
}

// BenchmarkCapacity reports the DynamoDB capacity units one store operation
// consumes, as metered by DynamoDB Local (ns/op is Local's speed, not AWS's).
// Docs carry a klass and a sort key, as API documents do.
func BenchmarkCapacity(b *testing.B) {
	ep, _ := ddblocal.Start(b)
	m := ddblocal.NewMeter(ep)
	client := ddblocal.NewClient(ep, func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, m.Middleware) })
	table := ddblocal.TableName(b)
	ctx := context.Background()
	if err := CreateTable(ctx, client, table); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &table}) })
	s := New(client, table)
	const db = "bench"
	if err := s.CreateDB(ctx, db); err != nil {
		b.Fatal(err)
	}
	mustPut := func(d store.Doc) store.Doc {
		out, err := s.Put(ctx, db, d)
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	doc := func(id string, body []byte) store.Doc {
		return store.Doc{ID: id, Klass: "ticket", SortKey: "2025-01-01T00:00:00.000Z", Body: body}
	}
	for i := range 30 {
		d := doc(fmt.Sprintf("list%03d", i), bodyOf(1024))
		d.Klass = "listed" // a klass of 1 KB docs only
		mustPut(d)
	}
	got := map[string]store.Doc{
		"get-1KB-body":  mustPut(doc("g1", bodyOf(1024))),
		"get-4KB-item":  mustPut(docOfItemSize(db, doc("g4i", nil), 4096)),
		"get-4KB-body":  mustPut(doc("g4b", bodyOf(4096))),
		"get-32KB-body": mustPut(doc("g32", bodyOf(32<<10))),
	}
	for _, name := range []string{"get-1KB-body", "get-4KB-item", "get-4KB-body", "get-32KB-body"} {
		d := got[name]
		b.Run(name, func(b *testing.B) {
			m.Reset()
			for b.Loop() {
				if _, err := s.Get(ctx, db, d.ID); err != nil {
					b.Fatal(err)
				}
			}
			m.Report(b)
			b.ReportMetric(float64(itemBytes(docItem(db, d, []byte("12345678"), nil))), "item-B")
		})
	}
	b.Run("put-update-1KB", func(b *testing.B) {
		d := mustPut(doc("u1", bodyOf(1024)))
		m.Reset()
		for i := 0; b.Loop(); i++ {
			d.Body = bodyOf(1024 - i%2) // a real change, same size
			d = mustPut(d)
		}
		m.Report(b)
	})
	b.Run("put-update-4KB-item", func(b *testing.B) {
		d := mustPut(docOfItemSize(db, doc("u4", nil), 4096))
		m.Reset()
		for b.Loop() {
			d.Body[len(d.Body)-3] ^= 1
			d = mustPut(d)
		}
		m.Report(b)
	})
	b.Run("put-conflict-1KB", func(b *testing.B) {
		// A stale revision is found by the read every write starts with:
		// nothing is sent to write.
		d := mustPut(doc("x1", bodyOf(1024)))
		stale := d
		mustPut(d)
		m.Reset()
		for b.Loop() {
			if _, err := s.Put(ctx, db, stale); err != store.ErrConflict {
				b.Fatalf("stale Put: %v", err)
			}
		}
		m.Report(b)
	})
	b.Run("put-create-1KB", func(b *testing.B) {
		m.Reset()
		for i := 0; b.Loop(); i++ {
			mustPut(doc(fmt.Sprintf("c%08d", i), bodyOf(1024)))
		}
		m.Report(b)
	})
	b.Run("delete-1KB", func(b *testing.B) {
		var docs []store.Doc
		for i := range b.N {
			docs = append(docs, mustPut(doc(fmt.Sprintf("del%08d", i), bodyOf(1024))))
		}
		m.Reset()
		b.ResetTimer()
		for i := range b.N { // not b.Loop: the docs to delete are made for this b.N
			if _, err := s.Delete(ctx, db, docs[i].ID, docs[i].Rev); err != nil {
				b.Fatal(err)
			}
		}
		m.Report(b)
	})
	b.Run("list-page-25x1KB", func(b *testing.B) {
		m.Reset()
		for b.Loop() {
			p, err := s.List(ctx, db, store.ListQuery{Klass: "listed", Limit: 25})
			if err != nil || len(p.Docs) != 25 {
				b.Fatalf("List: %d docs, %v", len(p.Docs), err)
			}
		}
		m.Report(b)
	})
	b.Run("changes-page-25", func(b *testing.B) {
		m.Reset()
		for b.Loop() {
			rows, err := s.Changes(ctx, db, store.ChangesQuery{Limit: 25})
			if err != nil || len(rows) != 25 {
				b.Fatalf("Changes: %d rows, %v", len(rows), err)
			}
		}
		m.Report(b)
	})
	b.Run("changes-page-25x1KB-include-docs", func(b *testing.B) {
		m.Reset()
		for b.Loop() {
			rows, err := s.Changes(ctx, db, store.ChangesQuery{Limit: 25, IncludeDocs: true})
			if err != nil || len(rows) != 25 {
				b.Fatalf("Changes: %d rows, %v", len(rows), err)
			}
		}
		m.Report(b)
	})
	b.Run("changes-caught-up", func(b *testing.B) {
		// What each round of a long poll costs while nothing changes.
		info, err := s.DBInfo(ctx, db)
		if err != nil {
			b.Fatal(err)
		}
		m.Reset()
		for b.Loop() {
			rows, err := s.Changes(ctx, db, store.ChangesQuery{Since: info.UpdateSeq})
			if err != nil || len(rows) != 0 {
				b.Fatalf("Changes: %d rows, %v", len(rows), err)
			}
		}
		m.Report(b)
	})
	b.Run("dbinfo", func(b *testing.B) {
		m.Reset()
		for b.Loop() {
			if _, err := s.DBInfo(ctx, db); err != nil {
				b.Fatal(err)
			}
		}
		m.Report(b)
	})
	b.Run("incr", func(b *testing.B) {
		m.Reset()
		for b.Loop() {
			if _, err := s.Incr(ctx, "throttle", "ip", 1, 0); err != nil {
				b.Fatal(err)
			}
		}
		m.Report(b)
	})
}

// BenchmarkGroupWriteCeiling measures how many writes a second one Group
// takes from 32 concurrent writers on DynamoDB Local: in one process (its
// writes share transactions) and in 32 processes (one store each, racing
// for the log's next key). DynamoDB Local's speed is not AWS's; the
// figure to quote on AWS is the partition's (see notes/cost.md).
//
//	go test -run '^$' -bench GroupWriteCeiling -benchtime 640x ./shared/store/dynamo/
func BenchmarkGroupWriteCeiling(b *testing.B) {
	ep, client := ddblocal.Start(b)
	_ = ep
	table := ddblocal.TableName(b)
	ctx := context.Background()
	if err := CreateTable(ctx, client, table); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: &table}) })
	const writers = 32
	var runs atomic.Int64 // the testing package runs each sub-benchmark more than once
	for _, procs := range []int{1, writers} {
		b.Run(fmt.Sprintf("processes-%d", procs), func(b *testing.B) {
			stores := make([]*Store, procs)
			for i := range stores {
				stores[i] = New(client, table)
			}
			db := fmt.Sprintf("ceiling%d", runs.Add(1))
			if err := stores[0].CreateDB(ctx, db); err != nil {
				b.Fatal(err)
			}
			body := []byte(`{"klass":"Ticket","status":"open","title":"Troca de embreagem"}`)
			var next atomic.Int64
			errs := make(chan error, writers)
			b.ResetTimer()
			for w := range writers {
				go func() {
					s := stores[w%procs]
					for {
						i := next.Add(1)
						if i > int64(b.N) {
							errs <- nil
							return
						}
						if _, err := s.Put(ctx, db, store.Doc{ID: fmt.Sprintf("t%08d", i), Klass: "Ticket", SortKey: "2026", Body: body}); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			for range writers {
				if err := <-errs; err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
			info, err := stores[0].DBInfo(ctx, db)
			if err != nil || info.DocCount != int64(b.N) {
				b.Fatalf("DBInfo %+v, %v; want %d docs", info, err, b.N)
			}
		})
	}
}
