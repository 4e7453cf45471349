// Package davparts wires what the WebDAV server (functions/webdav) writes
// through: the base, the drive, and the write paths that reach a drive
// file's write. A file's write then passes every rule and guard the API's
// does (the plan limits' guard, the drive's rule and effect) and is noted
// for the change stream with the drive's tallies and timeline events.
//
// It registers no other module. Their rules, effects, tallies and events
// are each bound to their own klasses, which the WebDAV server never
// writes, and their packages bring what only their routes and jobs use
// (the reader's feed parsers and every HTML charset table, the wiki's
// Markdown): the image stays under the 6 MB of issue 23.4. A module that
// registers a rule, an event or a tally for the drive's klass, or a guard
// for every klass, fails TestDavPartsCoverTheDrive until it is added here.
package davparts

import (
	"context"
	"log/slog"

	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/limits"
	"github.com/oficina/oficina/shared/module"
)

// Register registers on r the write paths a drive file's write passes, in
// app.Modules' order: the Groups' labels, the drive's, the plan limits'.
func Register(c *core.Core, r *module.Registry) *drive.Module {
	d := c.Deps()
	c.Accounts.RegisterWrites(r)
	m := drive.New(d)
	m.RegisterWrites(r)
	limits.New(d).RegisterWrites(r)
	return m
}

// Drive is the WebDAV server's base on the given adapters, with the drive
// module and the write paths Register names; its writes are noted as the
// API's are.
func Drive(ctx context.Context, cfg config.Config, log *slog.Logger, ad core.Adapters) (*core.Core, *drive.Module, error) {
	c, err := core.Open(ctx, cfg, log, ad, core.Options{})
	if err != nil {
		ad.Store.Close()
		return nil, nil, err
	}
	r := c.Registry()
	m := Register(c, r)
	c.Consumer(r)
	return c, m, nil
}
