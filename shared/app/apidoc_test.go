package app_test

import (
	"context"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/oficina/oficina/shared/app/standalone"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/openapi"
	"github.com/oficina/oficina/shared/testproc"
)

var update = flag.Bool("update", false, "rewrite docs/api-routes.md from the registered calls")

// wiredCalls are the calls of the whole product; testRoutes registers the
// test-only ones too (--stripe-test-checkout=on).
func wiredCalls(t *testing.T, testRoutes bool) []module.Operation {
	t.Helper()
	cfg, err := config.Load([]string{"--data", t.TempDir()}, func(string) string { return "" }, config.Local)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Stripe.TestCheckout = testRoutes
	a, err := standalone.Open(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if stray := a.Modules.StrayDocs(); testRoutes && len(stray) > 0 {
		t.Errorf("documented calls that no module registers: %q", stray)
	}
	return a.API.Operations()
}

// TestAPIDocsMatchCalls: every call a module registers (route, update
// handler, view) is documented on the seam, every doc names a registered
// call, and every example encodes.
func TestAPIDocsMatchCalls(t *testing.T) {
	ops := wiredCalls(t, true)
	ids := map[string]string{}
	for _, op := range ops {
		if op.Doc == nil {
			t.Errorf("%s (module %s) is undocumented: add it to the module's APIDocs", op.Key(), op.Module)
			continue
		}
		if op.Doc.Summary == "" {
			t.Errorf("%s: the doc has no summary", op.Key())
		}
		for what, v := range map[string]any{"body": op.Doc.Body, "answer": op.Doc.Answer} {
			if _, file := v.(module.File); v != nil && !file && openapi.ExampleJSON(v) == nil {
				t.Errorf("%s: the %s example does not encode as JSON", op.Key(), what)
			}
		}
		id := openapi.OperationID(op)
		if other, dup := ids[id]; dup {
			t.Errorf("%s and %s share the operation id %s", op.Key(), other, id)
		}
		ids[id] = op.Key()
	}
}

// TestAPIRoutesDoc: docs/api-routes.md is what the calls a production
// server registers make (the test-only routes left out).
// Rewrite it with: go test ./shared/app -run TestAPIRoutesDoc -update
func TestAPIRoutesDoc(t *testing.T) {
	root, err := testproc.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "docs", "api-routes.md")
	want := openapi.Markdown(wiredCalls(t, false))
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("docs/api-routes.md is not what the registered calls make (err %v); rewrite it with:\n\tgo test ./shared/app -run TestAPIRoutesDoc -update", err)
	}
}
