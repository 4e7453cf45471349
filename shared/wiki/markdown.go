package wiki

import (
	"bufio"
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
	"golang.org/x/net/html"

	"github.com/oficina/oficina/shared/htmlsafe"
)

// Limits of the Markdown path.
const (
	// maxLinkText bounds what may stand between [[ and ]].
	maxLinkText = 250
	// maxHighlight bounds a code block that gets highlighted (bigger ones
	// are shown plain: the lexers are regular expressions).
	maxHighlight = 16 << 10
	// maxHighlightTotal bounds the highlighted bytes of one page.
	maxHighlightTotal = 128 << 10
)

// ---- [[Title]] and [[Title|label]] ------------------------------------------

// KindWikiLink is the AST kind of a [[Title]] link.
var KindWikiLink = ast.NewNodeKind("WikiLink")

// WikiLink is [[Target]] or [[Target|Label]]; Href and Wanted are set by
// the resolver before rendering.
type WikiLink struct {
	ast.BaseInline
	Target string
	Label  string
	Href   string
	Wanted bool
}

// Kind implements ast.Node.
func (n *WikiLink) Kind() ast.NodeKind { return KindWikiLink }

// Dump implements ast.Node.
func (n *WikiLink) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Target": n.Target, "Label": n.Label}, nil)
}

type wikiLinkParser struct{}

func (wikiLinkParser) Trigger() []byte { return []byte{'['} }

func (wikiLinkParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if len(line) < 5 || line[0] != '[' || line[1] != '[' {
		return nil
	}
	end := bytes.Index(line[2:], []byte("]]"))
	if end <= 0 || end > maxLinkText {
		return nil
	}
	inner := line[2 : 2+end]
	if bytes.ContainsAny(inner, "[]\n\r") {
		return nil
	}
	target, label, _ := bytes.Cut(inner, []byte("|"))
	t := strings.Join(strings.Fields(string(target)), " ")
	if t == "" {
		return nil
	}
	block.Advance(2 + end + 2)
	return &WikiLink{Target: t, Label: strings.TrimSpace(string(label))}
}

type wikiLinkRenderer struct{}

func (wikiLinkRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindWikiLink, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*WikiLink)
		label := n.Label
		if label == "" {
			label = n.Target
		}
		class := "wk-link"
		if n.Wanted {
			class = "wk-link wk-wanted"
		}
		if n.Href == "" {
			_, _ = w.WriteString(`<span class="` + class + `">` + html.EscapeString(label) + `</span>`)
			return ast.WalkSkipChildren, nil
		}
		_, _ = w.WriteString(`<a href="` + html.EscapeString(n.Href) + `" class="` + class + `">` + html.EscapeString(label) + `</a>`)
		return ast.WalkSkipChildren, nil
	})
}

// ---- code blocks ------------------------------------------------------------

// codeRenderer highlights fenced code blocks with the module's
// Highlighter (shared/wiki/highlight in the API), or writes them plain.
type codeRenderer struct{}

// Highlighter colours code blocks (shared/wiki/highlight.Chroma).
type Highlighter interface {
	// Code returns code in lang as HTML, false when it cannot.
	Code(lang, code string) (string, bool)
	// CSS is the stylesheet of a style's classes.
	CSS(style string) string
}

// totalKey counts the highlighted bytes of one render.
var totalKey = parser.NewContextKey()

func (codeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, func(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*ast.FencedCodeBlock)
		var code bytes.Buffer
		for i := 0; i < n.Lines().Len(); i++ {
			seg := n.Lines().At(i)
			code.Write(seg.Value(src))
		}
		lang := ""
		if n.Info != nil {
			lang, _, _ = strings.Cut(strings.TrimSpace(string(n.Info.Segment.Value(src))), " ")
		}
		if renderHighlighted(w, lang, code.String()) {
			return ast.WalkSkipChildren, nil
		}
		_, _ = w.WriteString("<pre><code>")
		_, _ = w.WriteString(html.EscapeString(code.String()))
		_, _ = w.WriteString("</code></pre>\n")
		return ast.WalkSkipChildren, nil
	})
}

// highlightBudget is the per-render budget and highlighter (renders run
// one per goroutine, so they travel in the writer).
type budgetWriter struct {
	util.BufWriter
	left int
	hl   Highlighter
}

func renderHighlighted(w util.BufWriter, lang, code string) bool {
	bw, ok := w.(*budgetWriter)
	if lang == "" || len(code) > maxHighlight || !ok || bw.hl == nil || bw.left < len(code) {
		return false
	}
	out, ok := bw.hl.Code(lang, code)
	if !ok {
		return false
	}
	bw.left -= len(code)
	_, _ = w.WriteString(out)
	return true
}

// ---- the Markdown instance --------------------------------------------------

var md = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify, extension.TaskList),
	goldmark.WithParserOptions(
		parser.WithInlineParsers(util.Prioritized(wikiLinkParser{}, 199)),
	),
	goldmark.WithRendererOptions(
		gmhtml.WithUnsafe(), // raw HTML is allowed in pages; the sanitiser decides what stays
		renderer.WithNodeRenderers(
			util.Prioritized(wikiLinkRenderer{}, 100),
			util.Prioritized(codeRenderer{}, 100),
			util.Prioritized(extension.NewTableHTMLRenderer(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)), 100),
		),
	),
)

// ---- links in a page --------------------------------------------------------

// pageLinks is what a page's content links to: [[titles]] as written (in
// order, repeats kept once by normalised title) and handbook ids named by
// URL.
type pageLinks struct {
	Titles []string
	IDs    []string
}

var handbookID = regexp.MustCompile(`^han-[0-9a-f]{32}$`)

// linker knows which URLs name a handbook of the page's Group.
type linker struct {
	db       string
	baseHost string      // the product's host: absolute URLs to it count too
	hl       Highlighter // nil: code blocks are not coloured
}

// handbookOf returns the handbook id a link destination names: a relative
// "handbooks/{id}" (also "./" or "../"), "/account/{db}/handbooks/{id}"
// of this Group, or the same on the product's own host.
func (l linker) handbookOf(dest string) string {
	u, err := url.Parse(strings.TrimSpace(dest))
	if err != nil || u.Opaque != "" {
		return ""
	}
	if u.Scheme != "" || u.Host != "" {
		if (u.Scheme != "http" && u.Scheme != "https") || l.baseHost == "" || !strings.EqualFold(u.Host, l.baseHost) {
			return ""
		}
	}
	p := u.Path
	if strings.HasPrefix(p, "/") {
		parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
		if len(parts) == 4 && parts[0] == "account" && parts[1] == l.db && parts[2] == "handbooks" && handbookID.MatchString(parts[3]) {
			return parts[3]
		}
		return ""
	}
	if u.Scheme != "" || u.Host != "" {
		return ""
	}
	p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "../")
	if id, ok := strings.CutPrefix(p, "handbooks/"); ok && handbookID.MatchString(id) {
		return id
	}
	return ""
}

// pagePath is the SPA's address of a handbook of db.
func pagePath(db, id string) string { return "/account/" + db + "/handbooks/" + id }

// wantedPath is the SPA's "new page" form with the title filled in.
func wantedPath(db, title string) string {
	return "/account/" + db + "/handbooks/new?title=" + url.QueryEscape(title)
}

// extract reads the links of a page's content.
func (l linker) extract(content, contentType string) pageLinks {
	var out pageLinks
	seenT, seenID := map[string]bool{}, map[string]bool{}
	addT := func(t string) {
		if n := normTitle(t); n != "" && !seenT[n] {
			seenT[n] = true
			out.Titles = append(out.Titles, t)
		}
	}
	addID := func(id string) {
		if id != "" && !seenID[id] {
			seenID[id] = true
			out.IDs = append(out.IDs, id)
		}
	}
	switch contentType {
	case "text":
		return out
	case "html":
		z := html.NewTokenizer(strings.NewReader(content))
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				return out
			}
			if tt != html.StartTagToken {
				continue
			}
			tok := z.Token()
			if tok.Data != "a" {
				continue
			}
			for _, a := range tok.Attr {
				if a.Key == "href" {
					addID(l.handbookOf(a.Val))
				}
			}
		}
	}
	src := []byte(content)
	doc := md.Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *WikiLink:
			addT(n.Target)
		case *ast.Link:
			addID(l.handbookOf(string(n.Destination)))
		case *ast.AutoLink:
			addID(l.handbookOf(string(n.URL(src))))
		}
		return ast.WalkContinue, nil
	})
	return out
}

// resolver tells the renderer where [[titles]] and handbook ids lead.
type resolver struct {
	// title returns the id of the page a [[title]] names ("" = wanted).
	title func(title string) string
	// live reports whether a handbook id names a live page of the Group.
	live func(id string) bool
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render turns a page's content into sanitised HTML: Markdown (GFM tables,
// task lists, strikethrough, autolinks, highlighted code), [[links]] to
// their pages or "wanted" links, handbook URLs to the SPA's page address;
// html content is sanitised as it is, text escaped.
func (l linker) render(content, contentType string, res resolver) string {
	switch contentType {
	case "text":
		return htmlsafe.SanitizeText(content)
	case "html":
		return htmlsafe.WikiSanitize(content, l.db)
	}
	src := []byte(content)
	doc := md.Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *WikiLink:
			if id := res.title(n.Target); id != "" {
				n.Href = pagePath(l.db, id)
			} else {
				n.Href, n.Wanted = wantedPath(l.db, n.Target), true
			}
		case *ast.Link:
			if id := l.handbookOf(string(n.Destination)); id != "" {
				u, _ := url.Parse(string(n.Destination))
				dest := pagePath(l.db, id)
				if u != nil && u.Fragment != "" {
					dest += "#" + url.PathEscape(u.Fragment)
				}
				n.Destination = []byte(dest)
				if res.live(id) {
					n.SetAttributeString("class", []byte("wk-link"))
				} else {
					n.SetAttributeString("class", []byte("wk-link wk-wanted"))
				}
			}
		}
		return ast.WalkContinue, nil
	})
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	bw := &budgetWriter{BufWriter: bufio.NewWriter(buf), left: maxHighlightTotal, hl: l.hl}
	if err := md.Renderer().Render(bw, src, doc); err != nil {
		return htmlsafe.SanitizeText(content)
	}
	_ = bw.Flush()
	return htmlsafe.WikiSanitize(buf.String(), l.db)
}
