// Command schedule is the dispatcher: the Lambda function on the stack's
// EventBridge rules. Each rule fires a scheduled event naming one job of
// the module seam (detail.job); this function turns it into tasks on the
// jobs queue (OFICINA_JOBS_QUEUE_URL), one per Group for a per-Group job,
// through the same dispatcher the local server's in-process scheduler uses
// (shared/schedule). functions/worker runs the tasks. The jobs are read
// from jobs.json, embedded at build time, which a test keeps equal to the
// registered jobs and from which the stack makes one rule per job: the
// dispatcher links none of the modules, only the store and SQS.
package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/oficina/oficina/shared/app/runenv"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/schedule"
	"github.com/oficina/oficina/shared/schedule/sqsqueue"
	"github.com/oficina/oficina/shared/store/dynamo"
)

//go:embed jobs.json
var jobsJSON []byte

func main() {
	// Wiring happens once per execution environment (cold start).
	d, err := wire(context.Background(), os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedule:", err)
		os.Exit(1)
	}
	lambda.Start(d.Handle)
}

// errNoQueue: on Lambda the tasks must go to SQS; an in-process queue
// would be frozen with the invocation.
var errNoQueue = errors.New("OFICINA_JOBS_QUEUE_URL is not set: the dispatcher has no queue for the tasks")

// wire builds the dispatcher of jobs.json's jobs on the configured
// DynamoDB table (the Groups it fans out to) and the jobs queue, with the
// execution role's credentials. AWS_ENDPOINT_URL_SQS points the queue
// elsewhere, as the SDK's own configuration would.
func wire(ctx context.Context, getenv func(string) string) (*schedule.Dispatcher, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return nil, err
	}
	if cfg.JobsQueueURL == "" {
		return nil, errNoQueue
	}
	aws, err := runenv.LambdaAWS(os.Getenv)
	if err != nil {
		return nil, err
	}
	specs, err := schedule.ParseSpecs(jobsJSON)
	if err != nil {
		return nil, err
	}
	client := sqs.NewFromConfig(aws, func(o *sqs.Options) {
		if e := os.Getenv("AWS_ENDPOINT_URL_SQS"); e != "" {
			o.BaseEndpoint = &e
		}
	})
	st := dynamo.Open(aws, cfg.Table, cfg.DynamoEndpoint)
	return schedule.NewDispatcher(schedule.Dispatchable(specs), schedule.DispatchOptions{
		Queue: sqsqueue.New(client, cfg.JobsQueueURL), Groups: schedule.StoreGroups(st), Log: runenv.Logger(cfg, os.Stderr),
	})
}
