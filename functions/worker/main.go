// Command worker is the Lambda function on the jobs queue (SQS): each
// message is one task of a scheduled job — the job for one Group, or a
// whole round — queued by functions/schedule. It runs it through the
// same worker the local server's in-process queue uses (shared/schedule),
// once per Group and firing however often it is delivered, and reports the
// messages that failed as partial batch failures.
package main

import (
	"context"
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
		fmt.Fprintln(os.Stderr, "worker:", err)
		os.Exit(1)
	}
	lambda.Start(a.Worker.HandleSQS)
}

// wire builds the product as the API is built, so every module's jobs are
// registered, on the configured DynamoDB table.
func wire(ctx context.Context, getenv func(string) string) (*app.App, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return nil, err
	}
	return app.Open(ctx, cfg, app.Logger(cfg, os.Stderr))
}
