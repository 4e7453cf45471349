// Package app wires adapters to the domain for every deployable: the store
// (bbolt or DynamoDB), the mail sender (outbox or SES), the auth service and
// the HTTP API. functions/*/main.go only call it.
package app

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/auth"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/dav"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/httpapi"
	"github.com/oficina/oficina/shared/live"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/mail/ses"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/plans"
	"github.com/oficina/oficina/shared/schedule"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/store/dynamo"
	"github.com/oficina/oficina/shared/stream"
)

// Version is stamped at build time (-ldflags "-X .../app.Version=...").
var Version = "dev"

// App is a wired product.
type App struct {
	Store store.Store
	Mail  mail.Sender
	Auth  *auth.Service
	// Blobs keeps the drive's file contents; nil with --blobs=none.
	Blobs blob.Store
	// Docs is the write path every route shares; Accounts registers the
	// rules of its klasses on it.
	Docs     *docs.Service
	Accounts *accounts.Service
	// Modules is what every module registered on the seam.
	Modules *module.Registry
	API     *httpapi.Server
	// Jobs dispatches the modules' scheduled jobs (functions/schedule on
	// AWS, the in-process scheduler locally): a firing becomes tasks, one
	// per Group for a per-Group job, on the jobs queue.
	Jobs *schedule.Dispatcher
	// Worker runs the tasks (functions/worker on the SQS queue, the local
	// queue's goroutines otherwise), each once per Group and firing.
	Worker *schedule.Worker
	// localJobs is the in-process queue when no SQS queue is configured.
	localJobs *schedule.LocalQueue
	// backupBlobs is the backups' own bucket (--backup-bucket); nil: they
	// share the drive's store.
	backupBlobs blob.Store
	// Handler is API as served: gzipped for clients that accept it.
	Handler http.Handler
	// DAV is the drive over WebDAV (shared/dav), mounted at /dav/.
	DAV *dav.Handler
	// Live is the live-updates hub (shared/live): GET /api/_live locally,
	// fed by the in-process change stream.
	Live *live.Hub
	// LiveCloud is live updates through API Gateway's WebSocket API, when
	// the configuration names its endpoint (the live and stream functions).
	LiveCloud *live.Cloud

	cfg      config.Config
	log      *slog.Logger
	wg       sync.WaitGroup
	consumer *stream.Consumer
}

// Logger builds the structured logger the configuration asks for.
func Logger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

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
}

// Open builds the product from cfg.
func Open(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	return OpenWith(ctx, cfg, log, Overrides{})
}

// OpenWith builds the product from cfg with some adapters given.
func OpenWith(ctx context.Context, cfg config.Config, log *slog.Logger, over Overrides) (*App, error) {
	a := &App{log: log, cfg: cfg}
	var awsCfg *aws.Config
	var liveCloud *live.CloudOptions // on DynamoDB with --live-endpoint
	loadAWS := func() (aws.Config, error) {
		if awsCfg != nil {
			return *awsCfg, nil
		}
		c, err := awsconfig.LoadDefaultConfig(ctx)
		if err != nil {
			return aws.Config{}, fmt.Errorf("load AWS configuration: %w", err)
		}
		awsCfg = &c
		return c, nil
	}

	switch {
	case over.Store != nil:
		a.Store = over.Store
	case cfg.Store == "bolt":
		if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
		st, err := bolt.Open(filepath.Join(cfg.DataDir, "oficina.db"), bolt.Options{Logger: log})
		if err != nil {
			return nil, fmt.Errorf("open embedded store: %w", err)
		}
		a.Store = st
	case cfg.Store == "dynamo":
		c, err := loadAWS()
		if err != nil {
			return nil, err
		}
		client := dynamodb.NewFromConfig(c, func(o *dynamodb.Options) {
			if cfg.DynamoEndpoint != "" {
				o.BaseEndpoint = aws.String(cfg.DynamoEndpoint)
			}
		})
		a.Store = dynamo.New(client, cfg.Table)
		if cfg.LiveEndpoint != "" {
			liveCloud = &live.CloudOptions{DB: client, Table: cfg.Table, Poster: live.NewManagement(cfg.LiveEndpoint, c), Log: log}
		}
	}

	switch {
	case over.Mail != nil:
		a.Mail = over.Mail
	case cfg.Mail == "outbox":
		a.Mail = mail.NewOutbox(filepath.Join(cfg.DataDir, "outbox"), cfg.MailFrom, log)
	case cfg.Mail == "ses":
		c, err := loadAWS()
		if err != nil {
			a.Store.Close()
			return nil, err
		}
		sender, err := ses.New(sesv2.NewFromConfig(c), ses.Options{From: cfg.MailFrom, ConfigurationSet: cfg.SESConfigurationSet})
		if err != nil {
			a.Store.Close()
			return nil, fmt.Errorf("mail: %w", err)
		}
		a.Mail = sender
	}

	switch {
	case over.Blobs != nil:
		a.Blobs = over.Blobs
		a.backupBlobs = over.Backups
	case cfg.Blobs == "fs":
		fsb, err := blob.NewFS(filepath.Join(cfg.DataDir, "blobs"))
		if err != nil {
			a.Store.Close()
			return nil, fmt.Errorf("open blob store: %w", err)
		}
		a.Blobs = fsb
	case cfg.Blobs == "s3":
		c, err := loadAWS()
		if err != nil {
			a.Store.Close()
			return nil, err
		}
		client := s3.NewFromConfig(c, func(o *s3.Options) {
			if cfg.S3Endpoint != "" {
				o.BaseEndpoint = aws.String(cfg.S3Endpoint)
				o.UsePathStyle = true // S3-compatible servers rarely have virtual-host DNS
			}
		})
		a.Blobs = blob.NewS3(client, cfg.Bucket, nil)
		if cfg.BackupBucket != "" {
			a.backupBlobs = blob.NewS3(client, cfg.BackupBucket, nil)
		}
	}

	var argon auth.Argon2Params
	if over.Argon2 != nil {
		argon = *over.Argon2
	}
	a.Auth = auth.New(a.Store, a.Mail, auth.Config{
		Argon2:          argon,
		BaseURL:         cfg.BaseURL,
		ServerAdmins:    cfg.ServerAdmins,
		SessionTTL:      cfg.SessionTTL,
		RememberTTL:     cfg.RememberTTL,
		HashConcurrency: cfg.HashConcurrency,
		Logger:          log,
		Now:             over.Now,
	})
	if err := a.Auth.EnsureSystemDBs(ctx); err != nil {
		a.Store.Close()
		return nil, fmt.Errorf("prepare system databases: %w", err)
	}
	a.Docs = docs.New(a.Store, over.Now)
	acc, err := accounts.New(accounts.Options{
		Store: a.Store, Docs: a.Docs, Users: a.Auth, Mail: a.Mail, BaseURL: cfg.BaseURL, Logger: log,
	})
	if err != nil {
		a.Store.Close()
		return nil, err
	}
	a.Accounts = acc
	a.Auth.OnEmail(acc.EmailKnown)            // invitations reach users who register later
	a.Auth.OnPasswordReset(acc.PasswordReset) // token documents show the tokens a reset revoked
	deps := module.Deps{Store: a.Store, Docs: a.Docs, Mail: a.Mail, Groups: acc, Log: log, BaseURL: cfg.BaseURL, Now: a.Docs.Now, Config: cfg, Blobs: a.Blobs}
	a.Modules = module.NewRegistry(a.Docs, module.Refs(a.Store, acc))
	mods := Modules(deps, acc, a.backupBlobs)
	if err := a.Modules.Add(mods...); err != nil {
		a.Store.Close()
		return nil, err
	}
	// The consumer exists from here on: on a store with a change log it notes
	// every write (history entries, counter deltas), the API's included.
	// Live updates hear of each batch the consumer applied: the in-process
	// hub locally, API Gateway's WebSocket API in the cloud.
	a.Live = live.NewHub(live.HubOptions{Store: a.Store, Auth: a.Auth, Log: log})
	if liveCloud != nil {
		liveCloud.Store, liveCloud.Auth = a.Store, a.Auth
		a.LiveCloud = live.NewCloud(*liveCloud)
	}
	opts := a.Modules.StreamOptions()
	opts.Logger = log
	opts.Observer = a.Live
	if a.LiveCloud != nil {
		opts.Observer = a.LiveCloud
	}
	a.consumer = stream.New(a.Store, opts)
	for _, m := range mods {
		if d, ok := m.(*drive.Module); ok {
			a.DAV = dav.New(dav.Options{Store: a.Store, Tokens: a.Auth, Drive: d, Log: log})
		}
	}
	if a.Worker, err = schedule.NewWorker(a.Modules.Jobs(), schedule.WorkerOptions{Store: a.Store, Log: log}); err != nil {
		a.Store.Close()
		return nil, err
	}
	var queue schedule.Queue
	if cfg.JobsQueueURL != "" {
		c, err := loadAWS()
		if err != nil {
			a.Store.Close()
			return nil, err
		}
		queue = schedule.NewSQSQueue(sqs.NewFromConfig(c), cfg.JobsQueueURL)
	} else {
		a.localJobs = schedule.NewLocalQueue(context.WithoutCancel(ctx), a.Worker.Handle, schedule.LocalQueueOptions{Log: log})
		queue = a.localJobs
	}
	if a.Jobs, err = schedule.NewDispatcher(a.Modules.Jobs(), schedule.DispatchOptions{Queue: queue, Groups: schedule.StoreGroups(a.Store), Log: log}); err != nil {
		a.Store.Close()
		return nil, err
	}
	a.API = httpapi.New(httpapi.Deps{
		Live:     live.Route(a.Live, a.LiveCloud),
		Store:    a.Store,
		Docs:     a.Docs,
		Auth:     a.Auth,
		Users:    a.Auth,
		Accounts: a.Accounts,
		Modules:  a.Modules,
		Log:      log,
		Config: httpapi.Config{
			MaxBodyBytes: cfg.MaxBodyBytes,
			CookieSecure: cfg.CookieSecure,
			Version:      Version,
			BaseURL:      cfg.BaseURL,
			OriginSecret: cfg.OriginSecret,
			LongpollMax:  cfg.LongpollMax,
			PageMaxRows:  cfg.PageMaxRows,
			PageMaxBytes: cfg.PageMaxBytes,
			GroupBudget:  cfg.GroupBudget,
		},
	})
	a.Handler = httpapi.Compress(a.API)
	return a, nil
}

// StartBackground starts the in-process work of the embedded deployment
// (the change stream drained from the store's outbox, expired-record
// sweeps, and, unless the configuration turns it off, the scheduled jobs).
// It stops when ctx ends; Wait waits for it. On DynamoDB the stream is
// functions/stream's and the schedules are EventBridge's.
func (a *App) StartBackground(ctx context.Context) {
	a.SeedPrices(ctx)
	if a.cfg.Schedule {
		sched, err := schedule.NewScheduler(a.Modules.Jobs(), a.Jobs.Handle, schedule.SchedulerOptions{Log: a.log})
		if err != nil {
			// Unreachable: the dispatcher parsed the same schedules in Open.
			a.log.Error("scheduled jobs not started", "err", err)
		} else {
			a.wg.Add(1)
			go func() {
				defer a.wg.Done()
				sched.Run(ctx)
			}()
			a.log.Info("scheduled jobs run in-process", "jobs", len(a.Modules.Jobs()))
		}
	}
	if ob, ok := a.Store.(store.Outbox); ok {
		consumer := a.Consumer()
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			// Drain only returns when ctx ends; anything else is retried inside.
			_ = consumer.Drain(ctx, ob)
		}()
	}
	sweeper, ok := a.Store.(interface {
		Sweep(context.Context) (int, error)
	})
	if !ok {
		return
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		tick := time.NewTicker(10 * time.Minute)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if n, err := sweeper.Sweep(ctx); err != nil {
					a.log.Warn("sweeping expired records failed", "err", err)
				} else if n > 0 {
					a.log.Debug("swept expired records", "count", n)
				}
			}
		}
	}()
}

// SeedPrices puts the plan prices in the prices db when missing (the local
// server at start, the schedule function at cold start; never the API's
// cold start, which stays at one read). A failure is logged: the pricing
// section then says it found no plans, and the next start tries again.
func (a *App) SeedPrices(ctx context.Context) {
	n, err := plans.Seed(ctx, a.Docs, plans.WithAmounts(a.cfg.Stripe.PlanPrices), false)
	if err != nil {
		a.log.Error("plan prices not seeded", "err", err)
		return
	}
	if n > 0 {
		a.log.Info("plan prices seeded", "prices", n)
	}
}

// Consumer returns the change-stream consumer, with every module's tallies,
// event types and reactions.
func (a *App) Consumer() *stream.Consumer { return a.consumer }

// Cfg is the configuration the product was wired with.
func (a *App) Cfg() config.Config { return a.cfg }

// Wait waits for the background work to stop.
func (a *App) Wait() { a.wg.Wait() }

// RunJob runs one whole round of job at t now, in the caller, with
// neither the queue nor the once-per-firing records (tests and tools: a
// per-Group job's round walks every Group, module.EachGroup).
func (a *App) RunJob(ctx context.Context, job string, t time.Time) error {
	j, ok := a.Modules.JobNamed(job)
	if !ok {
		return fmt.Errorf("%w %q", schedule.ErrUnknownJob, job)
	}
	return j.Run(ctx, module.JobEvent{Job: job, Time: t.UTC()})
}

// Close closes the live-updates connections, the local jobs, then the store.
func (a *App) Close() error {
	a.Live.Close()
	if a.localJobs != nil {
		a.localJobs.Close()
	}
	return a.Store.Close()
}

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
