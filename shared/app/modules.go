package app

import (
	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/backup"
	"github.com/oficina/oficina/shared/billing"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/finance"
	"github.com/oficina/oficina/shared/limits"
	"github.com/oficina/oficina/shared/links"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/reader"
	"github.com/oficina/oficina/shared/servicedocs"
	"github.com/oficina/oficina/shared/specfields"
	"github.com/oficina/oficina/shared/ticket"
	"github.com/oficina/oficina/shared/wiki"
	"github.com/oficina/oficina/shared/wiki/highlight"
)

// Modules lists every module of the product, in registration order. This is
// the one place a new module is wired in.
// backups, when not nil, keeps the backups apart from the drive's store;
// worker, when not nil, is the process that alone reaches them (the stack's
// worker function, invoked by the api).
func Modules(d module.Deps, acc *accounts.Service, backups blob.Store, worker backup.Invoke) []module.Module {
	rd := reader.New(d)
	return []module.Module{
		acc, // Groups: accept, bookmark, tokens
		ticket.New(d),
		servicedocs.New(d), // estimates, contracts, maintenances, receipts, public pages, calendar
		finance.New(d),     // organize3: wallets, incomes, expenses, transfers, exchanges, balances
		rd,                 // exoreader: feeds, items, labels, OPML
		drive.New(d),       // rdisk: files, folders, versions, trash, quota, chunked uploads
		wiki.New(d).WithHighlighter(highlight.Chroma{}), // textnotes: handbooks, links and linked by, versions, search, code colouring
		// the links app: bookmarks, import and export, titles read through the reader's fetch guard
		links.New(d).WithPageFetcher(rd.Fetcher()),
		billing.New(d, acc), // Stripe: checkout, webhooks, plan switches, metered storage
		specfields.Module{}, // SPEC §3 field rules of klasses whose module is still to come
		limits.New(d),       // plan limits on every write, view-only Groups, usage snapshots, limit mail, weekly summary
		// backups per plan into their own store, download, restore into a new Group
		backup.New(d, acc).WithArchives(backups).WithKeeper(worker),
	}
}
