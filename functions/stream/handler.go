package main

import (
	"context"
	"log/slog"

	"github.com/aws/aws-lambda-go/events"

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
		ch, ok, err := dynamo.ChangeOf(r)
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
