// Command api is the Lambda function behind the API Gateway HTTP API
// (payload v2): the same http.Handler as the local server, on DynamoDB and SES.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/app/adapters"
	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/app/runenv"
	"github.com/oficina/oficina/shared/config"
)

// proxyFunc is the Lambda handler signature for HTTP API v2 events.
type proxyFunc func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

func main() {
	// Wiring happens once per execution environment (cold start), not per request.
	h, err := newHandler(context.Background(), os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
	lambda.Start(h)
}

// newHandler wires the product from the environment and adapts it to
// API Gateway v2 events.
func newHandler(ctx context.Context, getenv func(string) string) (proxyFunc, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return nil, err
	}
	log := runenv.Logger(cfg, os.Stderr)
	// The execution role's credentials, not the SDK's default chain
	// (runenv.LambdaAWS): smaller and faster to start. DynamoDB alone: no
	// embedded store linked.
	aws := adapters.LambdaAWS(os.Getenv)
	ad, err := adapters.All(cfg, log, aws, nil)
	if err != nil {
		return nil, err
	}
	// Backups on request, downloads and restores go through the worker.
	if ad.Worker, err = app.Worker(cfg, aws); err != nil {
		ad.Store.Close()
		return nil, err
	}
	a, err := app.OpenOn(ctx, cfg, log, app.Adapters{Adapters: ad}, core.Options{})
	if err != nil {
		return nil, err
	}
	return adapt(a.Handler), nil
}
