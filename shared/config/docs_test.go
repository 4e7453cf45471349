package config

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// settingsHeading opens the flags table in docs/operating.md.
const settingsHeading = "## Settings: flags and environment"

// TestFlagsTableInOperatingDocs: every flag of Load and its OFICINA_*
// variable have a row in the settings table of docs/operating.md, and the
// table names no flag that does not exist.
func TestFlagsTableInOperatingDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "operating.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := settingsRows(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	flags := declaredFlags(t)
	for _, problem := range tableProblems(flags, rows) {
		t.Errorf("docs/operating.md, %q: %s", settingsHeading, problem)
	}

	// Every variable Load reads is a flag's (none is read on its own).
	asked := map[string]bool{}
	if _, err := Load(nil, func(name string) string { asked[name] = true; return "" }, Local); err != nil {
		t.Fatal(err)
	}
	for name := range asked {
		if !slices.ContainsFunc(flags, func(f flagDoc) bool { return f.Env == name }) {
			t.Errorf("Load reads %s, which belongs to no flag", name)
		}
	}
}

// TestTableProblems shows what the check refuses.
func TestTableProblems(t *testing.T) {
	flags := []flagDoc{{"addr", "OFICINA_ADDR"}, {"data", "OFICINA_DATA"}, {"web", "OFICINA_WEB"}}
	doc := strings.Join([]string{
		"# Operating", "", settingsHeading, "",
		"| flag | environment | default | meaning |", "|---|---|---|---|",
		"| `--addr` | `OFICINA_ADDR` | x | y |",
		"| `--data` | `OFICINA_DATADIR` | x | y |",
		"| `--gone` | `OFICINA_GONE` | x | y |",
		"", "| `--web` | `OFICINA_WEB` | a row of another table |",
	}, "\n")
	rows, err := settingsRows(doc)
	if err != nil {
		t.Fatal(err)
	}
	got := tableProblems(flags, rows)
	want := []string{
		"no row names --data with OFICINA_DATA",
		"no row names --web with OFICINA_WEB",
		"--gone is in the table but is not a flag",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := settingsRows("# Operating\n"); err == nil {
		t.Error("a document without the heading passed")
	}
}

type flagDoc struct{ Flag, Env string }

type settingsRow struct{ Flags, Envs []string }

var (
	flagInCell = regexp.MustCompile("`--([a-z0-9-]+)`")
	envInCell  = regexp.MustCompile("`(OFICINA_[A-Z0-9_]+)`")
)

// settingsRows reads the table that follows the settings heading.
func settingsRows(doc string) ([]settingsRow, error) {
	_, after, ok := strings.Cut(doc, "\n"+settingsHeading+"\n")
	if !ok {
		return nil, os.ErrNotExist
	}
	var rows []settingsRow
	inTable := false
	for _, line := range strings.Split(after, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			continue
		}
		var row settingsRow
		for _, m := range flagInCell.FindAllStringSubmatch(cells[1], -1) {
			row.Flags = append(row.Flags, m[1])
		}
		for _, m := range envInCell.FindAllStringSubmatch(cells[2], -1) {
			row.Envs = append(row.Envs, m[1])
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func tableProblems(flags []flagDoc, rows []settingsRow) []string {
	var problems []string
	for _, f := range flags {
		if !slices.ContainsFunc(rows, func(r settingsRow) bool {
			return slices.Contains(r.Flags, f.Flag) && slices.Contains(r.Envs, f.Env)
		}) {
			problems = append(problems, "no row names --"+f.Flag+" with "+f.Env)
		}
	}
	for _, r := range rows {
		for _, name := range r.Flags {
			if !slices.ContainsFunc(flags, func(f flagDoc) bool { return f.Flag == name }) {
				problems = append(problems, "--"+name+" is in the table but is not a flag")
			}
		}
	}
	return problems
}

// declaredFlags reads config.go for the flags Load declares:
// fs.XxxVar(&v, "name", env("OFICINA_NAME", default), usage).
func declaredFlags(t *testing.T) []flagDoc {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "config.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var flags []flagDoc
	ast.Inspect(file, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) < 3 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !strings.HasSuffix(sel.Sel.Name, "Var") {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "fs" {
			return true
		}
		name := stringLit(t, call.Args[1])
		envCall, ok := call.Args[2].(*ast.CallExpr)
		if !ok || len(envCall.Args) == 0 {
			t.Fatalf("flag --%s: its default is not env(\"OFICINA_…\", …)", name)
		}
		flags = append(flags, flagDoc{name, stringLit(t, envCall.Args[0])})
		return true
	})
	if len(flags) < 40 {
		t.Fatalf("found %d flags in config.go; the parser above no longer matches Load", len(flags))
	}
	return flags
}

func stringLit(t *testing.T, e ast.Expr) string {
	t.Helper()
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		t.Fatalf("expected a string literal, got %T", e)
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
