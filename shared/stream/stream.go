// Package stream is the change-stream consumer (DESIGN.md §4): it turns
// committed document changes into history entries (DocumentChange "ver-"
// documents, the source of timeline cards and history panels) and exact
// per-database counters (records and bytes per klass, tickets and open
// tickets by priority) that the count views and Counter documents read.
//
// Both stores feed it the same store.Change: the embedded store from its
// outbox (Drain, in-process), DynamoDB through DynamoDB Streams
// (functions/stream). Delivery is at-least-once and, on AWS, may reorder
// changes of one database across shards, so everything Apply does is
// idempotent and order-insensitive:
//
//   - a history entry has a deterministic id (db, doc id, rev) and is only
//     created, never overwritten, so a replay finds it and moves on;
//   - counters keep one contribution record per document holding the seq
//     of the change it reflects; a change applies only if it is newer, and
//     its delta is taken against that stored contribution (not the change's
//     old image), committed together with the db's aggregate in one
//     conditional Transact. Deleted documents keep a tombstone contribution
//     so a late, older change cannot bring them back.
package stream

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// Klass names the consumer writes or reads.
const (
	KlassDocumentChange = "DocumentChange"
	KlassCounter        = "Counter"
)

// Options configures New. The zero value is fine. Modules contribute
// Tallies, Events and Reactions through the module seam (shared/module).
type Options struct {
	Logger *slog.Logger // nil = discard
	// Parallelism bounds concurrent store calls of one Apply (0 = 32):
	// history writes in parallel share the embedded store's fsyncs and
	// hide DynamoDB's latency.
	Parallelism int
	// Tallies are the modules' counts kept with the records per klass.
	Tallies []Tally
	// Events adds module-specific timeline event types, per klass.
	Events map[string][]EventRule
	// Reactions run after history and counters for changes of their klasses.
	Reactions []Reaction
	// NotRecords adds klasses that do not count as records (plan limits) to
	// the spec's list (subrecords, configuration, people).
	NotRecords []string
	// Observer, when set, is told of every batch Apply has finished (live
	// updates, shared/live).
	Observer Observer
	// NoHistory lists klasses whose changes get no history entry:
	// machine-written records (feed items) that no history panel shows.
	NoHistory []string
}

// Observer hears of each batch of changes after Apply has written its
// history, counters and reactions, so that what it tells readers is already
// there to read. It sees every change of the batch, system databases
// included (a user's roles live in _users). Delivery is at-least-once, like
// Apply's. It has no error to return: what it does is not the stream's to
// retry.
type Observer interface {
	Applied(ctx context.Context, changes []store.Change)
}

// EventRule returns the extra timeline event types a change of one klass
// shows (old is nil on create), after the generic ones.
type EventRule func(old, new Fields) []string

// Reaction is a module's follow-up to committed changes of its klasses (mail
// triggers, derived documents). Delivery is at-least-once and may reorder
// changes of different documents, so React must be idempotent.
type Reaction struct {
	Name    string
	Klasses []string
	React   func(ctx context.Context, ch store.Change) error
}

// Consumer applies changes to a store. It is safe for concurrent use; two
// consumers of the same store (two Lambda shards) stay exact too.
type Consumer struct {
	st         store.Store
	log        *slog.Logger
	par        int
	tallies    map[string][]Tally // klass → tallies that look at it
	events     map[string][]EventRule
	reactions  map[string][]Reaction
	notRecords map[string]bool
	observer   Observer
	noHistory  map[string]bool
	// changeLog is the store's log when it keeps one (notes.go): history
	// and counter deltas are then noted with each write, not written here.
	changeLog store.ChangeLog
}

// New returns a consumer writing history and counters into st. On a store
// that keeps a change log it also becomes the store's Noter (notes.go), so
// build it before the first write.
func New(st store.Store, opts Options) *Consumer {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	par := opts.Parallelism
	if par <= 0 {
		par = 32
	}
	c := &Consumer{
		st: st, log: log, par: par,
		tallies:    map[string][]Tally{},
		events:     opts.Events,
		reactions:  map[string][]Reaction{},
		notRecords: maps.Clone(builtinNotRecords),
		observer:   opts.Observer,
		noHistory:  map[string]bool{},
	}
	for _, t := range opts.Tallies {
		for _, k := range t.Klasses {
			c.tallies[k] = append(c.tallies[k], t)
		}
	}
	for _, r := range opts.Reactions {
		for _, k := range r.Klasses {
			c.reactions[k] = append(c.reactions[k], r)
		}
	}
	for _, k := range opts.NotRecords {
		c.notRecords[k] = true
	}
	for _, k := range opts.NoHistory {
		c.noHistory[k] = true
	}
	if cl, ok := st.(store.ChangeLog); ok {
		c.changeLog = cl
		cl.SetNoter(c)
	}
	return c
}

// counts reports whether the counters look at documents of klass at all.
func (c *Consumer) counts(klass string) bool { return c.counted(klass) || len(c.tallies[klass]) > 0 }

// Apply processes a batch of changes: history entries and counters. It
// returns the first error; the caller redelivers the batch (or the rest of
// it), which is safe because every step is idempotent.
func (c *Consumer) Apply(ctx context.Context, changes []store.Change) error {
	var hist, reacting []store.Change
	latest := map[string]map[string]store.Doc{} // db → id → newest revision seen
	for _, ch := range changes {
		klass, ok := trackedKlass(ch)
		if !ok {
			continue
		}
		hist = append(hist, ch)
		if len(c.reactions[klass]) > 0 {
			reacting = append(reacting, ch)
		}
		if c.changeLog != nil && latest[ch.DB] == nil {
			latest[ch.DB] = map[string]store.Doc{} // the log is folded whatever changed
		}
		if !c.counts(klass) {
			continue
		}
		docs := latest[ch.DB]
		if docs == nil {
			docs = map[string]store.Doc{}
			latest[ch.DB] = docs
		}
		// Counters depend only on a document's newest state, so one batch
		// needs only its newest change per document.
		if cur, ok := docs[ch.New.ID]; !ok || ch.New.Seq > cur.Seq {
			nd := ch.New
			if nd.Klass == "" {
				nd.Klass = klass // an old-style tombstone: keep what it was
			}
			docs[ch.New.ID] = nd
		}
	}
	dbs := make([]string, 0, len(latest))
	for db := range latest {
		dbs = append(dbs, db)
	}
	slices.Sort(dbs)
	// History and the counters of each db touch different keys, so they
	// run side by side: on the embedded store their transactions share
	// fsyncs, on DynamoDB their latencies overlap.
	err := forEach(ctx, 1+len(dbs), min(1+len(dbs), c.par), func(ctx context.Context, i int) error {
		if i == 0 {
			if c.changeLog != nil {
				return nil // noted with each write
			}
			return c.writeHistory(ctx, hist)
		}
		db := dbs[i-1]
		if c.changeLog != nil {
			return c.foldLog(ctx, db)
		}
		docs := make([]store.Doc, 0, len(latest[db]))
		for _, d := range latest[db] {
			docs = append(docs, d)
		}
		slices.SortFunc(docs, func(a, b store.Doc) int { return strings.Compare(a.ID, b.ID) })
		return c.applyCounters(ctx, db, docs)
	})
	if err != nil {
		return err
	}
	if err := c.react(ctx, reacting); err != nil {
		return err
	}
	if c.observer != nil {
		c.observer.Applied(ctx, changes)
	}
	return nil
}

// react runs the modules' reactions, one change after another in delivery
// order (a reaction may depend on the counters just written).
func (c *Consumer) react(ctx context.Context, changes []store.Change) error {
	for _, ch := range changes {
		klass, _ := trackedKlass(ch)
		for _, r := range c.reactions[klass] {
			if err := r.React(ctx, ch); err != nil {
				return errDB(ch.DB, "reaction "+r.Name+" to "+ch.New.ID, err)
			}
		}
	}
	return nil
}

// systemDB reports the databases the stream leaves alone: users, Group
// records and prices are not Group data, have no timeline and no plan
// limits, and user documents hold private fields history must not copy.
// Databases whose names start with an underscore are the server's own
// bookkeeping (the reader's feed directory), which no route serves.
func systemDB(db string) bool {
	switch db {
	case ids.AccountsDB, ids.PricesDB:
		return true
	}
	return strings.HasPrefix(db, "_") // _users and the server's own
}

// Tracked reports whether the stream records a change in history: not in a
// system db, not one of its own documents, and with a klass at all.
func Tracked(ch store.Change) bool {
	_, ok := trackedKlass(ch)
	return ok
}

// trackedKlass is Tracked that also returns the klass.
func trackedKlass(ch store.Change) (string, bool) {
	if systemDB(ch.DB) || ch.New.ID == "" {
		return "", false
	}
	klass := ch.New.Klass
	if klass == "" && ch.Old != nil {
		klass = ch.Old.Klass
	}
	if klass == "" {
		klass = bodyKlass(ch.New.Body)
	}
	if klass == "" && ch.Old != nil {
		klass = bodyKlass(ch.Old.Body)
	}
	switch klass {
	case "", KlassDocumentChange, KlassCounter:
		return "", false
	}
	return klass, true
}

// forEach runs fn for 0..n-1 with at most par calls at once and returns
// the first error.
func forEach(ctx context.Context, n, par int, fn func(ctx context.Context, i int) error) error {
	if n == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, par)
	for i := range n {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		// Our own cancel only follows an error, so this is the caller's.
		return fmt.Errorf("stream: %w", context.Cause(ctx))
	}
	return first
}

// errDB wraps failures with the db they concern, for the logs.
func errDB(db, what string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("stream: %s of %s: %w", what, db, err)
}
