// Package plans holds the plan prices of SPEC.md §9 and puts them in the
// public prices db, so a fresh install's pricing section lists its plans
// instead of "No plans found". Prices are per storage: pro per 100 MB per
// month, corp per 200 MB per month (the higher of the spec's two readings),
// the dedicated server a fixed amount. Billing (Stripe) fills in each
// price's platform_price_id later; seeding never overwrites a price that
// exists, so an operator's edits stand.
package plans

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/store"
)

// KlassPlanPrice is the klass of the prices db's records.
const KlassPlanPrice = "PlanPrice"

// Price is one plan's price in cents (per storage unit for pro and corp).
type Price struct {
	Plan       string
	UnitAmount int64
	// UnitMB is the storage a unit buys per month (0: a fixed price).
	UnitMB int
}

// Defaults are SPEC.md §9's plans at the higher reading of each figure.
var Defaults = []Price{
	{Plan: "free", UnitAmount: 0},
	{Plan: "pro", UnitAmount: 600, UnitMB: 100},
	{Plan: "corp", UnitAmount: 1800, UnitMB: 200},
	{Plan: "server", UnitAmount: 90000},
}

// WithAmounts returns Defaults with the paid plans' amounts replaced by
// amounts (plan → cents; the configuration's --plan-prices).
func WithAmounts(amounts map[string]int64) []Price {
	out := make([]Price, len(Defaults))
	copy(out, Defaults)
	for i, p := range out {
		if n, ok := amounts[p.Plan]; ok && p.Plan != "free" {
			out[i].UnitAmount = n
		}
	}
	return out
}

// ID is a plan price's fixed id, so seeding twice (two servers starting at
// once, a restart) finds the record it made.
func ID(plan string, livemode bool) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("plan-price\x00%s\x00%t", plan, livemode)))
	return "ppr-" + hex.EncodeToString(sum[:16])
}

var seeder = &access.Principal{UserID: "_system", Name: "_system", Label: "Oficina"}

// Seed writes each missing price as an active PlanPrice of the prices db
// and reports how many it wrote. Existing prices are left as they are.
func Seed(ctx context.Context, d *docs.Service, prices []Price, livemode bool) (int, error) {
	wrote := 0
	for _, p := range prices {
		id := ID(p.Plan, livemode)
		switch _, err := d.Store().Get(ctx, ids.PricesDB, id); {
		case err == nil:
			continue
		case !errors.Is(err, store.ErrNotFound):
			return wrote, fmt.Errorf("read plan price %s: %w", p.Plan, err)
		}
		body := map[string]any{
			"klass": KlassPlanPrice, "group_plan": p.Plan, "unit_amount": p.UnitAmount,
			"unit_mb": p.UnitMB, "livemode": livemode, "active": true, "platform_price_id": "",
		}
		if _, err := d.Save(ctx, seeder, ids.PricesDB, id, "", body); err != nil {
			if errors.Is(err, store.ErrConflict) {
				continue // another instance seeded it first
			}
			return wrote, fmt.Errorf("seed plan price %s: %w", p.Plan, err)
		}
		wrote++
	}
	return wrote, nil
}
