// Package parts wires the Lambda functions that serve no HTTP: the change
// stream (functions/stream) and the jobs worker (functions/worker). They
// register every module's write path — the rules every write passes,
// wherever it comes from — and the change stream's parts, and the worker
// the scheduled jobs, but none of the modules' routes: the modules'
// methods are called directly, never through the module.Module interface,
// so the linker drops Register and what only the routes use (rendering,
// PDFs, imports, checkouts) from these binaries (issue 23.4).
//
// shared/app.Modules stays the one list of modules; a test keeps this one
// registering exactly its write paths and jobs.
package parts

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/backup"
	"github.com/oficina/oficina/shared/billing"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/finance"
	"github.com/oficina/oficina/shared/limits"
	"github.com/oficina/oficina/shared/links"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/plans"
	"github.com/oficina/oficina/shared/reader"
	"github.com/oficina/oficina/shared/servicedocs"
	"github.com/oficina/oficina/shared/specfields"
	"github.com/oficina/oficina/shared/stream"
	"github.com/oficina/oficina/shared/ticket"
	"github.com/oficina/oficina/shared/wiki"
)

// Set is the product's modules, held by their concrete types.
type Set struct {
	deps module.Deps
	acc  *accounts.Service

	ticket      *ticket.Module
	servicedocs *servicedocs.Module
	finance     *finance.Module
	reader      *reader.Module
	drive       *drive.Module
	wiki        *wiki.Module
	links       *links.Module
	specfields  specfields.Module
	limits      *limits.Module
	backup      *backup.Module
}

// New builds the modules with a write path or jobs as app.Modules does;
// billing's usage report is built by RegisterJobs (backups, when not nil,
// keeps the backups apart from the drive's store).
func New(d module.Deps, acc *accounts.Service, backups blob.Store) *Set {
	return &Set{
		deps: d, acc: acc,
		ticket:      ticket.New(d),
		servicedocs: servicedocs.New(d),
		finance:     finance.New(d),
		reader:      reader.New(d),
		drive:       drive.New(d),
		wiki:        wiki.New(d),
		links:       links.New(d),
		limits:      limits.New(d),
		backup:      backup.New(d, acc).WithArchives(backups),
	}
}

// RegisterWrites registers every module's write path and change-stream
// parts (module.WritePath), in app.Modules' order.
func (s *Set) RegisterWrites(r *module.Registry) {
	s.acc.RegisterWrites(r)
	s.ticket.RegisterWrites(r)
	s.servicedocs.RegisterWrites(r)
	s.finance.RegisterWrites(r)
	s.reader.RegisterWrites(r)
	s.drive.RegisterWrites(r)
	s.wiki.RegisterWrites(r)
	s.links.RegisterWrites(r)
	billing.RegisterWrites(r)
	s.specfields.RegisterWrites(r)
	s.limits.RegisterWrites(r)
}

// RegisterJobs registers every module's scheduled jobs (module.JobRunner)
// and the core's.
func (s *Set) RegisterJobs(r *module.Registry) {
	s.reader.RegisterJobs(r)
	s.drive.RegisterJobs(r)
	billing.New(s.deps, s.acc).RegisterJobs(r)
	s.limits.RegisterJobs(r)
	s.backup.RegisterJobs(r)
	r.RegisterCoreJobs()
}

// open wires the base on ad with every module's write path and stream
// parts registered.
func open(ctx context.Context, cfg config.Config, log *slog.Logger, ad core.Adapters, o core.Options) (*core.Core, *module.Registry, *Set, error) {
	c, err := core.Open(ctx, cfg, log, ad, o)
	if err != nil {
		ad.Store.Close()
		return nil, nil, nil, err
	}
	r := c.Registry()
	set := New(c.Deps(), c.Accounts, c.Backups)
	set.RegisterWrites(r)
	return c, r, set, nil
}

// Stream is the change-stream consumer of functions/stream: the base on
// the given adapters, every module's write path (reactions write
// documents through it) and its tallies, timeline events and reactions,
// telling live updates of each batch when ad.LiveCloud is set.
func Stream(ctx context.Context, cfg config.Config, log *slog.Logger, ad core.Adapters) (*core.Core, *stream.Consumer, error) {
	// Its reactions write only Groups' databases: the system ones are the
	// api's and the worker's to make.
	c, r, _, err := open(ctx, cfg, log, ad, core.Options{SystemDBsMadeElsewhere: true})
	if err != nil {
		return nil, nil, err
	}
	return c, c.Consumer(r), nil
}

// Work is what functions/worker runs besides the base.
type Work struct {
	// Jobs are every module's scheduled jobs.
	Jobs []module.Job
	// Keep serves the api's backup requests (backup.Module.Keep): the
	// worker alone may write the backups bucket and sign reads of it.
	Keep backup.Invoke
	// Prepare must succeed before the worker handles an event: it makes
	// the system databases when missing (the jobs read the Groups' list
	// and write prices; a fresh stack's worker may run before its api),
	// then seeds the plan prices, once. The worker calls it at each event
	// rather than at its cold start: after it succeeded it costs a lock.
	// An error fails the event, which is delivered again.
	Prepare func(ctx context.Context) error
}

// Jobs is what functions/worker runs: the base on the given adapters,
// every module's write path, their scheduled jobs and the backups kept
// for the api; its writes are noted as the API's are. It reads nothing:
// the system databases are Work.Prepare's.
func Jobs(ctx context.Context, cfg config.Config, log *slog.Logger, ad core.Adapters) (*core.Core, Work, error) {
	c, r, set, err := open(ctx, cfg, log, ad, core.Options{SystemDBsMadeElsewhere: true})
	if err != nil {
		return nil, Work{}, err
	}
	set.RegisterJobs(r)
	c.Consumer(r)
	var seeded sync.Once
	prepare := func(ctx context.Context) error {
		if err := c.Auth.EnsureSystemDBs(ctx); err != nil {
			return fmt.Errorf("prepare system databases: %w", err)
		}
		seeded.Do(func() { SeedPrices(ctx, c) })
		return nil
	}
	return c, Work{Jobs: r.Jobs(), Keep: set.backup.Keep, Prepare: prepare}, nil
}

// SeedPrices puts the plan prices in the prices db when missing: the
// worker does at its first invocation (Work.Prepare), outside any cold
// start (a fresh stack's pricing section lists them within minutes of the
// deploy, the worker running every few minutes). A failure is logged: the
// pricing section then says it found no plans, and the next environment
// tries again.
func SeedPrices(ctx context.Context, c *core.Core) {
	n, err := plans.Seed(ctx, c.Docs, plans.WithAmounts(c.Cfg.Stripe.PlanPrices), false)
	if err != nil {
		c.Log.Error("plan prices not seeded", "err", err)
		return
	}
	if n > 0 {
		c.Log.Info("plan prices seeded", "prices", n)
	}
}
