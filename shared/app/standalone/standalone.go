// Package standalone builds the whole product in one process from its
// configuration, with the AWS SDK's default credential chain and the
// embedded store at hand: the local server (functions/local) and the tests
// (shared/apptest). The Lambda functions wire their own adapters and call
// app.OpenOn, so none of them links the default chain, bbolt or, unless it
// enqueues jobs, the SQS client.
package standalone

import (
	"context"
	"log/slog"
	"time"

	awssdk "github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/app/adapters"
	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/schedule/sqsqueue"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
)

// Overrides replace adapters that Open would build from the configuration:
// tests use them to wire the whole product on a store and clock they control.
type Overrides struct {
	Store store.Store // instead of cfg.Store's; the App closes it
	Mail  mail.Sender // instead of cfg.Mail's
	Blobs blob.Store  // instead of cfg.Blobs's
	// Backups instead of cfg.BackupBucket's store.
	Backups blob.Store
	Now     func() time.Time // the clock of every service (default time.Now)
	// Argon2 replaces the password hashing cost (tests use a cheap one).
	Argon2 *auth.Argon2Params
	// Worker instead of cfg.WorkerFunction's invocation.
	Worker func(ctx context.Context, payload []byte) ([]byte, error)
}

// Open builds the product from cfg.
func Open(ctx context.Context, cfg config.Config, log *slog.Logger) (*app.App, error) {
	return OpenWith(ctx, cfg, log, Overrides{})
}

// OpenWith builds the product from cfg with some adapters given.
func OpenWith(ctx context.Context, cfg config.Config, log *slog.Logger, over Overrides) (*app.App, error) {
	ad, err := Adapters(ctx, cfg, log, over)
	if err != nil {
		return nil, err
	}
	return app.OpenOn(ctx, cfg, log, ad, core.Options{Now: over.Now, Argon2: over.Argon2})
}

// Adapters builds the store, the sender and the blob stores cfg names
// (bolt or DynamoDB, the outbox or SES, the filesystem, S3 or none), with
// the SDK's default credential chain, unless over gives them.
func Adapters(ctx context.Context, cfg config.Config, log *slog.Logger, over Overrides) (app.Adapters, error) {
	aws := adapters.NewAWS(func() (awssdk.Config, error) { return awsconfig.LoadDefaultConfig(ctx) })
	var ad app.Adapters
	var err error
	if ad.Store = over.Store; ad.Store == nil {
		if ad.Store, err = adapters.Store(cfg, log, aws, bolt.OpenDir); err != nil {
			return ad, err
		}
	}
	if over.Mail != nil {
		ad.Mail = over.Mail
		ad.Templates, err = mail.LoadTemplates()
	} else {
		ad.Mail, ad.Templates, err = adapters.Mail(cfg, log, aws)
	}
	if err == nil && over.Blobs != nil {
		ad.Blobs, ad.Backups = over.Blobs, over.Backups
	} else if err == nil {
		ad.Blobs, ad.Backups, err = adapters.Blobs(cfg, aws)
	}
	if err == nil {
		ad.LiveCloud, err = adapters.LiveCloud(cfg, log, aws)
	}
	if err == nil && over.Worker != nil {
		ad.Worker = over.Worker
	} else if err == nil {
		ad.Worker, err = app.Worker(cfg, aws)
	}
	if err == nil && cfg.JobsQueueURL != "" {
		var c awssdk.Config
		if c, err = aws.Get(); err == nil {
			ad.JobsQueue = sqsqueue.New(sqs.NewFromConfig(c), cfg.JobsQueueURL)
		}
	}
	if err == nil && cfg.Stripe.SecretsARN != "" {
		_, err = aws.Get()
	}
	if err != nil {
		ad.Store.Close()
		return app.Adapters{}, err
	}
	ad.AWS = aws.Loaded()
	return ad, nil
}
