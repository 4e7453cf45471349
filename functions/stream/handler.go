package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo"
)

// Applier is what the handler feeds: the change-stream consumer.
type Applier interface {
	Apply(ctx context.Context, changes []store.Change) error
}

// Handler turns stream records into store.Change values and applies them.
type Handler struct {
	consumer Applier
	log      *slog.Logger
}

// NewHandler returns a handler feeding consumer.
func NewHandler(consumer Applier, log *slog.Logger) *Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Handler{consumer: consumer, log: log}
}

// Handle applies a batch. Records that are not document writes (db meta,
// records, the consumer's own counters, TTL expiries) are skipped. When the
// batch fails, the records are applied one by one to find the first that
// fails; it and every later record are reported, so the event source
// retries from there and the order of a document's changes holds. Applying
// a change twice is harmless, so redoing the records before it is too.
func (h *Handler) Handle(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	changes := make([]store.Change, 0, len(ev.Records))
	at := make([]int, 0, len(ev.Records)) // record index of each change
	for i, r := range ev.Records {
		ch, ok, err := ChangeOf(r)
		if err != nil {
			// A record we cannot read would fail forever: log it, move on.
			h.log.ErrorContext(ctx, "stream record skipped", "event_id", r.EventID, "seq", r.Change.SequenceNumber, "err", err)
			continue
		}
		if ok {
			changes = append(changes, ch)
			at = append(at, i)
		}
	}
	if len(changes) == 0 {
		return events.DynamoDBEventResponse{}, nil
	}
	err := h.consumer.Apply(ctx, changes)
	if err == nil {
		return events.DynamoDBEventResponse{}, nil
	}
	h.log.WarnContext(ctx, "stream batch failed, applying its records one by one", "records", len(ev.Records), "err", err)
	for j, ch := range changes {
		if err := h.consumer.Apply(ctx, []store.Change{ch}); err != nil {
			h.log.ErrorContext(ctx, "stream record failed", "db", ch.DB, "id", ch.New.ID, "rev", ch.New.Rev,
				"seq", ev.Records[at[j]].Change.SequenceNumber, "err", err)
			return failuresFrom(ev, at[j]), nil
		}
	}
	return events.DynamoDBEventResponse{}, nil
}

// failuresFrom reports record i and every later record of the batch.
func failuresFrom(ev events.DynamoDBEvent, i int) events.DynamoDBEventResponse {
	var resp events.DynamoDBEventResponse
	for _, r := range ev.Records[i:] {
		resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: r.Change.SequenceNumber})
	}
	return resp
}

// ChangeOf converts a stream record into a change; ok is false for records
// that are not a document write. The store only ever writes document
// items (a delete is a tombstone revision), so a REMOVE is never a
// document change: it is a TTL expiry of a record.
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
	db, doc, ok := dynamo.DocFromItem(newItem)
	if !ok {
		return store.Change{}, false, errors.New("new image is a malformed document item")
	}
	ch = store.Change{DB: db, New: doc}
	if len(r.Change.OldImage) > 0 {
		oldItem, err := Item(r.Change.OldImage)
		if err != nil {
			return store.Change{}, false, fmt.Errorf("old image: %w", err)
		}
		oldDB, old, ok := dynamo.DocFromItem(oldItem)
		if !ok || oldDB != db || old.ID != doc.ID {
			return store.Change{}, false, errors.New("old image is not the same document")
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
