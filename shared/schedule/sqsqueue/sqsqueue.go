// Package sqsqueue is the dispatcher's queue on SQS: the stack's jobs
// queue, which the worker function consumes. It is apart from
// shared/schedule so that the worker, which only receives tasks, links no
// SQS client.
package sqsqueue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/oficina/oficina/shared/schedule"
)

// API is the part of the SQS client Queue uses.
type API interface {
	SendMessageBatch(ctx context.Context, in *sqs.SendMessageBatchInput, optFns ...func(*sqs.Options)) (*sqs.SendMessageBatchOutput, error)
}

// Queue sends tasks to the stack's jobs queue, which the worker function
// consumes (a schedule.Queue).
type Queue struct {
	client API
	url    string
}

// New returns a queue on the SQS queue at url.
func New(client API, url string) *Queue { return &Queue{client: client, url: url} }

var _ schedule.Queue = (*Queue)(nil)

// batch is what SendMessageBatch takes at most.
const batch = 10

// sendAttempts is how often entries SQS refused for a passing reason are
// sent again before the dispatch fails (and is retried whole).
const sendAttempts = 3

// Send implements schedule.Queue, ten messages a call.
func (q *Queue) Send(ctx context.Context, tasks []schedule.Task) error {
	for len(tasks) > 0 {
		n := min(len(tasks), batch)
		if err := q.sendBatch(ctx, tasks[:n]); err != nil {
			return err
		}
		tasks = tasks[n:]
	}
	return nil
}

func (q *Queue) sendBatch(ctx context.Context, tasks []schedule.Task) error {
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
