// Command live is the Lambda function behind API Gateway's WebSocket API
// (live updates, shared/live): $connect goes through the product's API as
// GET /api/_live, so it is authenticated and checked as the local upgrade
// is; $disconnect and $default (subscribe, unsubscribe, ping) use the
// connections kept in the table. Notices are posted by functions/stream.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/app/liveapi"
	"github.com/oficina/oficina/shared/app/runenv"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/live"
	"github.com/oficina/oficina/shared/store/dynamo"
)

func main() {
	// Wiring happens once per execution environment (cold start).
	h, err := wire(context.Background(), os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "live:", err)
		os.Exit(1)
	}
	lambda.Start(h.Handle)
}

// wire builds the handler from the environment: the HTTP API on the core
// and the Groups alone (shared/app/liveapi: $connect is its only route),
// on the configured DynamoDB table, with the execution role's credentials.
// It sends no mail and keeps no files; OFICINA_LIVE_ENDPOINT names the
// WebSocket API's management endpoint.
func wire(ctx context.Context, getenv func(string) string) (live.Lambda, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return live.Lambda{}, err
	}
	aws, err := runenv.LambdaAWS(os.Getenv)
	if err != nil {
		return live.Lambda{}, err
	}
	log := runenv.Logger(cfg, os.Stderr)
	ad := core.Adapters{Store: dynamo.Open(aws, cfg.Table, cfg.DynamoEndpoint), LiveCloud: core.LiveCloud(cfg, log, aws)}
	return liveapi.Open(ctx, cfg, log, ad)
}
