// Package adapters makes the outside world a deployable runs on from its
// settings: the document store (bbolt, through the opener the deployable
// gives, or DynamoDB), the mail sender (the .eml outbox or SES) with the
// templates, and the blob stores (the filesystem, S3 or none). Each piece
// is its own function, so a deployable links only the pieces it makes (the
// WebDAV server sends no mail); the stream and the dispatcher make their
// DynamoDB store alone, and the worker gives no embedded-store opener.
package adapters

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"

	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/app/runenv"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/live"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/mail/ses"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo"
)

// AWS gives the AWS configuration, made on first use and kept.
type AWS struct {
	load func() (aws.Config, error)
	once sync.Once
	cfg  *aws.Config
	err  error
}

// Get returns the configuration.
func (a *AWS) Get() (aws.Config, error) {
	a.once.Do(func() {
		c, err := a.load()
		if err != nil {
			a.err = fmt.Errorf("load AWS configuration: %w", err)
			return
		}
		a.cfg = &c
	})
	if a.err != nil {
		return aws.Config{}, a.err
	}
	return *a.cfg, nil
}

// Loaded is the configuration if Get made one, else nil.
func (a *AWS) Loaded() *aws.Config { return a.cfg }

// NewAWS gives the configuration load makes. The SDK's default chain
// (profiles, SSO, container and instance roles: the local server, App
// Runner, Fargate) is config.LoadDefaultConfig, which the callers that
// need it pass: it is not linked into the Lambda functions.
func NewAWS(load func() (aws.Config, error)) *AWS { return &AWS{load: load} }

// LambdaAWS is a Lambda function's execution role, read from its
// environment (runenv.LambdaAWS): no default chain linked or loaded.
func LambdaAWS(getenv func(string) string) *AWS {
	return &AWS{load: func() (aws.Config, error) { return runenv.LambdaAWS(getenv) }}
}

// Embedded opens the embedded store kept in a data directory
// (bolt.OpenDir). A deployable that runs on DynamoDB alone (a Lambda
// function) gives none, and so links no embedded store.
type Embedded func(dataDir string, log *slog.Logger) (store.Store, error)

// Store opens the store cfg names; embedded opens the embedded store (nil:
// this deployable refuses it).
func Store(cfg config.Config, log *slog.Logger, a *AWS, embedded Embedded) (store.Store, error) {
	switch cfg.Store {
	case "bolt":
		if embedded == nil {
			return nil, fmt.Errorf("store %q: this deployable runs on DynamoDB alone", cfg.Store)
		}
		st, err := embedded(cfg.DataDir, log)
		if err != nil {
			return nil, fmt.Errorf("open embedded store: %w", err)
		}
		return st, nil
	case "dynamo":
		c, err := a.Get()
		if err != nil {
			return nil, err
		}
		return dynamo.Open(c, cfg.Table, cfg.DynamoEndpoint), nil
	}
	return nil, fmt.Errorf("store %q: must be bolt or dynamo", cfg.Store)
}

// Mail makes the sender cfg names and loads the templates.
func Mail(cfg config.Config, log *slog.Logger, a *AWS) (mail.Sender, mail.Renderer, error) {
	tpl, err := mail.LoadTemplates()
	if err != nil {
		return nil, nil, err
	}
	switch cfg.Mail {
	case "outbox":
		return mail.NewOutbox(filepath.Join(cfg.DataDir, "outbox"), cfg.MailFrom, log), tpl, nil
	case "ses":
		c, err := a.Get()
		if err != nil {
			return nil, nil, err
		}
		sender, err := ses.New(sesv2.NewFromConfig(c), ses.Options{From: cfg.MailFrom, ConfigurationSet: cfg.SESConfigurationSet})
		if err != nil {
			return nil, nil, fmt.Errorf("mail: %w", err)
		}
		return sender, tpl, nil
	}
	return nil, nil, fmt.Errorf("mail %q: must be outbox or ses", cfg.Mail)
}

// Blobs makes the drive's blob store and the backups' (nil: none, or
// shared with the drive's) cfg names.
func Blobs(cfg config.Config, a *AWS) (drive, backups blob.Store, err error) {
	switch cfg.Blobs {
	case "fs":
		fsb, err := blob.NewFS(filepath.Join(cfg.DataDir, "blobs"))
		if err != nil {
			return nil, nil, fmt.Errorf("open blob store: %w", err)
		}
		return fsb, nil, nil
	case "s3":
		c, err := a.Get()
		if err != nil {
			return nil, nil, err
		}
		drive = blob.OpenS3(c, cfg.Bucket, cfg.S3Endpoint)
		if cfg.BackupBucket != "" {
			backups = blob.OpenS3(c, cfg.BackupBucket, cfg.S3Endpoint)
		}
		return drive, backups, nil
	}
	return nil, nil, nil
}

// LiveCloud is what live updates through API Gateway's WebSocket API run
// on (core.LiveCloud), when cfg names its management endpoint on
// DynamoDB; nil otherwise.
func LiveCloud(cfg config.Config, log *slog.Logger, a *AWS) (*live.CloudOptions, error) {
	if cfg.Store != "dynamo" || cfg.LiveEndpoint == "" {
		return nil, nil
	}
	c, err := a.Get()
	if err != nil {
		return nil, err
	}
	return core.LiveCloud(cfg, log, c), nil
}

// All makes the store (embedded as for Store), the sender and templates,
// and the blob stores cfg names. The AWS configuration, when the settings
// need one (a queue or a secret even without AWS adapters), comes with
// them.
func All(cfg config.Config, log *slog.Logger, a *AWS, embedded Embedded) (core.Adapters, error) {
	var ad core.Adapters
	if cfg.JobsQueueURL != "" || cfg.Stripe.SecretsARN != "" {
		if _, err := a.Get(); err != nil {
			return ad, err
		}
	}
	st, err := Store(cfg, log, a, embedded)
	if err != nil {
		return ad, err
	}
	ad.Store = st
	if ad.Mail, ad.Templates, err = Mail(cfg, log, a); err != nil {
		st.Close()
		return core.Adapters{}, err
	}
	if ad.Blobs, ad.Backups, err = Blobs(cfg, a); err != nil {
		st.Close()
		return core.Adapters{}, err
	}
	if ad.LiveCloud, err = LiveCloud(cfg, log, a); err != nil {
		st.Close()
		return core.Adapters{}, err
	}
	ad.AWS = a.Loaded()
	return ad, nil
}
