// Command worker is the Lambda function on the jobs queue (SQS): each
// message is one task of a scheduled job — the job for one Group, or a
// whole round — queued by functions/schedule. It runs it through the
// same worker the local server's in-process queue uses (shared/schedule),
// once per Group and firing however often it is delivered, and reports the
// messages that failed as partial batch failures. It also takes SES's
// bounce and complaint reports from the mail feedback topic (SNS) and puts
// the addresses on the suppression list every mail path checks.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/oficina/oficina/shared/app/adapters"
	"github.com/oficina/oficina/shared/app/parts"
	"github.com/oficina/oficina/shared/app/runenv"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/schedule"
)

func main() {
	// Wiring happens once per execution environment (cold start).
	h, err := wire(context.Background(), os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
	lambda.Start(h.Invoke)
}

// wire builds the handler: every module's write path and jobs
// (shared/app/parts: no HTTP API, no routes) on the configured DynamoDB
// table, with mail and files, with the execution role's credentials. It
// reads nothing: the system databases are made before the first event
// (parts.Work.Prepare), out of the cold start.
func wire(ctx context.Context, getenv func(string) string) (*Handler, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return nil, err
	}
	log := runenv.Logger(cfg, os.Stderr)
	// DynamoDB alone (no embedded store opener): a Lambda function's disk
	// is its own and short-lived.
	ad, err := adapters.All(cfg, log, adapters.LambdaAWS(os.Getenv), nil)
	if err != nil {
		return nil, err
	}
	c, work, err := parts.Jobs(ctx, cfg, log, ad)
	if err != nil {
		return nil, err
	}
	w, err := schedule.NewWorker(work.Jobs, schedule.WorkerOptions{Store: c.Store, Log: log})
	if err != nil {
		c.Close()
		return nil, err
	}
	return &Handler{Worker: w, Suppressions: c.Suppressions, Backups: work.Keep, Log: log, Prepare: work.Prepare}, nil
}
