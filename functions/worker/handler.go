package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/mail/ses"
	"github.com/oficina/oficina/shared/schedule"
)

// Handler takes the worker's three event sources: the jobs queue (SQS,
// batches of tasks), SES's feedback topic (SNS, a bounce or complaint
// report each), which it records on the suppression list, and the api's
// direct invocations about backups ({"backup": request}), which only the
// worker may make and sign.
type Handler struct {
	Worker       *schedule.Worker
	Suppressions *mail.Suppressions
	// Backups serves the api's backup requests, the whole event
	// (backup.Module.Keep).
	Backups func(ctx context.Context, payload []byte) ([]byte, error)
	Log     *slog.Logger
	// Prepare, when set, runs before each event and must succeed first:
	// the work kept out of the cold start (the system databases and the
	// plan prices, parts.Work.Prepare), done at the first event and then
	// a lock.
	Prepare func(ctx context.Context) error
}

// Invoke tells the events apart by their records' source.
func (h *Handler) Invoke(ctx context.Context, raw json.RawMessage) (any, error) {
	if h.Prepare != nil {
		if err := h.Prepare(ctx); err != nil {
			return nil, fmt.Errorf("worker: %w", err)
		}
	}
	var probe struct {
		Records []struct {
			// SQS spells it eventSource, SNS EventSource: JSON keys match either.
			Source string `json:"eventSource"`
		} `json:"Records"`
		Backup json.RawMessage `json:"backup"`
	}
	err := json.Unmarshal(raw, &probe)
	if err == nil && len(probe.Backup) > 0 && h.Backups != nil {
		// The answer is the bytes the api reads (not re-encoded as a string).
		out, err := h.Backups(ctx, raw)
		if err != nil {
			return nil, err
		}
		return json.RawMessage(out), nil
	}
	if err != nil || len(probe.Records) == 0 {
		return nil, fmt.Errorf("worker: not an SQS or SNS event, nor a backup request: %.200s", raw)
	}
	switch src := probe.Records[0].Source; src {
	case "aws:sqs":
		var ev events.SQSEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("worker: SQS event: %w", err)
		}
		return h.Worker.HandleSQS(ctx, ev)
	case "aws:sns":
		var ev events.SNSEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("worker: SNS event: %w", err)
		}
		return nil, h.feedback(ctx, ev)
	default:
		return nil, fmt.Errorf("worker: events from %q are not the worker's", src)
	}
}

// feedback records each SES report. A message that is no report is logged
// and dropped (retrying cannot help); a store failure fails the invocation,
// which Lambda retries and then sends to the stack's failure queue.
func (h *Handler) feedback(ctx context.Context, ev events.SNSEvent) error {
	for _, rec := range ev.Records {
		sups, err := ses.RecordFeedback(ctx, h.Suppressions, []byte(rec.SNS.Message))
		if errors.Is(err, ses.ErrNotFeedback) {
			h.Log.WarnContext(ctx, "mail feedback: not an SES report", "message", rec.SNS.MessageID, "err", err)
			continue
		}
		if err != nil {
			return fmt.Errorf("worker: mail feedback %s: %w", rec.SNS.MessageID, err)
		}
		for _, s := range sups {
			h.Log.InfoContext(ctx, "mail suppressed", "reason", s.Reason, "detail", s.Detail, "kind", s.Kind)
		}
	}
	return nil
}
