package app_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layers is where every package under shared/ and functions/ stands, from
// the bottom up. A package imports packages of lower layers, and of its own
// layer only where the layer says Peers (or within its own area: a package
// and its sub-packages). A new package goes into this table.
var layers = []layer{
	{"base: errors, ids, settings, plain helpers", true, []string{
		"shared/fault", "shared/ids", "shared/config", "shared/testproc", "shared/fetchguard",
		"shared/htmlsafe", "shared/htmlsafe/xsstest", "shared/httpjson", "shared/httpload", "shared/httpload/internal/bare", "shared/mango", "shared/phones", "shared/phones/internal/gen", "shared/phonerules", "shared/spa",
		"shared/budget", "shared/capacity", "shared/store/bodyzip", "shared/doclinks"}},
	{"ports and adapters, with their test doubles", true, []string{
		"shared/store", "shared/store/bolt", "shared/store/dynamo", "shared/store/dynamo/ddblocal", "shared/store/storetest",
		"shared/blob", "shared/blob/blobtest", "shared/mail", "shared/mail/ses"}},
	{"the write path and the module seam", true, []string{
		"shared/access", "shared/ratelimit", "shared/docs", "shared/schema",
		"shared/stream", "shared/stream/streamtest", "shared/module", "shared/schedule", "shared/schedule/sqsqueue", "shared/openapi"}},
	{"services other modules build on", true, []string{
		"shared/auth", "shared/accounts", "shared/plans", "shared/drive"}},
	{"modules and the HTTP API, which know each other only through the seam", false, []string{
		"shared/httpapi", "shared/ticket", "shared/servicedocs", "shared/finance", "shared/reader",
		"shared/wiki", "shared/wiki/highlight", "shared/links", "shared/billing", "shared/specfields", "shared/limits", "shared/backup", "shared/dav"}},
	{"live updates, which reuse the API's access decisions", true, []string{"shared/live"}},
	{"test helpers of modules", true, []string{"shared/billing/billingtest"}},
	{"wiring", true, []string{"shared/app", "shared/app/core", "shared/app/parts", "shared/app/davparts", "shared/app/liveapi", "shared/app/adapters", "shared/app/runenv", "shared/app/standalone"}},
	{"the whole product in a test", true, []string{"shared/apptest"}},
	{"the functions' cold-start harness (tests and benchmarks only)", true, []string{
		"functions/internal/runtimeapi", "functions/internal/coldstart"}},
	{"deployables", false, []string{
		"functions/api", "functions/local",
		"functions/schedule", "functions/stream", "functions/webdav", "functions/worker", "functions/live"}},
}

type layer struct {
	Name     string
	Peers    bool // may import other packages of the same layer
	Packages []string
}

const modulePath = "github.com/oficina/oficina/"

// TestNoImportRunsUpward checks every import (test files aside) of every
// package under shared/ and functions/ against the layer table.
func TestNoImportRunsUpward(t *testing.T) {
	pkgs := listPackages(t, modulePath+"shared/...", modulePath+"functions/...")
	for _, v := range layerViolations(layers, pkgs) {
		t.Error(v)
	}
}

// TestLayerViolations shows what the check refuses, on a made-up tree.
func TestLayerViolations(t *testing.T) {
	table := []layer{
		{"low", true, []string{"shared/store", "shared/fault"}},
		{"modules", false, []string{"shared/ticket", "shared/wiki", "shared/wiki/wikitest"}},
		{"top", true, []string{"shared/app", "shared/gone"}},
	}
	for _, tc := range []struct {
		name string
		pkgs []listedPackage
		want []string
	}{
		{"down and within a layer with peers", []listedPackage{
			{"shared/store", []string{"shared/fault"}}, {"shared/ticket", []string{"shared/store"}},
			{"shared/app", []string{"shared/ticket"}}, {"shared/fault", nil}, {"shared/wiki", nil},
			{"shared/wiki/wikitest", []string{"shared/wiki"}}, {"shared/gone", nil},
		}, nil},
		{"up, across a layer without peers, unlisted, stale", []listedPackage{
			{"shared/store", []string{"shared/ticket"}}, {"shared/ticket", []string{"shared/wiki"}},
			{"shared/new", nil}, {"shared/fault", nil}, {"shared/wiki", nil}, {"shared/wiki/wikitest", nil}, {"shared/app", nil},
		}, []string{
			"shared/store (low) imports shared/ticket, which stands above it (modules)",
			"shared/ticket imports shared/wiki on its own layer (modules), whose packages meet only through the seam",
			"shared/new stands on no layer: add it to the layer table in shared/app/layers_test.go",
			"layer table: shared/gone names no package",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := layerViolations(table, tc.pkgs); !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// layerViolations lists every import of pkgs that the layer table forbids,
// every package the table does not place and every entry naming none.
func layerViolations(table []layer, pkgs []listedPackage) []string {
	var out []string
	level := map[string]int{}
	for i, l := range table {
		for _, p := range l.Packages {
			if _, dup := level[p]; dup {
				out = append(out, "layer table: "+p+" is listed twice")
			}
			level[p] = i
		}
	}
	seen := map[string]bool{}
	for _, pkg := range pkgs {
		seen[pkg.path] = true
		from, ok := level[pkg.path]
		if !ok {
			out = append(out, pkg.path+" stands on no layer: add it to the layer table in shared/app/layers_test.go")
			continue
		}
		for _, imp := range pkg.imports {
			to, ok := level[imp]
			switch {
			case !ok:
				continue // reported as a package of its own
			case to > from:
				out = append(out, fmt.Sprintf("%s (%s) imports %s, which stands above it (%s)", pkg.path, table[from].Name, imp, table[to].Name))
			case to == from && !table[from].Peers && !sameArea(pkg.path, imp):
				out = append(out, fmt.Sprintf("%s imports %s on its own layer (%s), whose packages meet only through the seam", pkg.path, imp, table[from].Name))
			}
		}
	}
	for _, l := range table {
		for _, p := range l.Packages {
			if !seen[p] {
				out = append(out, "layer table: "+p+" names no package")
			}
		}
	}
	return out
}

// sameArea reports whether a and b are one package and its sub-package.
func sameArea(a, b string) bool {
	return strings.HasPrefix(a, b+"/") || strings.HasPrefix(b, a+"/")
}

type listedPackage struct {
	path    string   // relative to the module: "shared/ticket"
	imports []string // the module's own packages it imports, likewise
}

// listPackages asks the go command (on PATH under go test) for the
// packages matching patterns and their non-test imports within the module.
func listPackages(t *testing.T, patterns ...string) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Imports"}, patterns...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		lp := listedPackage{path: strings.TrimPrefix(p.ImportPath, modulePath)}
		for _, imp := range p.Imports {
			if rel, ok := strings.CutPrefix(imp, modulePath); ok {
				lp.imports = append(lp.imports, rel)
			}
		}
		pkgs = append(pkgs, lp)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}
