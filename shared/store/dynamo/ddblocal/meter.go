package ddblocal

import (
	"context"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Meter asks every request for its consumed capacity (INDEXES: the total
// plus the per-index part) and adds it up. DynamoDB Local meters GetItem,
// PutItem, UpdateItem, DeleteItem, Query and TransactWriteItems the way AWS
// documents it, so these figures are measured, not computed.
type Meter struct {
	mu               sync.Mutex
	read, write, gsi float64
	calls, unmetered int
}

// Reset zeroes the totals.
func (m *Meter) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.read, m.write, m.gsi, m.calls, m.unmetered = 0, 0, 0, 0, 0
}

func (m *Meter) add(write bool, ccs ...types.ConsumedCapacity) {
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

// Middleware goes into a client's APIOptions.
func (m *Meter) Middleware(stack *middleware.Stack) error {
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

// Report turns the totals of b.N operations into per-operation metrics.
func (m *Meter) Report(b *testing.B) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.unmetered > 0 {
		b.Fatalf("%d calls came back without ConsumedCapacity", m.unmetered)
	}
	m.reportLocked(b)
}

func (m *Meter) reportLocked(b *testing.B) {
	n := float64(b.N)
	b.ReportMetric(m.read/n, "RCU/op")
	b.ReportMetric(m.write/n, "WCU/op")
	b.ReportMetric(m.gsi/n, "GSI-CU/op") // part of the above spent on index items
	b.ReportMetric(float64(m.calls)/n, "calls/op")
}

// Totals are the capacity units and calls metered since the last Reset.
func (m *Meter) Totals() (read, write float64, calls int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.read, m.write, m.calls
}
