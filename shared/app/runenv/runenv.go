// Package runenv reads what a deployable takes from its environment
// besides its settings: the logger the settings ask for and, on Lambda,
// the AWS configuration of the execution role. It imports next to
// nothing, so the smallest functions (the dispatcher) link next to
// nothing through it.
package runenv

import (
	"errors"
	"io"
	"log/slog"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/oficina/oficina/shared/config"
)

// Logger builds the structured logger the configuration asks for.
func Logger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// ErrNoLambdaCredentials: LambdaAWS found no credentials in the environment.
var ErrNoLambdaCredentials = errors.New("no AWS credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)")

// LambdaAWS is the AWS configuration of a Lambda function, read from the
// environment Lambda sets (AWS_REGION and the execution role's
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), which is
// what the SDK's default chain resolves to there. Not loading that chain
// keeps its shared-config, SSO and STS clients out of the functions
// (about 0.7 MB of each zip) and its file reads out of their cold starts.
// Anywhere else (the local server, App Runner, Fargate) use the default
// chain (shared/app).
func LambdaAWS(getenv func(string) string) (aws.Config, error) {
	id, secret := getenv("AWS_ACCESS_KEY_ID"), getenv("AWS_SECRET_ACCESS_KEY")
	if id == "" || secret == "" {
		return aws.Config{}, ErrNoLambdaCredentials
	}
	region := getenv("AWS_REGION")
	if region == "" {
		region = getenv("AWS_DEFAULT_REGION")
	}
	if region == "" {
		return aws.Config{}, errors.New("no AWS region in the environment (AWS_REGION)")
	}
	return aws.Config{
		Region:      region,
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(id, secret, getenv("AWS_SESSION_TOKEN"))),
	}, nil
}
