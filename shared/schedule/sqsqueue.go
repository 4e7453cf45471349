package schedule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// SQSAPI is the part of the SQS client SQSQueue uses.
type SQSAPI interface {
	SendMessageBatch(ctx context.Context, in *sqs.SendMessageBatchInput, optFns ...func(*sqs.Options)) (*sqs.SendMessageBatchOutput, error)
}

// SQSQueue sends tasks to the stack's jobs queue, which the worker
// function consumes.
type SQSQueue struct {
	client SQSAPI
	url    string
}

// NewSQSQueue returns a queue on the SQS queue at url.
func NewSQSQueue(client SQSAPI, url string) *SQSQueue { return &SQSQueue{client: client, url: url} }

// sendAttempts is how often entries SQS refused for a passing reason are
// sent again before the dispatch fails (and is retried whole).
const sendAttempts = 3

// Send implements Queue, ten messages a call.
func (q *SQSQueue) Send(ctx context.Context, tasks []Task) error {
	for len(tasks) > 0 {
		n := min(len(tasks), sendBatch)
		if err := q.sendBatch(ctx, tasks[:n]); err != nil {
			return err
		}
		tasks = tasks[n:]
	}
	return nil
}

func (q *SQSQueue) sendBatch(ctx context.Context, tasks []Task) error {
	entries := make([]types.SendMessageBatchRequestEntry, len(tasks))
	for i, t := range tasks {
		body, err := json.Marshal(t)
		if err != nil {
			return fmt.Errorf("schedule: encode task: %w", err)
		}
		entries[i] = types.SendMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), MessageBody: aws.String(string(body))}
	}
	for attempt := 1; ; attempt++ {
		out, err := q.client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(q.url), Entries: entries})
		if err != nil {
			return fmt.Errorf("schedule: send tasks: %w", err)
		}
		if len(out.Failed) == 0 {
			return nil
		}
		var errs []error
		retry := map[string]bool{}
		for _, f := range out.Failed {
			errs = append(errs, fmt.Errorf("entry %s: %s %s", aws.ToString(f.Id), aws.ToString(f.Code), aws.ToString(f.Message)))
			if !f.SenderFault {
				retry[aws.ToString(f.Id)] = true
			}
		}
		if len(retry) < len(out.Failed) || attempt == sendAttempts {
			return fmt.Errorf("schedule: SQS refused tasks: %w", errors.Join(errs...))
		}
		kept := entries[:0]
		for _, e := range entries {
			if retry[aws.ToString(e.Id)] {
				kept = append(kept, e)
			}
		}
		entries = kept
	}
}
