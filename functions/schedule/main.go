// Command schedule is the dispatcher: the Lambda function on the stack's
// EventBridge rules. Each rule fires a scheduled event naming one job of
// the module seam (detail.job); this function turns it into tasks on the
// jobs queue (OFICINA_JOBS_QUEUE_URL), one per Group for a per-Group job,
// through the same dispatcher the local server's in-process scheduler uses
// (shared/schedule). functions/worker runs the tasks. The rules are made
// from jobs.json, which a test keeps equal to the registered jobs.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/config"
)

func main() {
	// Wiring happens once per execution environment (cold start).
	a, err := wire(context.Background(), os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedule:", err)
		os.Exit(1)
	}
	lambda.Start(a.Jobs.Handle)
}

// errNoQueue: on Lambda the tasks must go to SQS; an in-process queue
// would be frozen with the invocation.
var errNoQueue = errors.New("OFICINA_JOBS_QUEUE_URL is not set: the dispatcher has no queue for the tasks")

// wire builds the product as the API is built, so every module's jobs are
// registered, on the configured DynamoDB table.
func wire(ctx context.Context, getenv func(string) string) (*app.App, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return nil, err
	}
	if cfg.JobsQueueURL == "" {
		return nil, errNoQueue
	}
	a, err := app.Open(ctx, cfg, app.Logger(cfg, os.Stderr))
	if err != nil {
		return nil, err
	}
	// The API's cold start stays at one read; the prices a fresh stack's
	// pricing section lists are seeded here, within minutes of a deploy.
	a.SeedPrices(ctx)
	return a, nil
}
