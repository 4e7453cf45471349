package dynamo

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
)

// Records live in their own partitions (PK=R#<kind>#<key>, SK=R). DynamoDB's
// TTL sweeper deletes expired items only eventually (often within days), so
// every read and condition also compares exp with the current time.

// incrAttempts bounds Incr's retries when other writers keep changing the
// counter between its conditional steps.
const incrAttempts = 16

func checkKind(kind string) error {
	if strings.Contains(kind, "#") {
		return fmt.Errorf("record kind %q: %w", kind, errHashInKey)
	}
	return nil
}

func nowValue(now time.Time) types.AttributeValue { return num(expNanos(now)) }

// PutRecord is one PutItem; with ifAbsent it is conditional on the record
// being missing or expired.
func (st *Store) PutRecord(ctx context.Context, r store.Record, ifAbsent bool) error {
	if err := checkKind(r.Kind); err != nil {
		return err
	}
	item := recordItem(r)
	in := &dynamodb.PutItemInput{TableName: &st.table, Item: item}
	var tok string
	if ifAbsent {
		// The token tells an SDK retry of our own claim from a rival's.
		tok = newToken()
		item[attrToken] = str(tok)
		in.ConditionExpression = aws.String("attribute_not_exists(#pk) OR #exp <= :now")
		in.ExpressionAttributeNames = map[string]string{"#pk": attrPK, "#exp": attrExp}
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":now": nowValue(time.Now())}
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	_, err := st.client.PutItem(ctx, in)
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if old, _ := optS(ccf.Item, attrToken); old == tok {
			return nil
		}
		return store.ErrExists
	}
	if err != nil {
		return fmt.Errorf("dynamo: put record %s/%s: %w", r.Kind, r.Key, err)
	}
	return nil
}

// GetRecord is one strongly consistent GetItem.
func (st *Store) GetRecord(ctx context.Context, kind, key string) (store.Record, error) {
	if err := checkKind(kind); err != nil {
		return store.Record{}, err
	}
	out, err := st.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      &st.table,
		Key:            recKey(kind, key),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return store.Record{}, fmt.Errorf("dynamo: get record %s/%s: %w", kind, key, err)
	}
	if out.Item == nil {
		return store.Record{}, store.ErrNotFound
	}
	r, live, err := decodeRecord(kind, key, out.Item, time.Now())
	if err != nil {
		return store.Record{}, fmt.Errorf("dynamo: get record %s/%s: %w", kind, key, err)
	}
	if !live {
		return store.Record{}, store.ErrNotFound
	}
	return r, nil
}

// TakeRecord is one DeleteItem conditional on a live record, returning the
// old item: DynamoDB serialises the deletes, so exactly one caller wins.
// An expired record is left for the sweeper. If the reply is lost and the
// SDK retries, the retry finds nothing: the record is consumed and the
// caller gets ErrNotFound (safe for one-time tokens, which is the use).
func (st *Store) TakeRecord(ctx context.Context, kind, key string) (store.Record, error) {
	if err := checkKind(kind); err != nil {
		return store.Record{}, err
	}
	now := time.Now()
	out, err := st.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 &st.table,
		Key:                       recKey(kind, key),
		ConditionExpression:       aws.String("attribute_exists(#pk) AND (attribute_not_exists(#exp) OR #exp > :now)"),
		ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#exp": attrExp},
		ExpressionAttributeValues: map[string]types.AttributeValue{":now": nowValue(now)},
		ReturnValues:              types.ReturnValueAllOld,
	})
	if isConditionFailed(err) {
		return store.Record{}, store.ErrNotFound
	}
	if err != nil {
		return store.Record{}, fmt.Errorf("dynamo: take record %s/%s: %w", kind, key, err)
	}
	r, _, err := decodeRecord(kind, key, out.Attributes, now)
	if err != nil {
		return store.Record{}, fmt.Errorf("dynamo: take record %s/%s: %w", kind, key, err)
	}
	return r, nil
}

// DeleteRecord is an unconditional DeleteItem.
func (st *Store) DeleteRecord(ctx context.Context, kind, key string) error {
	if err := checkKind(kind); err != nil {
		return err
	}
	_, err := st.client.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName: &st.table,
		Key:       recKey(kind, key),
	})
	if err != nil {
		return fmt.Errorf("dynamo: delete record %s/%s: %w", kind, key, err)
	}
	return nil
}

// Incr keeps the counter in a number attribute so that the common cases,
// a missing or a live counter, are one UpdateItem: ADD creates or adds, and
// if_not_exists gives a new counter its expiry while an existing one keeps
// its own. The rare cases the condition leaves out (an expired counter, a
// plain record holding a number, a never-expiring counter hit with a ttl)
// come back with the old item and get one more conditional write; losing a
// race there just starts over.
func (st *Store) Incr(ctx context.Context, kind, key string, delta int64, ttl time.Duration) (int64, error) {
	if err := checkKind(kind); err != nil {
		return 0, err
	}
	for range incrAttempts {
		now := time.Now()
		names := map[string]string{"#pk": attrPK, "#v": attrValue, "#exp": attrExp, "#n": attrCounter}
		values := map[string]types.AttributeValue{":d": numInt(delta), ":now": nowValue(now)}
		update := "ADD #n :d"
		cond := "attribute_not_exists(#pk) OR (attribute_not_exists(#v) AND (attribute_not_exists(#exp) OR #exp > :now))"
		if ttl > 0 {
			exp := now.Add(ttl)
			update = "SET #exp = if_not_exists(#exp, :exp), #ttl = if_not_exists(#ttl, :ttl) ADD #n :d"
			// Without "no expiry" here: such a counter must not gain one.
			cond = "attribute_not_exists(#pk) OR (attribute_not_exists(#v) AND #exp > :now)"
			names["#ttl"] = attrTTL
			values[":exp"], values[":ttl"] = num(expNanos(exp)), numInt(ttlSeconds(exp))
		}
		out, err := st.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                           &st.table,
			Key:                                 recKey(kind, key),
			UpdateExpression:                    &update,
			ConditionExpression:                 &cond,
			ExpressionAttributeNames:            names,
			ExpressionAttributeValues:           values,
			ReturnValues:                        types.ReturnValueUpdatedNew,
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
		})
		if err == nil {
			return getInt(out.Attributes, attrCounter)
		}
		var ccf *types.ConditionalCheckFailedException
		if !errors.As(err, &ccf) {
			return 0, fmt.Errorf("dynamo: incr %s/%s: %w", kind, key, err)
		}
		v, done, err := st.incrSlow(ctx, kind, key, delta, ttl, now, ccf.Item)
		if err != nil {
			return 0, fmt.Errorf("dynamo: incr %s/%s: %w", kind, key, err)
		}
		if done {
			return v, nil
		}
	}
	return 0, fmt.Errorf("dynamo: incr %s/%s: still contended after %d attempts", kind, key, incrAttempts)
}

// incrSlow handles the item that failed Incr's fast condition. done is
// false when the item changed again meanwhile.
func (st *Store) incrSlow(ctx context.Context, kind, key string, delta int64, ttl time.Duration, now time.Time,
	old map[string]types.AttributeValue) (v int64, done bool, err error) {
	if len(old) == 0 {
		return 0, false, nil
	}
	exp, hasExp := old[attrExp].(*types.AttributeValueMemberN)
	expired := false
	if hasExp {
		at, err := expTime(exp.Value)
		if err != nil {
			return 0, false, err
		}
		expired = !at.After(now)
	}
	plain, isPlain := old[attrValue].(*types.AttributeValueMemberB)

	var in *dynamodb.PutItemInput
	switch {
	case expired:
		// Start a new window, if nobody has started it yet.
		item := recKey(kind, key)
		item[attrCounter] = numInt(delta)
		if ttl > 0 {
			setExpiry(item, now.Add(ttl))
		}
		v = delta
		in = &dynamodb.PutItemInput{
			TableName:                 &st.table,
			Item:                      item,
			ConditionExpression:       aws.String("attribute_not_exists(#pk) OR #exp <= :now"),
			ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#exp": attrExp},
			ExpressionAttributeValues: map[string]types.AttributeValue{":now": nowValue(now)},
		}
	case isPlain:
		// A record written by PutRecord counts from its decimal value, as
		// in the embedded store; swap it only if it is unchanged.
		cur, err := strconv.ParseInt(string(plain.Value), 10, 64)
		if err != nil {
			return 0, false, errNotCount
		}
		v = cur + delta
		item := recKey(kind, key)
		item[attrCounter] = numInt(v)
		names := map[string]string{"#v": attrValue, "#exp": attrExp}
		values := map[string]types.AttributeValue{":old": plain}
		cond := "#v = :old AND attribute_not_exists(#exp)"
		if hasExp {
			item[attrExp] = exp
			if t, ok := old[attrTTL]; ok {
				item[attrTTL] = t
			}
			cond = "#v = :old AND #exp = :exp"
			values[":exp"] = exp
		}
		in = &dynamodb.PutItemInput{
			TableName: &st.table, Item: item, ConditionExpression: &cond,
			ExpressionAttributeNames: names, ExpressionAttributeValues: values,
		}
	case !hasExp && ttl > 0:
		// A counter without expiry stays without one.
		out, err := st.client.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                 &st.table,
			Key:                       recKey(kind, key),
			UpdateExpression:          aws.String("ADD #n :d"),
			ConditionExpression:       aws.String("attribute_exists(#pk) AND attribute_not_exists(#v) AND attribute_not_exists(#exp)"),
			ExpressionAttributeNames:  map[string]string{"#pk": attrPK, "#v": attrValue, "#exp": attrExp, "#n": attrCounter},
			ExpressionAttributeValues: map[string]types.AttributeValue{":d": numInt(delta)},
			ReturnValues:              types.ReturnValueUpdatedNew,
		})
		if isConditionFailed(err) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		v, err := getInt(out.Attributes, attrCounter)
		return v, err == nil, err
	default:
		return 0, false, nil
	}
	_, err = st.client.PutItem(ctx, in)
	if isConditionFailed(err) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return v, true, nil
}

// putOne is Transact of one put: a conditional PutItem carrying a random
// token, so that an SDK retry of a put whose reply was lost, which finds
// its own item and fails the condition, is told apart from a rival's.
func (st *Store) putOne(ctx context.Context, w store.RecordWrite, now time.Time) error {
	if err := checkKind(w.Kind); err != nil {
		return err
	}
	cond, names, values := transactCondition(w, now)
	item := recordItem(w.Record)
	tok := newToken()
	item[attrToken] = str(tok)
	_, err := st.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: &st.table, Item: item,
		ConditionExpression: cond, ExpressionAttributeNames: names, ExpressionAttributeValues: values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		if old, _ := optS(ccf.Item, attrToken); old == tok {
			return nil
		}
		return store.ErrConflict
	}
	if err != nil {
		return fmt.Errorf("dynamo: write record %s/%s: %w", w.Kind, w.Key, err)
	}
	return nil
}

// recordItem is the full item of a record as PutRecord and Transact write it.
func recordItem(r store.Record) map[string]types.AttributeValue {
	item := recKey(r.Kind, r.Key)
	value := r.Value
	if value == nil {
		value = []byte{} // an empty B attribute is valid; a nil one is not sent
	}
	item[attrValue] = &types.AttributeValueMemberB{Value: value}
	setExpiry(item, r.ExpiresAt)
	return item
}

// transactCondition builds the condition of one write: a live record with
// the expected value (a counter written by Incr keeps its value in the
// number attribute, so a decimal expectation also matches it there), or no
// live record. Expired records are absent, whatever the sweeper has done.
func transactCondition(w store.RecordWrite, now time.Time) (cond *string, names map[string]string, values map[string]types.AttributeValue) {
	switch {
	case w.ExpectAbsent:
		return aws.String("attribute_not_exists(#pk) OR #exp <= :now"),
			map[string]string{"#pk": attrPK, "#exp": attrExp},
			map[string]types.AttributeValue{":now": nowValue(now)}
	case w.Expect != nil:
		names = map[string]string{"#pk": attrPK, "#v": attrValue, "#exp": attrExp}
		values = map[string]types.AttributeValue{
			":v":   &types.AttributeValueMemberB{Value: w.Expect},
			":now": nowValue(now),
		}
		match := "#v = :v"
		if n, err := strconv.ParseInt(string(w.Expect), 10, 64); err == nil && strconv.FormatInt(n, 10) == string(w.Expect) {
			match = "(#v = :v OR (attribute_not_exists(#v) AND #n = :n))"
			names["#n"] = attrCounter
			values[":n"] = numInt(n)
		}
		return aws.String("attribute_exists(#pk) AND " + match + " AND (attribute_not_exists(#exp) OR #exp > :now)"), names, values
	}
	return nil, nil, nil
}

// Transact is one TransactWriteItems with a condition per conditional
// write. A transaction that loses a race with another one on the same
// items is sent again; one whose own condition failed is ErrConflict. The
// SDK's idempotency token makes its own retries of a call safe. A single
// write is one conditional PutItem or DeleteItem instead: as atomic, at
// half the write units (the change stream's counters are such a write).
// (A lone delete stays a transaction: its idempotency token is what makes
// a retried delete whose reply was lost succeed.)
func (st *Store) Transact(ctx context.Context, writes []store.RecordWrite) error {
	if err := store.CheckTransact(writes); err != nil {
		return err
	}
	if len(writes) == 0 {
		return nil
	}
	now := time.Now()
	if len(writes) == 1 && !writes[0].Delete {
		return st.putOne(ctx, writes[0], now)
	}
	items := make([]types.TransactWriteItem, len(writes))
	for i, w := range writes {
		if err := checkKind(w.Kind); err != nil {
			return err
		}
		cond, names, values := transactCondition(w, now)
		if w.Delete {
			items[i].Delete = &types.Delete{
				TableName: &st.table, Key: recKey(w.Kind, w.Key),
				ConditionExpression: cond, ExpressionAttributeNames: names, ExpressionAttributeValues: values,
			}
			continue
		}
		items[i].Put = &types.Put{
			TableName: &st.table, Item: recordItem(w.Record),
			ConditionExpression: cond, ExpressionAttributeNames: names, ExpressionAttributeValues: values,
		}
	}
	err := retryConflicts(ctx, func() error {
		_, err := st.client.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items})
		return err
	})
	var tce *types.TransactionCanceledException
	if errors.As(err, &tce) {
		for _, r := range tce.CancellationReasons {
			if aws.ToString(r.Code) == "ConditionalCheckFailed" {
				return store.ErrConflict
			}
		}
	}
	if err != nil {
		return fmt.Errorf("dynamo: transact %d records: %w", len(writes), err)
	}
	return nil
}
