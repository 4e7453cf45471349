// Package doclinks checks the repository's Markdown: every relative link or
// image must name a file or folder that exists, and every #anchor a heading
// of the Markdown file it points into, by GitHub's heading ids. Links to
// other sites are not followed (tests run without the network).
package doclinks

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// Broken is a link that does not resolve.
type Broken struct {
	File   string // the Markdown file, relative to the root
	Line   int    // the line of the paragraph, table or item holding the link
	Target string // the link as written
	Reason string
}

func (b Broken) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", b.File, b.Line, b.Target, b.Reason)
}

// markdown parses as GitHub does for what matters here: GFM tables hold links.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// Check reads the Markdown files (paths relative to the root of fsys) and
// returns every link among them that does not resolve.
func Check(fsys fs.FS, files []string) ([]Broken, error) {
	anchors := map[string]map[string]bool{} // Markdown file → its heading ids, read once
	anchorsOf := func(file string) (map[string]bool, error) {
		if a, ok := anchors[file]; ok {
			return a, nil
		}
		src, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, err
		}
		a := headingIDs(markdown.Parser().Parse(text.NewReader(src)), src)
		anchors[file] = a
		return a, nil
	}
	var broken []Broken
	for _, file := range files {
		src, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, fmt.Errorf("doclinks: %w", err)
		}
		doc := markdown.Parser().Parse(text.NewReader(src))
		err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			var dest string
			switch l := n.(type) {
			case *ast.Link:
				dest = string(l.Destination)
			case *ast.Image:
				dest = string(l.Destination)
			default:
				return ast.WalkContinue, nil
			}
			reason, err := resolve(fsys, file, dest, anchorsOf)
			if err != nil {
				return ast.WalkStop, err
			}
			if reason != "" {
				broken = append(broken, Broken{File: file, Line: lineOf(n, src), Target: dest, Reason: reason})
			}
			return ast.WalkContinue, nil
		})
		if err != nil {
			return nil, fmt.Errorf("doclinks: %s: %w", file, err)
		}
	}
	return broken, nil
}

// resolve says why dest, written in file, does not resolve ("" when it does).
func resolve(fsys fs.FS, file, dest string, anchorsOf func(string) (map[string]bool, error)) (string, error) {
	u, err := url.Parse(dest)
	if err != nil {
		return "not a URL: " + err.Error(), nil
	}
	if u.Scheme != "" || u.Host != "" {
		return "", nil // another site, or mailto:
	}
	target := file
	if u.Path != "" {
		if strings.HasPrefix(u.Path, "/") {
			target = path.Clean(strings.TrimPrefix(u.Path, "/")) // from the repository's root, as GitHub reads it
		} else {
			target = path.Join(path.Dir(file), u.Path)
		}
		if target == ".." || strings.HasPrefix(target, "../") {
			return "points outside the repository", nil
		}
		if _, err := fs.Stat(fsys, target); err != nil {
			return "no such file or folder", nil
		}
	}
	if u.Fragment == "" || !strings.HasSuffix(target, ".md") {
		return "", nil
	}
	ids, err := anchorsOf(target)
	if err != nil {
		return "", err
	}
	if !ids[u.Fragment] {
		return fmt.Sprintf("%s has no heading with the id %q", target, u.Fragment), nil
	}
	return "", nil
}

// headingIDs are the ids GitHub gives a file's headings: the text in lower
// case, without punctuation, spaces as hyphens; a repeated id gets -1, -2….
func headingIDs(doc ast.Node, src []byte) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		id := Slug(plainText(h, src))
		if k := seen[id]; k > 0 {
			seen[id]++
			id = fmt.Sprintf("%s-%d", id, k)
		} else {
			seen[id] = 1
		}
		ids[id] = true
		return ast.WalkSkipChildren, nil
	})
	return ids
}

// Slug is GitHub's heading id of a heading's text.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plainText is a node's text without its markup (code spans keep their text).
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// lineOf is the line of n's first text, else where the block holding it
// starts (inline nodes carry no position of their own).
func lineOf(n ast.Node, src []byte) int {
	offset := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); entering && ok {
			offset = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	for p := n; offset < 0 && p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			offset = p.Lines().At(0).Start
		}
	}
	if offset < 0 {
		return 0
	}
	return 1 + bytes.Count(src[:offset], []byte("\n"))
}
