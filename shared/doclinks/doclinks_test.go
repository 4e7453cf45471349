package doclinks

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestRepositoryLinks: every relative link and #anchor in the READMEs and
// under docs/ resolves in this repository.
func TestRepositoryLinks(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(root)
	files := []string{"README.md", "web/README.md", "infra-cdk/README.md", "localstack/README.md", "events/README.md"}
	err = fs.WalkDir(fsys, "docs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	broken, err := Check(fsys, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
}

// TestCheck shows what the check refuses, on a made-up tree.
func TestCheck(t *testing.T) {
	fsys := fstest.MapFS{
		"README.md": {Data: []byte("# Oficina\n\n## The two commands\n\n## Notes\n\n## Notes\n")},
		"docs/api.md": {Data: []byte("# The API\n\n## Pages: `_changes` and `_all_docs`\n\n" +
			"See [a section](#pages-_changes-and-_all_docs).\n")},
		"docs/modules/ticket.md":  {Data: []byte("# Tickets\n")},
		"web/README.md":           {Data: []byte("# Web\n")},
		"shared/config/config.go": {Data: []byte("package config\n")},
		"web/shot.webp":           {Data: []byte("RIFF")},
	}
	for _, tc := range []struct {
		name string
		doc  string
		want []string // "line: target: reason"
	}{
		{"links that resolve", strings.Join([]string{
			"[home](../README.md) [api](api.md#the-api) [same](#a-heading) [dup](../README.md#notes-1)",
			"[module](modules/ticket.md) [folder](../shared/config) [code](../shared/config/config.go#L10)",
			"![shot](../web/shot.webp) [site](https://example.com/x.md#nope) [mail](mailto:a@b.c)",
			"[root](/web/README.md) `[not a link](nowhere.md)`",
			"",
			"| a | b |", "|---|---|", "| [cell](api.md) | x |",
			"",
			"## A heading",
		}, "\n"), nil},
		{"missing file, folder, anchor, outside", strings.Join([]string{
			"[gone](gone.md)",
			"",
			"| a |", "|---|", "| [cell](../web/nothing/) |",
			"",
			"[anchor](api.md#pages) [here](#nowhere) [dup](../README.md#notes-2)",
			"",
			"[out](../../etc/passwd) ![shot](../web/missing.png)",
		}, "\n"), []string{
			"1: gone.md: no such file or folder",
			"5: ../web/nothing/: no such file or folder",
			`7: api.md#pages: docs/api.md has no heading with the id "pages"`,
			`7: #nowhere: docs/guide.md has no heading with the id "nowhere"`,
			`7: ../README.md#notes-2: README.md has no heading with the id "notes-2"`,
			"9: ../../etc/passwd: points outside the repository",
			"9: ../web/missing.png: no such file or folder",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := fstest.MapFS{"docs/guide.md": {Data: []byte(tc.doc)}}
			for k, v := range fsys {
				tree[k] = v
			}
			broken, err := Check(tree, []string{"docs/guide.md"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, b := range broken {
				got = append(got, strings.TrimPrefix(b.String(), "docs/guide.md:"))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"The two commands":                  "the-two-commands",
		"Pages: `_changes` and `_all_docs`": "pages-_changes-and-_all_docs",
		"Drive (rdisk) and WebDAV":          "drive-rdisk-and-webdav",
		"Settings — flags and environment":  "settings--flags-and-environment",
		"Disaster recovery (point-in-time)": "disaster-recovery-point-in-time",
		"Ação à vista":                      "ação-à-vista",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}
