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
	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/stream"
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

// wire builds the handler from the environment: the DynamoDB store of the
// configured table and a consumer writing into it.
func wire(ctx context.Context, getenv func(string) string) (*Handler, error) {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return nil, err
	}
	log := app.Logger(cfg, os.Stderr)
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, fmt.Errorf("load AWS configuration: %w", err)
	}
	client := dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
		if cfg.DynamoEndpoint != "" {
			o.BaseEndpoint = aws.String(cfg.DynamoEndpoint)
		}
	})
	st := dynamo.New(client, cfg.Table)
	return NewHandler(stream.New(st, stream.Options{Logger: log}), log), nil
}
