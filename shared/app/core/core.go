// Package core wires what every deployable shares: the document store, the
// mail sender behind the suppression list, the blob stores, users, the
// document write path and Groups. shared/app builds the whole product on
// it (the API, the local server, the tests); the Lambda functions that
// serve no HTTP build only their part on it (shared/app/parts), and the
// WebDAV server the drive's (shared/app/davparts), so each links what it
// runs and no more (issue 23.4).
package core

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/live"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/stream"
)

// Adapters are the outside world a deployable was given: its store, its
// sender, its blob stores. The caller builds them (each function only
// those it has grants for) and Open takes them over.
type Adapters struct {
	Store store.Store // required; Core.Close closes it
	// Mail sends the product's mail; nil: a sender that refuses (a
	// function without the SES grant).
	Mail mail.Sender
	// Blobs keeps the drive's contents; nil: the drive keeps records only.
	Blobs blob.Store
	// Backups is the backups' own bucket; nil: they share Blobs.
	Backups blob.Store
	// Templates renders the product's mail (mail.LoadTemplates); nil:
	// mail.NoTemplates. A deployable that sends no mail leaves it out, so
	// it links no template execution (see mail.Renderer).
	Templates mail.Renderer
	// Phones reads phone numbers (shared/phones.Metadata: the product's
	// API, which takes them); nil: rules that refuse a write needing them
	// (phonerules.Refusing), so a deployable that takes no phone numbers
	// links none of the numbering metadata.
	Phones phonerules.Rules
	// AWS is the AWS configuration the adapters were made with, for the
	// modules that call AWS themselves (nil off AWS).
	AWS *aws.Config
	// LiveCloud, when set, carries live updates through API Gateway's
	// WebSocket API (on DynamoDB with OFICINA_LIVE_ENDPOINT); Open fills
	// its Store and Auth.
	LiveCloud *live.CloudOptions
	// Worker, when set, runs a request on the worker function and returns
	// its answer (the stack's api, with OFICINA_WORKER_FUNCTION): what only
	// the worker may do, such as making and signing backups. Nil: this
	// process does it itself.
	Worker func(ctx context.Context, payload []byte) ([]byte, error)
}

// Options tune the wiring (tests control the clock and the hashing cost).
type Options struct {
	Now    func() time.Time // nil: time.Now
	Argon2 *auth.Argon2Params
	// SystemDBsMadeElsewhere skips making sure the system databases exist
	// (one read per start): the api makes them at its start and the worker
	// before its first event (parts.Work.Prepare), and a function that
	// only reads them (live) or writes only Groups' databases (stream) has
	// nothing to wait for at a cold start.
	SystemDBsMadeElsewhere bool
}

// Core is the wired base of a deployable.
type Core struct {
	Cfg   config.Config
	Log   *slog.Logger
	Store store.Store
	// Mail is the product's sender: every mail path goes through it, and
	// it drops mail to the addresses on Suppressions.
	Mail mail.Sender
	// Suppressions lists the addresses SES reported as hard bounces or
	// complaints (the worker records them from the feedback topic).
	Suppressions *mail.Suppressions
	// Templates renders the product's mail.
	Templates mail.Renderer
	// Phones reads phone numbers for the Groups and the modules.
	Phones  phonerules.Rules
	Blobs   blob.Store
	Backups blob.Store
	// AWS is the deployable's AWS configuration (nil off AWS).
	AWS  *aws.Config
	Auth *auth.Service
	// Docs is the write path every route shares; Accounts registers the
	// rules of its klasses on it, the modules theirs.
	Docs     *docs.Service
	Accounts *accounts.Service
	// LiveCloud is live updates through API Gateway's WebSocket API, when
	// the configuration names its endpoint (the api, live and stream
	// functions); nil otherwise.
	LiveCloud *live.Cloud
	// Worker is Adapters.Worker.
	Worker func(ctx context.Context, payload []byte) ([]byte, error)
}

// Open wires the base on the given adapters: the suppression list in
// front of the sender, users (with the system databases made if missing),
// the write path and Groups.
func Open(ctx context.Context, cfg config.Config, log *slog.Logger, a Adapters, o Options) (*Core, error) {
	if a.Store == nil {
		return nil, errors.New("core: no store")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Core{Cfg: cfg, Log: log, Store: a.Store, Blobs: a.Blobs, Backups: a.Backups, AWS: a.AWS, Worker: a.Worker}
	sender := a.Mail
	if sender == nil {
		sender = mail.Refusing("this function sends no mail")
	}
	c.Suppressions = mail.NewSuppressions(a.Store)
	c.Mail = mail.Guard(sender, c.Suppressions, log)

	var argon auth.Argon2Params
	if o.Argon2 != nil {
		argon = *o.Argon2
	}
	c.Templates = a.Templates
	if c.Templates == nil {
		c.Templates = mail.NoTemplates
	}
	c.Phones = a.Phones
	if c.Phones == nil {
		c.Phones = phonerules.Refusing("this function takes no phone numbers")
	}
	c.Auth = auth.New(a.Store, c.Mail, auth.Config{
		Templates:       c.Templates,
		Argon2:          argon,
		BaseURL:         cfg.BaseURL,
		ServerAdmins:    cfg.ServerAdmins,
		SessionTTL:      cfg.SessionTTL,
		RememberTTL:     cfg.RememberTTL,
		HashConcurrency: cfg.HashConcurrency,
		Logger:          log,
		Now:             o.Now,
	})
	if !o.SystemDBsMadeElsewhere {
		if err := c.Auth.EnsureSystemDBs(ctx); err != nil {
			return nil, fmt.Errorf("prepare system databases: %w", err)
		}
	}
	c.Docs = docs.New(a.Store, o.Now)
	acc, err := accounts.New(accounts.Options{
		Store: a.Store, Docs: c.Docs, Users: c.Auth, Mail: c.Mail, Templates: c.Templates, Phones: c.Phones, BaseURL: cfg.BaseURL, Logger: log,
	})
	if err != nil {
		return nil, err
	}
	c.Accounts = acc
	c.Auth.OnEmail(acc.EmailKnown)            // invitations reach users who register later
	c.Auth.OnPasswordReset(acc.PasswordReset) // token documents show the tokens a reset revoked
	if a.LiveCloud != nil {
		lc := *a.LiveCloud
		lc.Store, lc.Auth = a.Store, c.Auth
		c.LiveCloud = live.NewCloud(lc)
	}
	return c, nil
}

// LiveCloud is what live updates through API Gateway's WebSocket API run
// on: the table's connections and the management endpoint, with the AWS
// configuration c; nil unless cfg names the endpoint on DynamoDB.
func LiveCloud(cfg config.Config, log *slog.Logger, c aws.Config) *live.CloudOptions {
	if cfg.Store != "dynamo" || cfg.LiveEndpoint == "" {
		return nil
	}
	return &live.CloudOptions{DB: dynamo.NewClient(c, cfg.DynamoEndpoint), Table: cfg.Table, Poster: live.NewManagement(cfg.LiveEndpoint, c), Log: log}
}

// Deps is what the modules are built with.
func (c *Core) Deps() module.Deps {
	return module.Deps{Store: c.Store, Docs: c.Docs, Mail: c.Mail, Templates: c.Templates, Groups: c.Accounts, Log: c.Log,
		BaseURL: c.Cfg.BaseURL, Now: c.Docs.Now, Config: c.Cfg, Blobs: c.Blobs, AWS: c.AWS, Phones: c.Phones}
}

// Registry is an empty module registry on the write path, resolving
// references through the store and Groups.
func (c *Core) Registry() *module.Registry {
	return module.NewRegistry(c.Docs, module.Refs(c.Store, c.Accounts))
}

// Consumer is the change-stream consumer with the tallies, timeline events
// and reactions r holds, telling live updates of each batch when the base
// has them. Every deployable that writes must build it: it becomes the
// store's Noter (both stores keep a change log), which gives each write
// its history entry and counter change, and the stream refuses to fold a
// write made without them.
func (c *Core) Consumer(r *module.Registry) *stream.Consumer {
	opts := r.StreamOptions()
	opts.Logger = c.Log
	if c.LiveCloud != nil {
		opts.Observer = c.LiveCloud // notices of each applied batch to the WebSocket connections
	}
	return stream.New(c.Store, opts)
}

// Close closes the store.
func (c *Core) Close() error { return c.Store.Close() }

// AccessLog logs one line per request.
func AccessLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", rec.status), slog.Duration("took", time.Since(start)))
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the real writer (flushes).
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Hijack hands the connection to the live-updates WebSocket: the
// compression wrapper in between asks the writer it wraps directly.
func (r *statusRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(r.ResponseWriter).Hijack()
}
