package dynamo

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo/ddblocal"
)

// meter asks every request for its consumed capacity (INDEXES: the total
// plus the per-index part) and adds it up. DynamoDB Local meters GetItem,
// PutItem, UpdateItem, DeleteItem, Query and TransactWriteItems the way AWS
// documents it, so these figures are measured, not computed.
type meter struct {
	mu               sync.Mutex
	read, write, gsi float64
	calls, unmetered int
}

func (m *meter) reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.read, m.write, m.gsi, m.calls, m.unmetered = 0, 0, 0, 0, 0
}

func (m *meter) add(write bool, ccs ...types.ConsumedCapacity) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if len(ccs) == 0 {
		m.unmetered++
	}
	for _, cc := range ccs {
		if write {
			m.write += aws.ToFloat64(cc.CapacityUnits)
		} else {
			m.read += aws.ToFloat64(cc.CapacityUnits)
		}
		for _, g := range cc.GlobalSecondaryIndexes {
			m.gsi += aws.ToFloat64(g.CapacityUnits)
		}
	}
}

func one(cc *types.ConsumedCapacity) []types.ConsumedCapacity {
	if cc == nil {
		return nil
	}
	return []types.ConsumedCapacity{*cc}
}

func (m *meter) middleware(stack *middleware.Stack) error {
	return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("meter",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			const rc = types.ReturnConsumedCapacityIndexes
			switch p := in.Parameters.(type) {
			case *dynamodb.GetItemInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.BatchGetItemInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.PutItemInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.UpdateItemInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.DeleteItemInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.QueryInput:
				p.ReturnConsumedCapacity = rc
			case *dynamodb.TransactWriteItemsInput:
				p.ReturnConsumedCapacity = rc
			}
			out, md, err := next.HandleInitialize(ctx, in)
			switch r := out.Result.(type) {
			case *dynamodb.GetItemOutput:
				m.add(false, one(r.ConsumedCapacity)...)
			case *dynamodb.BatchGetItemOutput:
				m.add(false, r.ConsumedCapacity...)
			case *dynamodb.QueryOutput:
				m.add(false, one(r.ConsumedCapacity)...)
			case *dynamodb.PutItemOutput:
				m.add(true, one(r.ConsumedCapacity)...)
			case *dynamodb.UpdateItemOutput:
				m.add(true, one(r.ConsumedCapacity)...)
			case *dynamodb.DeleteItemOutput:
				m.add(true, one(r.ConsumedCapacity)...)
			case *dynamodb.TransactWriteItemsOutput:
				m.add(true, r.ConsumedCapacity...)
			}
			return out, md, err
		}), middleware.After)
}

// report turns the totals of b.N operations into per-operation metrics.
func (m *meter) report(b *testing.B) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.unmetered > 0 {
		b.Fatalf("%d calls came back without ConsumedCapacity", m.unmetered)
	}
	m.reportLocked(b)
}

func (m *meter) reportLocked(b *testing.B) {
	n := float64(b.N)
	b.ReportMetric(m.read/n, "RCU/op")
	b.ReportMetric(m.write/n, "WCU/op")
	b.ReportMetric(m.gsi/n, "GSI-CU/op") // part of the above spent on index items
	b.ReportMetric(float64(m.calls)/n, "calls/op")
}

// itemBytes is an item's size by AWS's rules: attribute names plus values
// (numbers approximated as 1 byte per 2 digits plus 1).
func itemBytes(item map[string]types.AttributeValue) int {
	size := 0
	for name, v := range item {
		size += len(name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			size += len(v.Value)
		case *types.AttributeValueMemberN:
			size += (len(strings.TrimLeft(v.Value, "-0"))+1)/2 + 1
		case *types.AttributeValueMemberB:
			size += len(v.Value)
		case *types.AttributeValueMemberBOOL:
			size++
		}
	}
	return size
}

// docOfItemSize returns a doc whose stored item is exactly size bytes.
func docOfItemSize(db string, d store.Doc, size int) store.Doc {
	d.Rev = store.NextRev("", false, nil)
	d.Seq = 1 << 20
	d.Body = []byte(`{"x":""}`)
	pad := size - itemBytes(docItem(db, d))
	d.Body = []byte(`{"x":"` + strings.Repeat("a", pad) + `"}`)
	d.Rev, d.Seq = "", 0
	return d
}

func bodyOf(n int) []byte {
	return []byte(`{"x":"` + strings.Repeat("a", n-8) + `"}`)
}

// BenchmarkCapacity reports the DynamoDB capacity units one store operation
// consumes, as metered by DynamoDB Local (ns/op is Local's speed, not AWS's).
// Docs carry a klass and a sort key, as API documents do.
func BenchmarkCapacity(b *testing.B) {
	ep, _ := ddblocal.Start(b)
	m := &meter{}
	client := ddblocal.NewClient(ep, func(o *dynamodb.Options) { o.APIOptions = append(o.APIOptions, m.middleware) })
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
			m.reset()
			for b.Loop() {
				if _, err := s.Get(ctx, db, d.ID); err != nil {
					b.Fatal(err)
				}
			}
			m.report(b)
			b.ReportMetric(float64(itemBytes(docItem(db, d))), "item-B")
		})
	}
	b.Run("put-update-1KB", func(b *testing.B) {
		d := mustPut(doc("u1", bodyOf(1024)))
		m.reset()
		for i := 0; b.Loop(); i++ {
			d.Body = bodyOf(1024 - i%2) // a real change, same size
			d = mustPut(d)
		}
		m.report(b)
	})
	b.Run("put-update-4KB-item", func(b *testing.B) {
		d := mustPut(docOfItemSize(db, doc("u4", nil), 4096))
		m.reset()
		for b.Loop() {
			d.Body[len(d.Body)-3] ^= 1
			d = mustPut(d)
		}
		m.report(b)
	})
	b.Run("put-conflict-1KB", func(b *testing.B) {
		// A stale revision is found by the read every write starts with:
		// nothing is sent to write.
		d := mustPut(doc("x1", bodyOf(1024)))
		stale := d
		mustPut(d)
		m.reset()
		for b.Loop() {
			if _, err := s.Put(ctx, db, stale); err != store.ErrConflict {
				b.Fatalf("stale Put: %v", err)
			}
		}
		m.report(b)
	})
	b.Run("put-create-1KB", func(b *testing.B) {
		m.reset()
		for i := 0; b.Loop(); i++ {
			mustPut(doc(fmt.Sprintf("c%08d", i), bodyOf(1024)))
		}
		m.report(b)
	})
	b.Run("delete-1KB", func(b *testing.B) {
		var docs []store.Doc
		for i := range b.N {
			docs = append(docs, mustPut(doc(fmt.Sprintf("del%08d", i), bodyOf(1024))))
		}
		m.reset()
		b.ResetTimer()
		for i := range b.N { // not b.Loop: the docs to delete are made for this b.N
			if _, err := s.Delete(ctx, db, docs[i].ID, docs[i].Rev); err != nil {
				b.Fatal(err)
			}
		}
		m.report(b)
	})
	b.Run("list-page-25x1KB", func(b *testing.B) {
		m.reset()
		for b.Loop() {
			p, err := s.List(ctx, db, store.ListQuery{Klass: "listed", Limit: 25})
			if err != nil || len(p.Docs) != 25 {
				b.Fatalf("List: %d docs, %v", len(p.Docs), err)
			}
		}
		m.report(b)
	})
	b.Run("changes-page-25", func(b *testing.B) {
		m.reset()
		for b.Loop() {
			rows, err := s.Changes(ctx, db, store.ChangesQuery{Limit: 25})
			if err != nil || len(rows) != 25 {
				b.Fatalf("Changes: %d rows, %v", len(rows), err)
			}
		}
		m.report(b)
	})
	b.Run("changes-page-25x1KB-include-docs", func(b *testing.B) {
		m.reset()
		for b.Loop() {
			rows, err := s.Changes(ctx, db, store.ChangesQuery{Limit: 25, IncludeDocs: true})
			if err != nil || len(rows) != 25 {
				b.Fatalf("Changes: %d rows, %v", len(rows), err)
			}
		}
		m.report(b)
	})
	b.Run("changes-caught-up", func(b *testing.B) {
		// What each round of a long poll costs while nothing changes.
		info, err := s.DBInfo(ctx, db)
		if err != nil {
			b.Fatal(err)
		}
		m.reset()
		for b.Loop() {
			rows, err := s.Changes(ctx, db, store.ChangesQuery{Since: info.UpdateSeq})
			if err != nil || len(rows) != 0 {
				b.Fatalf("Changes: %d rows, %v", len(rows), err)
			}
		}
		m.report(b)
	})
	b.Run("dbinfo", func(b *testing.B) {
		m.reset()
		for b.Loop() {
			if _, err := s.DBInfo(ctx, db); err != nil {
				b.Fatal(err)
			}
		}
		m.report(b)
	})
	b.Run("incr", func(b *testing.B) {
		m.reset()
		for b.Loop() {
			if _, err := s.Incr(ctx, "throttle", "ip", 1, 0); err != nil {
				b.Fatal(err)
			}
		}
		m.report(b)
	})
}
