package ddblocal

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
)

// Meter asks every request for its consumed capacity (INDEXES: the total
// plus the per-index part) and adds it up. DynamoDB Local's read figures
// match AWS's (they follow the item sizes); its write figures under-count
// transactions, so with Rules set the writes are also counted by AWS's
// rules (awsrules.go), and those are the figures to quote.
type Meter struct {
	// Rules, when set, counts writes by AWS's rules.
	Rules *WriteRules

	mu               sync.Mutex
	read, write, gsi float64
	calls, unmetered int
}

// NewMeter returns a meter that also counts writes by AWS's rules, reading
// item images through a plain client of endpoint.
func NewMeter(endpoint string) *Meter {
	return &Meter{Rules: &WriteRules{Images: NewClient(endpoint)}}
}

// Reset zeroes the totals.
func (m *Meter) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.read, m.write, m.gsi, m.calls, m.unmetered = 0, 0, 0, 0, 0
	if m.Rules != nil {
		m.Rules.Reset()
	}
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
			var (
				items  []written
				txn    bool
				before []map[string]types.AttributeValue
			)
			if m.Rules != nil {
				var ok bool
				if items, txn, ok = m.Rules.targets(ctx, in.Parameters); ok {
					for _, it := range items {
						img, ierr := m.Rules.image(ctx, it)
						if ierr != nil {
							return middleware.InitializeOutput{}, middleware.Metadata{}, ierr
						}
						before = append(before, img)
					}
				}
			}
			out, md, err := next.HandleInitialize(ctx, in)
			if len(items) > 0 && (err == nil || isConditionFailure(err)) {
				after := make([]map[string]types.AttributeValue, len(items))
				for i, it := range items {
					img, ierr := m.Rules.image(ctx, it)
					if ierr != nil {
						return out, md, ierr
					}
					after[i] = img
				}
				m.Rules.count(ctx, items, txn, before, after, err != nil)
			}
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
	if m.Rules != nil {
		wcu, index, _ := m.Rules.Totals()
		b.ReportMetric(wcu/n, "WCU/op")
		b.ReportMetric(index/n, "GSI-WCU/op") // part of the above spent on index writes
		b.ReportMetric(m.write/n, "local-WCU/op")
	} else {
		b.ReportMetric(m.write/n, "local-WCU/op")
		b.ReportMetric(m.gsi/n, "local-GSI-CU/op")
	}
	b.ReportMetric(float64(m.calls)/n, "calls/op")
}

// Totals are the capacity units and calls metered since the last Reset:
// reads as DynamoDB Local meters them, writes by AWS's rules when Rules is
// set (else Local's figure).
func (m *Meter) Totals() (read, write float64, calls int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	write = m.write
	if m.Rules != nil {
		write, _, _ = m.Rules.Totals()
	}
	return m.read, write, m.calls
}

// isConditionFailure reports a write a condition refused (it still costs
// capacity on AWS).
func isConditionFailure(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	var tce *types.TransactionCanceledException
	return errors.As(err, &ccf) || errors.As(err, &tce)
}
