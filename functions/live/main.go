// Command live is the Lambda function behind API Gateway's WebSocket API
// (live updates, shared/live): $connect goes through the product's API as
// GET /api/_live, so it is authenticated and checked as the local upgrade
// is; $disconnect and $default (subscribe, unsubscribe, ping) use the
// connections kept in the table. Notices are posted by functions/stream.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/live"
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

// wire builds the handler from the environment: the product on DynamoDB,
// with OFICINA_LIVE_ENDPOINT naming the WebSocket API's management endpoint.
func wire(ctx context.Context, getenv func(string) string) (live.Lambda, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return live.Lambda{}, err
	}
	a, err := app.Open(ctx, cfg, app.Logger(cfg, os.Stderr))
	if err != nil {
		return live.Lambda{}, err
	}
	if a.LiveCloud == nil {
		return live.Lambda{}, errors.New("OFICINA_LIVE_ENDPOINT is not set")
	}
	return live.Lambda{API: a.API, Cloud: a.LiveCloud}, nil
}
