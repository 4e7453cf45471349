// Package highlight colours code blocks of wiki pages with chroma, as
// classes ("wk-" prefixed, styled by the SPA or by GET …/_wiki/highlight.css),
// never inline styles. It is apart from shared/wiki so that what writes
// pages without rendering them (the stream function's reactions) does not
// link chroma and its lexers (issue 23.4); the API wires it in
// (wiki.Module.WithHighlighter).
//
// The styles are the two the SPA's themes ask for, embedded here (copied
// from chroma's, MIT licence) rather than from chroma's styles package,
// which parses all of its 74 styles at start: 5.8 ms of the api's cold
// start for two.
//
// The lexers likewise: the languages a shop's wiki may hold (shells and
// Windows scripts, the registry, config files, SQL, the web's and the
// common programming languages; lexers/*.xml, copied from chroma
// v2.27.0's lexers/embedded, and Go's from its lexers/go.go), registered
// on first use, rather than chroma's lexers package, which registers all
// of its 290 at start: 6.5 ms of the api's cold start (issue 23.4). A
// block in another language is shown plain, as an unknown one always
// was. TestLexersMatchChroma checks each against chroma's own.
package highlight

import (
	"bytes"
	"embed"
	"io/fs"
	"sync"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
)

// Chroma is the highlighter (wiki.Highlighter).
type Chroma struct{}

var formatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.ClassPrefix("wk-"), chromahtml.TabWidth(4))

//go:embed styles/*.xml
var styleFiles embed.FS

// defaultStyle is the light theme's, and the one whose entries decide
// which token types get a class.
const defaultStyle = "github"

// styles are parsed on first use.
var styles = sync.OnceValue(func() map[string]*chroma.Style {
	out := map[string]*chroma.Style{}
	for _, name := range []string{"github", "github-dark"} {
		f, err := styleFiles.Open("styles/" + name + ".xml")
		if err != nil {
			panic(err) // embedded: cannot be missing
		}
		out[name] = chroma.MustNewXMLStyle(f)
		_ = f.Close()
	}
	return out
})

//go:embed lexers/*.xml
var lexerFiles embed.FS

// registry holds the lexers, registered on first use.
var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	paths, err := fs.Glob(lexerFiles, "lexers/*.xml")
	if err != nil {
		panic(err) // a constant, valid pattern
	}
	for _, path := range paths {
		reg.Register(chroma.MustNewXMLLexer(lexerFiles, path))
	}
	reg.Register(goLexer(reg))
	return reg
})

func style(name string) *chroma.Style {
	if s, ok := styles()[name]; ok {
		return s
	}
	return styles()[defaultStyle]
}

// Code returns code in lang as highlighted HTML, or false when lang is
// unknown or the code does not lex.
func (Chroma) Code(lang, code string) (string, bool) {
	lexer := registry().Get(lang)
	if lexer == nil {
		return "", false
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return "", false
	}
	var out bytes.Buffer
	if err := formatter.Format(&out, style(defaultStyle), it); err != nil {
		return "", false
	}
	return out.String(), true
}

// CSS is the stylesheet of the highlighting classes in a style: github or
// github-dark ("github" when unknown).
func (Chroma) CSS(name string) string {
	var b bytes.Buffer
	_ = formatter.WriteCSS(&b, style(name))
	return b.String()
}
