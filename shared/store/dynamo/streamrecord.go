package dynamo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
)

// This file decodes the table's DynamoDB Streams records (NEW_AND_OLD_IMAGES,
// as Lambda's event source delivers them) back into the store's documents:
// the change-stream function and the tests that follow DynamoDB Local's
// stream share it.

// ChangeOf converts a stream record into a change; ok is false for records
// that are not a document write. The store only ever writes document
// items (a delete is a tombstone revision), so a REMOVE is never a
// document change: it is a TTL expiry of a record. Nor is a live
// revision rewritten in place with the same rev (Resort moving its index
// key): the document did not change.
func ChangeOf(r events.DynamoDBEventRecord) (ch store.Change, ok bool, err error) {
	if r.EventName == string(events.DynamoDBOperationTypeRemove) || len(r.Change.NewImage) == 0 {
		return store.Change{}, false, nil
	}
	newItem, err := Item(r.Change.NewImage)
	if err != nil {
		return store.Change{}, false, fmt.Errorf("new image: %w", err)
	}
	if !isDocItem(newItem) {
		return store.Change{}, false, nil
	}
	db, doc, ok := DocFromItem(newItem)
	if !ok {
		return store.Change{}, false, errors.New("new image is a malformed document item")
	}
	ch = store.Change{DB: db, New: doc}
	if len(r.Change.OldImage) > 0 {
		oldItem, err := Item(r.Change.OldImage)
		if err != nil {
			return store.Change{}, false, fmt.Errorf("old image: %w", err)
		}
		oldDB, old, ok := DocFromItem(oldItem)
		if !ok || oldDB != db || old.ID != doc.ID {
			return store.Change{}, false, errors.New("old image is not the same document")
		}
		if old.Rev == doc.Rev && !old.Deleted && !doc.Deleted {
			return store.Change{}, false, nil
		}
		ch.Old = &old
	}
	return ch, true, nil
}

// isDocItem tells document items (SK "D#<id>") from the db meta item and
// records, before DocFromItem, whose "not a document" and "malformed"
// answers look alike.
func isDocItem(item map[string]types.AttributeValue) bool {
	pk, ok := item["PK"].(*types.AttributeValueMemberS)
	sk, ok2 := item["SK"].(*types.AttributeValueMemberS)
	return ok && ok2 && strings.HasPrefix(pk.Value, "DB#") && strings.HasPrefix(sk.Value, "D#")
}

// Item converts a stream image to the SDK's attribute values.
func Item(image map[string]events.DynamoDBAttributeValue) (map[string]types.AttributeValue, error) {
	item := make(map[string]types.AttributeValue, len(image))
	for k, v := range image {
		av, err := Attr(v)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", k, err)
		}
		item[k] = av
	}
	return item, nil
}

// Attr converts one attribute value, recursively.
func Attr(v events.DynamoDBAttributeValue) (types.AttributeValue, error) {
	switch v.DataType() {
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}, nil
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}, nil
	case events.DataTypeBinary:
		return &types.AttributeValueMemberB{Value: v.Binary()}, nil
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}, nil
	case events.DataTypeNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: v.StringSet()}, nil
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: v.NumberSet()}, nil
	case events.DataTypeBinarySet:
		return &types.AttributeValueMemberBS{Value: v.BinarySet()}, nil
	case events.DataTypeList:
		l := v.List()
		out := make([]types.AttributeValue, len(l))
		for i, e := range l {
			av, err := Attr(e)
			if err != nil {
				return nil, err
			}
			out[i] = av
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case events.DataTypeMap:
		m, err := Item(v.Map())
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("unsupported attribute type %d", v.DataType())
}
