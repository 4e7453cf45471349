// Package liveapi wires the live-updates function (functions/live). Its
// $connect goes through the HTTP API as GET /api/_live, so the handshake
// is checked exactly as a local upgrade is; no other route reaches it. So
// the API here stands on the core and the Groups alone: without the
// modules, their routes and their libraries (PDFs, feeds, bank files,
// Stripe, code colouring), which the function never runs (issue 23.4).
package liveapi

import (
	"context"
	"errors"
	"log/slog"

	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/httpapi"
	"github.com/oficina/oficina/shared/live"
)

// Open builds the function's handler on the given adapters; the adapters
// must carry LiveCloud (OFICINA_LIVE_ENDPOINT on DynamoDB). It closes the
// store if it fails.
func Open(ctx context.Context, cfg config.Config, log *slog.Logger, ad core.Adapters) (live.Lambda, error) {
	if ad.LiveCloud == nil {
		ad.Store.Close()
		return live.Lambda{}, errors.New("OFICINA_LIVE_ENDPOINT is not set")
	}
	c, err := core.Open(ctx, cfg, log, ad, core.Options{SystemDBsMadeElsewhere: true}) // it only reads them
	if err != nil {
		ad.Store.Close()
		return live.Lambda{}, err
	}
	reg := c.Registry()
	if err := reg.Add(c.Accounts); err != nil {
		c.Close()
		return live.Lambda{}, err
	}
	api := httpapi.New(httpapi.Deps{
		Live:     live.Route(nil, c.LiveCloud),
		Store:    c.Store,
		Docs:     c.Docs,
		Auth:     c.Auth,
		Users:    c.Auth,
		Accounts: c.Accounts,
		Modules:  reg,
		Log:      log,
		// The build's version is the API root's; this API serves only
		// GET /api/_live.
		Config: httpapi.ConfigOf(cfg, ""),
	})
	return live.Lambda{API: api, Cloud: c.LiveCloud}, nil
}
