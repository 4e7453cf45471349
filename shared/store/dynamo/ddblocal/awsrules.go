package ddblocal

import (
	"context"
	"fmt"
	"maps"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// This file counts write capacity by AWS's published rules, because
// DynamoDB Local's ConsumedCapacity under-counts writes (transactions
// above all). The rules, from the DynamoDB developer guide:
//
//   - a write costs 1 WCU per started KB of the larger of the item's old and
//     new size (a delete: the old size; a failed conditional write: the old
//     size, at least 1);
//   - inside TransactWriteItems every item costs twice that (prepare and
//     commit);
//   - each global secondary index the item enters, leaves or changes in
//     costs its own writes on top, by the index item's size: a put when it
//     enters, a delete when it leaves, both when its index key changes, one
//     put when only projected attributes change, nothing otherwise. Index
//     writes are counted once, not doubled, in a transaction (AWS documents
//     the doubling for the table's items; the index is maintained after the
//     commit).
//
// Item sizes follow AWS's rules too (ItemSize).

// ItemSize is an item's size by AWS's rules: attribute names plus values;
// a number is 1 byte per two significant digits plus 1; a list or map 3
// bytes plus 1 per element plus its elements; booleans and nulls 1 byte.
func ItemSize(item map[string]types.AttributeValue) int {
	size := 0
	for name, v := range item {
		size += len(name) + valueSize(v)
	}
	return size
}

func valueSize(v types.AttributeValue) int {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return len(v.Value)
	case *types.AttributeValueMemberN:
		return numberSize(v.Value)
	case *types.AttributeValueMemberB:
		return len(v.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range v.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range v.Value {
			n += numberSize(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range v.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3 + len(v.Value)
		for _, e := range v.Value {
			n += valueSize(e)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3 + len(v.Value)
		for k, e := range v.Value {
			n += len(k) + valueSize(e)
		}
		return n
	}
	return 0
}

// numberSize: leading and trailing zeros do not count.
func numberSize(s string) int {
	digits := strings.Trim(strings.NewReplacer("-", "", ".", "").Replace(s), "0")
	return (len(digits)+1)/2 + 1
}

// kbUnits is the write units of an item of size bytes (at least 1).
func kbUnits(size int) float64 { return math.Max(1, math.Ceil(float64(size)/1024)) }

// WriteRules counts the write capacity of the requests a client sends, by
// AWS's rules. It reads each written item before and after the request
// through Images (a client without this middleware), so it is for
// benchmarks and tests that write one request at a time.
type WriteRules struct {
	Images *dynamodb.Client

	mu      sync.Mutex
	tables  map[string]*tableShape
	wcu     float64 // table and index writes
	indexWC float64 // the part spent on index writes
	failed  int     // writes or transactions refused by a condition
}

type tableShape struct {
	keys    []string
	indexes []indexShape
}

type indexShape struct {
	name       string
	keys       []string
	projection types.ProjectionType
	include    []string
}

// Reset zeroes the totals.
func (w *WriteRules) Reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.wcu, w.indexWC, w.failed = 0, 0, 0
}

// Totals returns the write units counted (index writes included), the
// part spent on index writes, and how many writes a condition refused.
func (w *WriteRules) Totals() (wcu, index float64, failed int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.wcu, w.indexWC, w.failed
}

// written is one item a request writes.
type written struct {
	table string
	key   map[string]types.AttributeValue
}

func (w *WriteRules) shape(ctx context.Context, table string) (*tableShape, error) {
	w.mu.Lock()
	s, ok := w.tables[table]
	w.mu.Unlock()
	if ok {
		return s, nil
	}
	out, err := w.Images.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(table)})
	if err != nil {
		return nil, fmt.Errorf("ddblocal: describe %s: %w", table, err)
	}
	s = &tableShape{}
	for _, k := range out.Table.KeySchema {
		s.keys = append(s.keys, aws.ToString(k.AttributeName))
	}
	for _, g := range out.Table.GlobalSecondaryIndexes {
		ix := indexShape{name: aws.ToString(g.IndexName), projection: g.Projection.ProjectionType, include: g.Projection.NonKeyAttributes}
		for _, k := range g.KeySchema {
			ix.keys = append(ix.keys, aws.ToString(k.AttributeName))
		}
		s.indexes = append(s.indexes, ix)
	}
	w.mu.Lock()
	if w.tables == nil {
		w.tables = map[string]*tableShape{}
	}
	w.tables[table] = s
	w.mu.Unlock()
	return s, nil
}

// targets lists what a write request writes, and whether it is a transaction.
func (w *WriteRules) targets(ctx context.Context, params any) (items []written, txn bool, ok bool) {
	keyOf := func(table string, item map[string]types.AttributeValue) map[string]types.AttributeValue {
		s, err := w.shape(ctx, table)
		if err != nil {
			return nil
		}
		k := map[string]types.AttributeValue{}
		for _, name := range s.keys {
			k[name] = item[name]
		}
		return k
	}
	switch p := params.(type) {
	case *dynamodb.PutItemInput:
		return []written{{aws.ToString(p.TableName), keyOf(aws.ToString(p.TableName), p.Item)}}, false, true
	case *dynamodb.UpdateItemInput:
		return []written{{aws.ToString(p.TableName), p.Key}}, false, true
	case *dynamodb.DeleteItemInput:
		return []written{{aws.ToString(p.TableName), p.Key}}, false, true
	case *dynamodb.TransactWriteItemsInput:
		for _, it := range p.TransactItems {
			switch {
			case it.Put != nil:
				items = append(items, written{aws.ToString(it.Put.TableName), keyOf(aws.ToString(it.Put.TableName), it.Put.Item)})
			case it.Update != nil:
				items = append(items, written{aws.ToString(it.Update.TableName), it.Update.Key})
			case it.Delete != nil:
				items = append(items, written{aws.ToString(it.Delete.TableName), it.Delete.Key})
			case it.ConditionCheck != nil:
				items = append(items, written{aws.ToString(it.ConditionCheck.TableName), it.ConditionCheck.Key})
			}
		}
		return items, true, true
	}
	return nil, false, false
}

func (w *WriteRules) image(ctx context.Context, it written) (map[string]types.AttributeValue, error) {
	out, err := w.Images.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(it.table), Key: it.key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		return nil, fmt.Errorf("ddblocal: read image: %w", err)
	}
	return out.Item, nil
}

// count adds one request's units from the images before and after it.
func (w *WriteRules) count(ctx context.Context, items []written, txn bool, before, after []map[string]types.AttributeValue, failed bool) {
	var total, index float64
	for i, it := range items {
		old, cur := before[i], after[i]
		if failed {
			// A refused write costs the existing item's size, at least 1.
			total += kbUnits(ItemSize(old))
			continue
		}
		units := kbUnits(max(ItemSize(old), ItemSize(cur)))
		if old == nil && cur == nil {
			units = 1 // a delete of nothing, or a condition check
		}
		if txn {
			units *= 2
		}
		total += units
		s, err := w.shape(ctx, it.table)
		if err != nil {
			continue
		}
		for _, ix := range s.indexes {
			u := ix.writes(s.keys, old, cur)
			total += u
			index += u
		}
	}
	w.mu.Lock()
	w.wcu += total
	w.indexWC += index
	if failed {
		w.failed++
	}
	w.mu.Unlock()
}

// writes is the index's write units for an item going from old to cur.
func (ix indexShape) writes(tableKeys []string, old, cur map[string]types.AttributeValue) float64 {
	oldIn, curIn := ix.holds(old), ix.holds(cur)
	switch {
	case !oldIn && !curIn:
		return 0
	case oldIn && !curIn:
		return kbUnits(ItemSize(ix.project(tableKeys, old)))
	case !oldIn && curIn:
		return kbUnits(ItemSize(ix.project(tableKeys, cur)))
	}
	if !keysEqual(ix.keys, old, cur) {
		return kbUnits(ItemSize(ix.project(tableKeys, old))) + kbUnits(ItemSize(ix.project(tableKeys, cur)))
	}
	po, pc := ix.project(tableKeys, old), ix.project(tableKeys, cur)
	if maps.EqualFunc(po, pc, func(a, b types.AttributeValue) bool { return reflect.DeepEqual(a, b) }) {
		return 0
	}
	return kbUnits(ItemSize(pc))
}

func (ix indexShape) holds(item map[string]types.AttributeValue) bool {
	if item == nil {
		return false
	}
	for _, k := range ix.keys {
		if _, ok := item[k]; !ok {
			return false
		}
	}
	return true
}

// project is the index's copy of an item.
func (ix indexShape) project(tableKeys []string, item map[string]types.AttributeValue) map[string]types.AttributeValue {
	if ix.projection == types.ProjectionTypeAll {
		return item
	}
	out := map[string]types.AttributeValue{}
	for _, k := range append(append(append([]string{}, tableKeys...), ix.keys...), ix.include...) {
		if v, ok := item[k]; ok {
			out[k] = v
		}
	}
	return out
}

func keysEqual(keys []string, a, b map[string]types.AttributeValue) bool {
	for _, k := range keys {
		if !reflect.DeepEqual(a[k], b[k]) {
			return false
		}
	}
	return true
}
