// Package app wires adapters to the domain for every deployable: the store
// (bbolt or DynamoDB), the mail sender (outbox or SES), the auth service and
// the HTTP API. functions/*/main.go only call it.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/app/parts"
	"github.com/oficina/oficina/shared/app/runenv"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/dav"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/httpapi"
	"github.com/oficina/oficina/shared/live"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/phones"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/schedule"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Version is stamped at build time (-ldflags "-X .../app.Version=...").
var Version = "dev"

// App is a wired product: the base every deployable shares (core) with
// every module, the HTTP API, WebDAV and the scheduled jobs on top.
type App struct {
	*core.Core
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
	// Handler is API as served: gzipped for clients that accept it.
	Handler http.Handler
	// DAV is the drive over WebDAV (shared/dav), mounted at /dav/.
	DAV *dav.Handler
	// Live is the live-updates hub (shared/live): GET /api/_live locally,
	// fed by the in-process change stream. In the cloud, live updates go
	// through API Gateway's WebSocket API (Core.LiveCloud).
	Live *live.Hub

	cfg      config.Config
	log      *slog.Logger
	wg       sync.WaitGroup
	consumer *stream.Consumer
}

// Logger builds the structured logger the configuration asks for.
func Logger(cfg config.Config, w io.Writer) *slog.Logger { return runenv.Logger(cfg, w) }

// Adapters are core's, plus the queue the scheduled jobs' tasks go to,
// which only the whole product's wiring reads.
type Adapters struct {
	core.Adapters
	// JobsQueue takes the tasks (SQS, shared/schedule/sqsqueue, with
	// OFICINA_JOBS_QUEUE_URL); nil: an in-process queue runs them. Only the
	// deployables that enqueue on SQS link its client.
	JobsQueue schedule.Queue
}

// OpenOn builds the product on adapters made elsewhere (the api function
// makes its own with the execution role's credentials, runenv.LambdaAWS).
// It closes the store if it fails.
func OpenOn(ctx context.Context, cfg config.Config, log *slog.Logger, ad Adapters, o core.Options) (*App, error) {
	if ad.Phones == nil {
		// The API takes phone numbers (the Group's, its customers'): it
		// reads them with the numbering metadata, which the functions that
		// take none do not link.
		ad.Phones = phones.Metadata{}
	}
	c, err := core.Open(ctx, cfg, log, ad.Adapters, o)
	if err != nil {
		ad.Store.Close()
		return nil, err
	}
	a := &App{Core: c, log: log, cfg: cfg}
	fail := func(err error) (*App, error) {
		c.Close()
		return nil, err
	}
	a.Modules = c.Registry()
	mods := Modules(c.Deps(), c.Accounts, c.Backups, c.Worker)
	if err := a.Modules.Add(mods...); err != nil {
		return fail(err)
	}
	a.Modules.RegisterCoreJobs()
	// The consumer exists from here on: on a store with a change log it notes
	// every write (history entries, counter deltas), the API's included.
	// Live updates hear of each batch the consumer applied: the in-process
	// hub locally, API Gateway's WebSocket API in the cloud.
	a.Live = live.NewHub(live.HubOptions{Store: c.Store, Auth: c.Auth, Log: log})
	opts := a.Modules.StreamOptions()
	opts.Logger = log
	opts.Observer = a.Live
	if c.LiveCloud != nil {
		opts.Observer = c.LiveCloud
	}
	a.consumer = stream.New(c.Store, opts)
	for _, m := range mods {
		if d, ok := m.(*drive.Module); ok {
			a.DAV = dav.New(dav.Options{
				Store: c.Store, Tokens: c.Auth, Drive: d, Log: log,
				Limiter: ratelimit.New(c.Store, ratelimit.Edge{RequestContext: cfg.BehindLambdaWebAdapter}, o.Now),
				MaxPut:  cfg.DavMaxPut, RedirectAbove: cfg.DavRedirectAbove,
			})
		}
	}
	if a.Worker, err = schedule.NewWorker(a.Modules.Jobs(), schedule.WorkerOptions{Store: c.Store, Log: log}); err != nil {
		return fail(err)
	}
	queue := ad.JobsQueue
	switch {
	case cfg.JobsQueueURL != "" && queue == nil:
		return fail(errors.New("the jobs queue (OFICINA_JOBS_QUEUE_URL) is set, but this deployable was given no queue client"))
	case queue == nil:
		a.localJobs = schedule.NewLocalQueue(context.WithoutCancel(ctx), a.Worker.Handle, schedule.LocalQueueOptions{Log: log})
		queue = a.localJobs
	}
	if a.Jobs, err = schedule.NewDispatcher(a.Modules.Jobs(), schedule.DispatchOptions{Queue: queue, Groups: schedule.StoreGroups(c.Store), Log: log}); err != nil {
		return fail(err)
	}
	a.API = httpapi.New(httpapi.Deps{
		Live:     live.Route(a.Live, c.LiveCloud),
		Store:    c.Store,
		Docs:     c.Docs,
		Auth:     c.Auth,
		Users:    c.Auth,
		Accounts: c.Accounts,
		Modules:  a.Modules,
		Log:      log,
		Config:   httpapi.ConfigOf(cfg, Version),
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
// server at start; on AWS the worker, parts.SeedPrices).
func (a *App) SeedPrices(ctx context.Context) { parts.SeedPrices(ctx, a.Core) }

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
	return a.Core.Close()
}

// AccessLog logs one line per request (core.AccessLog).
func AccessLog(log *slog.Logger, next http.Handler) http.Handler { return core.AccessLog(log, next) }
