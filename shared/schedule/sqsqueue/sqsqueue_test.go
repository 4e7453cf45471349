package sqsqueue

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/oficina/oficina/shared/schedule"
)

// flakySQS answers SendMessageBatch like SQS, failing the entries listed in
// refuse (by task Group) on their first send; sender-fault ones for good.
type flakySQS struct {
	calls    int
	bodies   []schedule.Task
	refuse   map[string]bool // Group → sender's fault
	refused  map[string]bool
	queueURL string
}

func (f *flakySQS) SendMessageBatch(_ context.Context, in *sqs.SendMessageBatchInput, _ ...func(*sqs.Options)) (*sqs.SendMessageBatchOutput, error) {
	f.calls++
	f.queueURL = aws.ToString(in.QueueUrl)
	if len(in.Entries) > 10 {
		return nil, &types.TooManyEntriesInBatchRequest{}
	}
	out := &sqs.SendMessageBatchOutput{}
	for _, e := range in.Entries {
		var t schedule.Task
		_ = json.Unmarshal([]byte(aws.ToString(e.MessageBody)), &t)
		if sender, ok := f.refuse[t.Group]; ok && (sender || !f.refused[t.Group]) {
			f.refused[t.Group] = true
			out.Failed = append(out.Failed, types.BatchResultErrorEntry{Id: e.Id, Code: aws.String("InternalError"), SenderFault: sender})
			continue
		}
		f.bodies = append(f.bodies, t)
		out.Successful = append(out.Successful, types.SendMessageBatchResultEntry{Id: e.Id})
	}
	return out, nil
}

// TestSQSQueue: tasks go ten to a call; entries SQS failed on its side are
// sent again, entries refused as the sender's fault fail the send.
func TestSQSQueue(t *testing.T) {
	at := time.Date(2026, 5, 4, 2, 0, 0, 0, time.UTC)
	tasks := make([]schedule.Task, 23)
	for i := range tasks {
		tasks[i] = schedule.Task{Job: "backup.scheduled", Group: string(rune('a' + i)), Time: at}
	}
	f := &flakySQS{refuse: map[string]bool{"c": false, "q": false}, refused: map[string]bool{}}
	q := New(f, "https://sqs.example/1/jobs")
	if err := q.Send(context.Background(), tasks); err != nil {
		t.Fatal(err)
	}
	if len(f.bodies) != 23 || f.calls != 5 || f.queueURL != "https://sqs.example/1/jobs" {
		t.Fatalf("%d tasks sent in %d calls to %s", len(f.bodies), f.calls, f.queueURL)
	}
	f = &flakySQS{refuse: map[string]bool{"b": true}, refused: map[string]bool{}}
	if err := New(f, "u").Send(context.Background(), tasks); err == nil {
		t.Fatal("a sender-fault refusal did not fail the send")
	}
}
