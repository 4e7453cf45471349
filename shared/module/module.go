// Package module is the seam every domain area plugs into (DESIGN.md §2):
// a module is one Go package under shared/ (ticket, finance, reader, drive,
// wiki, billing) that, at wiring time, registers what it adds to the core:
//
//   - klass rules and effects on the document write path (docs.Service),
//     which every write route runs: PUT, POST, _bulk_docs, update handlers,
//     imports, WebDAV;
//   - declarative field schemas (shared/schema) and per-klass sort keys;
//   - update handlers by (ddoc, fn): PUT /{db}/_design/{ddoc}/_update/{fn}/{id};
//   - views by (ddoc, view): GET /{db}/_design/{ddoc}/_view/{view};
//   - tallies (counts the change stream keeps exact), timeline event types
//     and reactions to committed changes;
//   - scheduled jobs (EventBridge on AWS, an in-process scheduler locally);
//   - extra HTTP routes (PDFs, public pages, webhooks);
//   - the docs of those calls, for the API's OpenAPI document (apidoc.go).
//
// The HTTP API (shared/httpapi) and the stream consumer (shared/stream)
// dispatch to a Registry and know no module by name; shared/app builds the
// modules and registers them.
package module

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Module is one domain area.
type Module interface {
	// Name is a short lower-case name ("ticket"), used in logs and errors.
	Name() string
	// Register adds the module's rules, handlers, views, tallies, jobs and
	// routes to r. It runs once, at wiring time.
	Register(r *Registry) error
}

// Groups is what modules may ask about Groups (implemented by the accounts
// service): membership for people references, configuration (feature
// switches, adjustments) and the plan.
type Groups interface {
	// IsMember reports whether userID has an accepted membership of db.
	IsMember(ctx context.Context, db, userID string) (bool, error)
	// Setting returns the value of a Group adjustment by key (nil when unset).
	Setting(ctx context.Context, db, key string) (any, error)
	// Plan returns the Group's confirmed plan ("free", "pro", "corp"…).
	Plan(ctx context.Context, accountID string) (string, error)
}

// Deps are the adapters and core services a module is built from. shared/app
// fills them once and hands the same value to every module constructor.
type Deps struct {
	Store store.Store
	Docs  *docs.Service
	Mail  mail.Sender
	// Templates renders the product's mail (nil: mail.NoTemplates).
	Templates mail.Renderer
	Groups    Groups
	Log       *slog.Logger
	// BaseURL is where the SPA lives, for links in mail, PDFs and QR codes.
	BaseURL string
	// Now is the clock (tests control it).
	Now func() time.Time
	// Config is the server's settings; a module reads its own from it
	// (the reader: fetch limits, retention).
	Config config.Config
	// Blobs keeps the drive's file contents (the filesystem under
	// <data>/blobs, or a versioned S3 bucket); nil when --blobs=none.
	Blobs blob.Store
	// AWS is the deployable's AWS configuration, for a module that calls
	// AWS itself (billing reads the Stripe keys' secret); nil off AWS.
	AWS *aws.Config
	// Phones reads phone numbers (shared/phones.Metadata); nil when the
	// deployable takes none (see PhoneRules).
	Phones phonerules.Rules
}

// Logger is Log with the module's name on every line, or a logger that
// discards when Log is nil (tests).
func (d Deps) Logger(module string) *slog.Logger {
	if d.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return d.Log.With("module", module)
}

// PhoneRules is Phones, or rules that refuse when Phones is nil: a write
// that needs phone numbers read fails rather than storing them unread.
func (d Deps) PhoneRules() phonerules.Rules {
	if d.Phones == nil {
		return phonerules.Refusing("the modules were given no phone rules")
	}
	return d.Phones
}

// Clock is Now, or time.Now when Now is nil.
func (d Deps) Clock() func() time.Time {
	if d.Now == nil {
		return time.Now
	}
	return d.Now
}

// WritePath is implemented by modules that can register apart what every
// write and the change stream need: schemas, rules, effects, guards, sort
// keys, tallies, timeline events, reactions and the klasses that are not
// records (Register registers it too). The Lambda functions that serve no
// HTTP (stream, worker) register only this and JobRunner, calling the
// modules' methods directly (shared/app/parts), so they link none of the
// routes nor what only the routes use.
type WritePath interface {
	RegisterWrites(r *Registry)
}

// JobRunner is implemented by modules with scheduled jobs, which
// RegisterJobs registers apart for the worker (Register registers them too).
type JobRunner interface {
	RegisterJobs(r *Registry)
}

// Registry collects what modules register. It is filled at wiring time and
// read-only afterwards, so it needs no locking.
type Registry struct {
	docs      *docs.Service
	refs      schema.Refs
	modules   []string
	updates   map[UpdateKey]Update
	views     map[ViewKey]View
	tallies   []stream.Tally
	events    map[string][]stream.EventRule
	reactions []stream.Reaction
	uncounted []string
	noHistory []string
	jobs      map[string]Job
	routes    []Route
	// The API document (apidoc.go): each call's doc and module.
	apiDocs Docs
	owner   map[string]string
	schemas []schema.Klass
	labels  map[string]Labels // labels.go
	actors  map[string]Label
}

// JobRekey re-keys what each Group wrote before a klass was keyed by a
// field (docs.Service.Rekey), daily.
const JobRekey = "docs.rekey"

// RegisterCoreJobs registers the core's own scheduled jobs where the
// modules' jobs are registered (the API's registry, the worker's; not the
// stream's): JobRekey, which gives documents written before their klass
// was keyed by a field that key (docs.Service.Rekey); until then the
// klass's index pages read the whole klass.
func (r *Registry) RegisterCoreJobs() {
	rekey := func(ctx context.Context, _ JobEvent, db string) error {
		_, err := r.docs.Rekey(ctx, db)
		return err
	}
	// A re-key is conditional on each document's revision: twice is harmless.
	r.Job(Job{Name: JobRekey, Schedule: "cron(45 1 * * ? *)", Group: rekey, Run: EachGroup(r.docs.Store(), rekey), Idempotent: true})
}

// NewRegistry returns a registry writing rules onto d. refs resolves
// reference fields of schemas (ids of the same Group, members); nil makes
// reference checks fail closed. The core's own count-by-klass view is
// registered already; its jobs with RegisterCoreJobs.
func NewRegistry(d *docs.Service, refs schema.Refs) *Registry {
	r := &Registry{
		docs:    d,
		refs:    refs,
		updates: map[UpdateKey]Update{},
		views:   map[ViewKey]View{},
		events:  map[string][]stream.EventRule{},
		jobs:    map[string]Job{},
	}
	r.View(CounterView("count-by-klass", "all", func(c stream.Counts) []ViewRow {
		rows := make([]ViewRow, 0, len(c.Klass))
		for k, v := range c.Klass {
			rows = append(rows, ViewRow{Key: k, Value: v.Records})
		}
		return rows
	}))
	r.claim(CoreModule)
	r.Document(countByKlassDoc)
	return r
}

// Add registers modules in order; the first error stops it.
func (r *Registry) Add(mods ...Module) error {
	for _, m := range mods {
		if slices.Contains(r.modules, m.Name()) {
			return fmt.Errorf("module %q registered twice", m.Name())
		}
		r.modules = append(r.modules, m.Name())
		if err := m.Register(r); err != nil {
			return fmt.Errorf("module %s: %w", m.Name(), err)
		}
		r.claim(m.Name())
		if d, ok := m.(Documented); ok {
			r.Document(d.APIDocs())
		}
	}
	return nil
}

// Modules lists the registered module names, in order.
func (r *Registry) Modules() []string { return slices.Clone(r.modules) }

// ---- the write path ---------------------------------------------------------

// Rule adds a rule for klass on the write path (every write route runs it).
func (r *Registry) Rule(klass string, rule docs.Rule) { r.docs.Register(klass, rule) }

// Effect adds an effect for klass, run after the write is stored.
func (r *Registry) Effect(klass string, e docs.Effect) { r.docs.RegisterEffect(klass, e) }

// Guard adds a check every write of every klass passes before its rules
// (docs.Service.AddGuard): plan limits refuse writes to a view-only Group.
func (r *Registry) Guard(g docs.Guard) { r.docs.AddGuard(g) }

// Schema adds the declarative field rules of klasses (types, required,
// enums, limits, references), run before each klass's other rules.
func (r *Registry) Schema(ks ...schema.Klass) {
	for _, k := range ks {
		r.schemas = append(r.schemas, k)
		r.docs.Register(k.Name, k.Rule(r.refs))
	}
}

// SortKey sets how documents of klass are ordered in the store's klass
// index (default: created_at). A module that pages a subset (open tickets
// on the board) prefixes the key with it and lists with store.ListQuery.Prefix.
func (r *Registry) SortKey(klass string, fn docs.SortKeyFunc) { r.docs.SetSortKey(klass, fn) }

// IndexBy keys klass's index by field, the string its index pages and
// pickers sort by (a customer's name): see docs.Service.IndexBy.
func (r *Registry) IndexBy(klass, field string) { r.docs.IndexBy(klass, field) }

// TopBy serves a _find of klass's every document sorted by field
// descending from read, a bounded read of the klass index (docs.Top).
func (r *Registry) TopBy(klass, field string, read docs.Top) { r.docs.TopBy(klass, field, read) }

// ---- the change stream ------------------------------------------------------

// Tally adds a count the change stream keeps exact (see stream.Tally).
func (r *Registry) Tally(t stream.Tally) {
	if t.Name == "" || t.Of == nil || len(t.Klasses) == 0 {
		panic("module: a tally needs a name, klasses and Of")
	}
	for _, o := range r.tallies {
		if o.Name == t.Name {
			panic("module: tally " + t.Name + " registered twice")
		}
	}
	r.tallies = append(r.tallies, t)
}

// Events adds timeline event types for changes of klass.
func (r *Registry) Events(klass string, rule stream.EventRule) {
	r.events[klass] = append(r.events[klass], rule)
}

// React adds a follow-up to committed changes (see stream.Reaction).
func (r *Registry) React(re stream.Reaction) { r.reactions = append(r.reactions, re) }

// NotRecords declares klasses that do not count as records for plan limits.
func (r *Registry) NotRecords(klasses ...string) { r.uncounted = append(r.uncounted, klasses...) }

// NoHistory declares klasses whose changes keep no history entry:
// machine-written records (feed items) that no history panel shows.
func (r *Registry) NoHistory(klasses ...string) { r.noHistory = append(r.noHistory, klasses...) }

// StreamOptions returns the consumer options with every module's tallies,
// event rules and reactions (the caller sets Logger and Parallelism).
func (r *Registry) StreamOptions() stream.Options {
	return stream.Options{
		Tallies:    slices.Clone(r.tallies),
		Events:     maps.Clone(r.events),
		Reactions:  slices.Clone(r.reactions),
		NotRecords: slices.Clone(r.uncounted),
		NoHistory:  slices.Clone(r.noHistory),
	}
}

// ---- update handlers, views, jobs, routes -----------------------------------

// Update registers an update handler; a (ddoc, fn) pair has one handler.
func (r *Registry) Update(u Update) {
	if u.Handle == nil || u.DDoc == "" || u.Fn == "" {
		panic("module: an update handler needs a ddoc, a fn and Handle")
	}
	k := UpdateKey{DDoc: u.DDoc, Fn: u.Fn}
	if _, dup := r.updates[k]; dup {
		panic(fmt.Sprintf("module: update handler %s/%s registered twice", u.DDoc, u.Fn))
	}
	r.updates[k] = u
}

// UpdateHandler returns the handler of (ddoc, fn).
func (r *Registry) UpdateHandler(ddoc, fn string) (Update, bool) {
	u, ok := r.updates[UpdateKey{DDoc: ddoc, Fn: fn}]
	return u, ok
}

// Updates lists every update handler, sorted (the isolation walk visits them).
func (r *Registry) Updates() []Update {
	out := slices.Collect(maps.Values(r.updates))
	slices.SortFunc(out, func(a, b Update) int {
		return strings.Compare(a.DDoc+"/"+a.Fn, b.DDoc+"/"+b.Fn)
	})
	return out
}

// View registers a view; a (ddoc, view) pair has one.
func (r *Registry) View(v View) {
	if v.Serve == nil || v.DDoc == "" || v.Name == "" {
		panic("module: a view needs a ddoc, a name and Serve")
	}
	k := ViewKey{DDoc: v.DDoc, Name: v.Name}
	if _, dup := r.views[k]; dup {
		panic(fmt.Sprintf("module: view %s/%s registered twice", v.DDoc, v.Name))
	}
	r.views[k] = v
}

// ViewOf returns the view (ddoc, name).
func (r *Registry) ViewOf(ddoc, name string) (View, bool) {
	v, ok := r.views[ViewKey{DDoc: ddoc, Name: name}]
	return v, ok
}

// Views lists every view, sorted.
func (r *Registry) Views() []View {
	out := slices.Collect(maps.Values(r.views))
	slices.SortFunc(out, func(a, b View) int { return strings.Compare(a.DDoc+"/"+a.Name, b.DDoc+"/"+b.Name) })
	return out
}

// Job registers a scheduled job by its unique name.
func (r *Registry) Job(j Job) {
	if j.Name == "" || (j.Run == nil && j.Group == nil) || j.Schedule == "" {
		panic("module: a job needs a name, a schedule and Run or Group")
	}
	if _, err := ParseSchedule(j.Schedule); err != nil {
		panic(fmt.Sprintf("module: job %s: %v", j.Name, err))
	}
	if _, dup := r.jobs[j.Name]; dup {
		panic("module: job " + j.Name + " registered twice")
	}
	r.jobs[j.Name] = j
}

// JobNamed returns a job by name.
func (r *Registry) JobNamed(name string) (Job, bool) { j, ok := r.jobs[name]; return j, ok }

// Jobs lists every job, sorted by name.
func (r *Registry) Jobs() []Job {
	out := slices.Collect(maps.Values(r.jobs))
	slices.SortFunc(out, func(a, b Job) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Route registers an extra HTTP route.
func (r *Registry) Route(rt Route) {
	if rt.Pattern == "" || rt.Handle == nil {
		panic("module: a route needs a pattern and Handle")
	}
	if rt.Access <= AccessAdmin && !strings.Contains(rt.Pattern, "{db}") {
		// The core checks read/write/admin access on the {db} wildcard; a
		// route without one must say who decides.
		panic("module: route " + rt.Pattern + " checks db access but has no {db} wildcard (use AccessSelf or AccessPublic)")
	}
	for _, o := range r.routes {
		if o.Pattern == rt.Pattern {
			panic("module: route " + rt.Pattern + " registered twice")
		}
	}
	r.routes = append(r.routes, rt)
}

// Routes lists the extra routes in registration order.
func (r *Registry) Routes() []Route { return slices.Clone(r.routes) }

// principal is how handlers see who is asking.
func principal(ctx context.Context) *access.Principal { return access.PrincipalFrom(ctx) }

// Refs resolves schema references: ids against the store (a live document
// of the klass in the same db), people against the Groups' memberships.
func Refs(st store.Store, g Groups) schema.Refs { return refs{st: st, g: g} }

type refs struct {
	st store.Store
	g  Groups
}

func (r refs) Exists(ctx context.Context, db, id, klass string) (bool, error) {
	d, err := r.st.Get(ctx, db, id)
	switch {
	case errors.Is(err, store.ErrNotFound), errors.Is(err, store.ErrDeleted), errors.Is(err, store.ErrDBNotFound):
		return false, nil
	case err != nil:
		return false, err
	}
	return d.Klass == klass, nil
}

func (r refs) IsMember(ctx context.Context, db, userID string) (bool, error) {
	if r.g == nil {
		return false, nil
	}
	return r.g.IsMember(ctx, db, userID)
}
