// Package reader is the feed reader (SPEC.md §1 exoreader): subscriptions
// shared by a Group, several labels per subscription, items fetched on a
// schedule through the SSRF guard (shared/fetchguard), sanitised
// (shared/htmlsafe) and written through the document write path, the feed
// list with read, starred and label filters, OPML import and export, and
// the product's system notifications. It plugs into the core through the
// module seam (shared/module).
//
// Fetching is shared across Groups: a directory of every subscription
// (the server's own "_reader" database, which no route serves) is listed
// in URL order each round, so a URL subscribed by several Groups is
// fetched once and fanned out to each Group's items. Per-URL fetch state
// (ETag, Last-Modified, back-off, the last error) lives in a store record,
// so a fetch writes no document unless something changed: new or edited
// items, or the subscription's status moving between ok and error.
package reader

import (
	"log/slog"
	"sync"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/fetchguard"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/stream"
)

// Klasses (SPEC.md §3).
const (
	KlassItem         = "ReaderItem"
	KlassLabel        = "ReaderLabel"
	KlassSubscription = "ReaderSubscription"
)

// Names registered on the seam.
const (
	// TallyItems counts items by state ("un", "us", "rn", "rs": unread or
	// read × not starred or starred) and by label and state ("rlb-…|un").
	TallyItems = "reader.items"
	// JobRefresh fetches the feeds that are due.
	JobRefresh = "reader.refresh"
	// JobRetention removes old read, unstarred items.
	JobRetention = "reader.retention"
)

// Defaults and limits.
const (
	PageSize            = 10 // SPEC.md §9 feed page size
	DefaultInterval     = 60 // minutes between fetches of a feed
	MinInterval         = 5
	MaxInterval         = 24 * 60
	MaxItemsPerFetch    = 100
	MaxLabels           = 20
	maxBackoff          = 24 * time.Hour
	maxContentBytes     = 150 << 10 // an item's content, so the document stays under the store's 350 KB
	notificationsMaxAge = 16 * 24 * time.Hour
)

// Module is the feed reader on the module seam.
type Module struct {
	deps    module.Deps
	log     *slog.Logger
	now     func() time.Time
	fetcher *fetchguard.Client
	// server is the principal the reader's own writes are recorded as;
	// rules recognise it by identity, so no request can pose as it.
	server           *access.Principal
	retention        time.Duration
	notificationsURL string
	workers          int
	dir              directory
	notifMu          sync.Mutex // one fetch of the notifications feed at a time
}

// fetchWorkers bounds the feeds fetched at once in a round.
const fetchWorkers = 16

// New builds the module from the server configuration in d.
func New(d module.Deps) *Module {
	retention := d.Config.ReaderRetention
	if retention <= 0 {
		retention = 90 * 24 * time.Hour
	}
	return &Module{
		deps: d,
		log:  d.Logger("reader"),
		now:  d.Clock(),
		fetcher: fetchguard.New(fetchguard.Options{
			Allow:     d.Config.FetchAllowNets,
			Ports:     d.Config.FetchPorts,
			AnyPort:   d.Config.FetchAnyPort,
			UserAgent: "Oficina-Reader/1.0 (+" + d.BaseURL + ")",
		}),
		server:           &access.Principal{UserID: "_reader", Name: "_reader", Label: "exoreader", Via: access.ViaSession},
		retention:        retention,
		notificationsURL: d.Config.SystemNotificationsURL,
		workers:          fetchWorkers,
		dir:              directory{st: d.Store},
	}
}

// Name implements module.Module.
func (m *Module) Name() string { return "reader" }

// Fetcher is the reader's guarded HTTP client (shared/fetchguard with the
// server's allow-list and ports), for other modules that fetch pages users
// name: the links app reads bookmark titles with it.
func (m *Module) Fetcher() *fetchguard.Client { return m.fetcher }

// Register implements module.Module:
//
//	PUT  /api/{db}/_design/status/_update/{read|unread|star|unstar}/{rit id}  → {"ok","id","rev"}
//	GET  /api/{db}/_design/reader/_view/feed?read=&starred=&label=&page=&limit=  the feed list page
//	GET  /api/{db}/_design/reader/_view/unread-by-label?group_level=1           unread counts
//	POST /api/{db}/_reader/subscriptions {url, title?, reader_label_ids?…}   discovers, fetches, subscribes
//	POST /api/{db}/_reader/refresh                                           fetches the Group's feeds now
//	POST /api/{db}/_reader/subscriptions/{id}/refresh                        fetches one feed now
//	GET  /api/{db}/_reader/subscriptions/{id}/status                         its fetch state
//	POST /api/{db}/_reader/items/{id}/content                                loads the original article
//	GET  /api/{db}/_reader/opml · POST /api/{db}/_reader/opml                OPML export and import
//	GET  /api/{db}/_reader/notifications?locale=                             system notifications
//
// and the jobs reader.refresh (every 5 minutes) and reader.retention
// (daily at 03:30 UTC).
func (m *Module) Register(r *module.Registry) error {
	m.RegisterWrites(r)
	m.registerToggles(r)
	r.View(module.View{DDoc: "reader", Name: "feed", Serve: m.serveFeed})
	r.View(module.CounterView("reader", "unread-by-label", unreadByLabel))
	m.registerRoutes(r)
	m.RegisterJobs(r)
	return nil
}

// RegisterWrites implements module.WritePath: the reader's klasses, the
// unread tally and the reactions to subscriptions and labels.
func (m *Module) RegisterWrites(r *module.Registry) {
	m.registerKlasses(r)
	r.Labels(labels...)
	r.Actor(module.Actor{ID: m.server.UserID, Name: module.L("Feed reader", "Leitor de feeds")})
	r.Tally(stream.Tally{Name: TallyItems, Klasses: []string{KlassItem}, Of: itemTally})
	r.NoHistory(KlassItem) // feed items are written by the refresh job; nobody reads their history
	r.React(stream.Reaction{Name: "reader.subscription", Klasses: []string{KlassSubscription}, React: m.subscriptionChanged})
	r.React(stream.Reaction{Name: "reader.label", Klasses: []string{KlassLabel}, React: m.labelChanged})
}

// RegisterJobs implements module.JobRunner: feed refreshes and retention.
func (m *Module) RegisterJobs(r *module.Registry) {
	r.Job(module.Job{Name: JobRefresh, Schedule: "rate(5 minutes)", Run: m.runRefresh})
	// Retention deletes old items by revision: a second run finds them gone.
	r.Job(module.Job{Name: JobRetention, Schedule: "cron(30 3 * * ? *)", Group: m.retentionGroup, Run: module.EachGroup(m.deps.Store, m.retentionGroup), Idempotent: true})
}
