// Package highlight colours code blocks of wiki pages with chroma, as
// classes ("wk-" prefixed, styled by the SPA or by GET …/_wiki/highlight.css),
// never inline styles. It is apart from shared/wiki so that what writes
// pages without rendering them (the stream function's reactions) does not
// link chroma and its lexers (issue 23.4); the API wires it in
// (wiki.Module.WithHighlighter).
package highlight

import (
	"bytes"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Chroma is the highlighter (wiki.Highlighter).
type Chroma struct{}

var formatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.ClassPrefix("wk-"), chromahtml.TabWidth(4))

// Code returns code in lang as highlighted HTML, or false when lang is
// unknown or the code does not lex.
func (Chroma) Code(lang, code string) (string, bool) {
	lexer := lexers.Get(lang)
	if lexer == nil {
		return "", false
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return "", false
	}
	var out bytes.Buffer
	if err := formatter.Format(&out, styles.Get("github"), it); err != nil {
		return "", false
	}
	return out.String(), true
}

// CSS is the stylesheet of the highlighting classes in a chroma style
// ("github" when unknown).
func (Chroma) CSS(style string) string {
	var b bytes.Buffer
	_ = formatter.WriteCSS(&b, styles.Get(style))
	return b.String()
}
