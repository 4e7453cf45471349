// Command stream is the Lambda function on the table's DynamoDB stream
// (NEW_AND_OLD_IMAGES): it turns document changes into history entries and
// counters through the change-stream consumer (shared/stream), reporting
// partial batch failures so that a failing record is retried in order.
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
	h, err := wire(context.Background(), os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stream:", err)
		os.Exit(1)
	}
	lambda.Start(h.Handle)
}

// wire builds the handler from the environment: the product wired as the
// API is (so the consumer has every module's tallies, event types and
// reactions) on the configured DynamoDB table.
func wire(ctx context.Context, getenv func(string) string) (*Handler, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return nil, err
	}
	log := app.Logger(cfg, os.Stderr)
	a, err := app.Open(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	return NewHandler(a.Consumer(), log), nil
}
