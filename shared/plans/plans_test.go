package plans_test

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/plans"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// TestSeed: a fresh install lists its plans to anyone (the landing page's
// pricing section, issue 8 item 24); seeding again writes nothing and
// keeps an operator's edit.
func TestSeed(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ctx := context.Background()
		anon := e.Anonymous()
		find := func() []any {
			r := anon.Do("POST", "/api/prices/_find", map[string]any{"selector": map[string]any{"klass": "PlanPrice", "active": true}})
			return r.Expect(t, http.StatusOK)["docs"].([]any)
		}
		if got := find(); len(got) != 0 {
			t.Fatalf("prices before seeding: %v", got)
		}
		n, err := plans.Seed(ctx, e.App.Docs, plans.Defaults, false)
		if err != nil || n != 4 {
			t.Fatalf("seed = %d, %v; want 4", n, err)
		}
		got := map[string]any{}
		for _, d := range find() {
			m := d.(map[string]any)
			got[m["group_plan"].(string)] = m["unit_amount"]
		}
		want := map[string]any{"free": float64(0), "pro": float64(600), "corp": float64(1800), "server": float64(90000)}
		for plan, amount := range want {
			if got[plan] != amount {
				t.Fatalf("prices %v, want %v", got, want)
			}
		}
		// An operator's change stands; a second start writes nothing.
		pro := e.Doc("prices", plans.ID("pro", false))
		pro["unit_amount"] = 300
		if _, err := e.App.Docs.Save(ctx, &access.Principal{UserID: "_operator", Label: "Operator"}, "prices", plans.ID("pro", false), pro["_rev"].(string), withoutMeta(pro)); err != nil {
			t.Fatal(err)
		}
		if n, err := plans.Seed(ctx, e.App.Docs, plans.Defaults, false); err != nil || n != 0 {
			t.Fatalf("second seed = %d, %v; want 0", n, err)
		}
		if e.Doc("prices", plans.ID("pro", false))["unit_amount"] != float64(300) {
			t.Fatal("seeding overwrote an edited price")
		}
		// Anonymous visitors cannot write prices.
		anon.Do("PUT", "/api/prices/"+plans.ID("free", false), map[string]any{"klass": "PlanPrice", "unit_amount": 1}).Expect(t, http.StatusUnauthorized)
	})
}

func withoutMeta(d map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range d {
		if k != "_id" && k != "_rev" {
			out[k] = v
		}
	}
	return out
}

// TestWithAmounts: the configuration's amounts replace the paid plans'
// (free stays 0); missing ones keep the defaults.
func TestWithAmounts(t *testing.T) {
	got := map[string]int64{}
	for _, p := range plans.WithAmounts(map[string]int64{"pro": 300, "corp": 900, "free": 5}) {
		got[p.Plan] = p.UnitAmount
	}
	if got["pro"] != 300 || got["corp"] != 900 || got["server"] != 90000 || got["free"] != 0 {
		t.Fatalf("%v", got)
	}
	if plans.Defaults[1].UnitAmount != 600 {
		t.Fatal("WithAmounts changed Defaults")
	}
}
