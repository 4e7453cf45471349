package app

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/oficina/oficina/shared/app/adapters"
	"github.com/oficina/oficina/shared/config"
)

// Worker is the synchronous invocation of the worker function cfg names
// (core.Adapters.Worker: the stack's api asks it to make and sign
// backups); nil when cfg names none. Only the api and live functions link Lambda's client
// (adapters is shared by the worker, which must not).
func Worker(cfg config.Config, a *adapters.AWS) (func(ctx context.Context, payload []byte) ([]byte, error), error) {
	if cfg.WorkerFunction == "" {
		return nil, nil
	}
	c, err := a.Get()
	if err != nil {
		return nil, err
	}
	return InvokeFunction(lambda.NewFromConfig(c), cfg.WorkerFunction), nil
}

// InvokeFunction invokes function name synchronously with a payload and
// returns its answer; a function error (the handler failed) is an error.
func InvokeFunction(client *lambda.Client, name string) func(ctx context.Context, payload []byte) ([]byte, error) {
	return func(ctx context.Context, payload []byte) ([]byte, error) {
		out, err := client.Invoke(ctx, &lambda.InvokeInput{FunctionName: &name, Payload: payload})
		if err != nil {
			return nil, fmt.Errorf("invoke %s: %w", name, err)
		}
		if out.FunctionError != nil {
			return nil, fmt.Errorf("invoke %s: the function failed (%s): %.300s", name, *out.FunctionError, out.Payload)
		}
		return out.Payload, nil
	}
}
