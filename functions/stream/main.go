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

	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/app/parts"
	"github.com/oficina/oficina/shared/app/runenv"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/store/dynamo"
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

// wire builds the handler from the environment: every module's write path
// and change-stream parts (shared/app/parts: no HTTP API, no routes) on
// the configured DynamoDB table, with the execution role's credentials.
// The stream sends no mail and keeps no files (the stack grants neither);
// with OFICINA_LIVE_ENDPOINT it posts live-update notices.
func wire(ctx context.Context, getenv func(string) string) (*Handler, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return nil, err
	}
	aws, err := runenv.LambdaAWS(os.Getenv)
	if err != nil {
		return nil, err
	}
	log := runenv.Logger(cfg, os.Stderr)
	ad := core.Adapters{Store: dynamo.Open(aws, cfg.Table, cfg.DynamoEndpoint), LiveCloud: core.LiveCloud(cfg, log, aws)}
	_, consumer, err := parts.Stream(ctx, cfg, log, ad)
	if err != nil {
		return nil, err
	}
	return NewHandler(consumer, log), nil
}
