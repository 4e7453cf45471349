// Package htmlsafe turns HTML from outside (feed items, fetched articles,
// wiki pages) into HTML the SPA may insert into its pages: an allow-list
// sanitiser (bluemonday) with no scripts, event handlers, styles, forms,
// frames other than a few video players, or URLs other than http, https and
// mailto; links open in a new tab with rel="noopener noreferrer"; relative
// URLs are resolved against the document's own URL; tracking pixels and
// tracking parameters (utm_*, fbclid, …) are removed. The test corpus of
// XSS payloads (xsstest) is shared with every package that renders HTML.
package htmlsafe

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// policy is built once, on first use (building it takes milliseconds, which
// every Lambda cold start would pay at package init): a bluemonday policy is
// safe for concurrent use.
var policy = sync.OnceValue(newPolicy)

// iframeSrc is the allow-list of embedded players (their pages run their
// own scripts in their own origin, sandboxed). It and the wiki's patterns
// are compiled on first use, as the policy is: their counted repetitions
// make large programs, and every function linking this package would pay
// them at its cold start.
var iframeSrc = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^https://(www\.youtube(-nocookie)?\.com/embed/|player\.vimeo\.com/video/|www\.dailymotion\.com/embed/video/|open\.spotify\.com/embed/|w\.soundcloud\.com/player/|bandcamp\.com/EmbeddedPlayer/)[^\s"'<>]*$`)
})

var blankLines = regexp.MustCompile(`\n\s*\n`)

var httpURL = regexp.MustCompile(`^https?://[^\s"'<>]+$`)

func newPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false) // resolved against the base first; the rest dropped

	// No id or class: item HTML must not clobber the SPA's DOM or borrow
	// its styles.
	p.AllowAttrs("dir").Matching(bluemonday.Direction).Globally()
	p.AllowAttrs("lang").Matching(regexp.MustCompile(`^[a-zA-Z]{2,8}(-[a-zA-Z0-9]{1,8})*$`)).Globally()
	p.AllowAttrs("title").Matching(bluemonday.Paragraph).Globally()

	p.AllowElements(
		"article", "aside", "section", "figure", "figcaption", "details", "summary",
		"h1", "h2", "h3", "h4", "h5", "h6", "hgroup", "blockquote", "address",
		"br", "div", "hr", "p", "span", "wbr", "pre",
		"abbr", "b", "bdi", "cite", "code", "del", "dfn", "em", "i", "ins", "kbd", "mark", "q",
		"rp", "rt", "ruby", "s", "samp", "small", "strong", "sub", "sup", "time", "u", "var",
		"ul", "ol", "li", "dl", "dt", "dd",
		"table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th",
	)
	p.AllowAttrs("open").Matching(regexp.MustCompile(`^(|open)$`)).OnElements("details")
	p.AllowAttrs("cite").OnElements("blockquote", "q", "del", "ins")
	p.AllowAttrs("datetime").Matching(bluemonday.ISO8601).OnElements("time", "del", "ins")
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("reversed").Matching(regexp.MustCompile(`^(|reversed)$`)).OnElements("ol")
	p.AllowAttrs("colspan", "rowspan").Matching(bluemonday.Integer).OnElements("td", "th")
	p.AllowAttrs("span").Matching(bluemonday.Integer).OnElements("col", "colgroup")

	p.AllowAttrs("href").OnElements("a")
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true) // with rel="noopener"

	p.AllowAttrs("src").OnElements("img")
	p.AllowAttrs("alt").Matching(bluemonday.Paragraph).OnElements("img")
	p.AllowAttrs("width", "height").Matching(bluemonday.NumberOrPercent).OnElements("img", "iframe", "video", "table", "td", "th")
	p.AllowAttrs("loading").Matching(regexp.MustCompile(`^lazy$`)).OnElements("img", "iframe")

	p.AllowAttrs("src").OnElements("video", "audio")
	p.AllowAttrs("poster").Matching(httpURL).OnElements("video")
	p.AllowAttrs("controls").Matching(regexp.MustCompile(`^(|controls)$`)).OnElements("video", "audio")

	p.AllowAttrs("src").Matching(iframeSrc()).OnElements("iframe")
	p.AllowAttrs("sandbox").OnElements("iframe") // its tokens filtered below
	p.AllowAttrs("allowfullscreen").Matching(regexp.MustCompile(`^(|allowfullscreen|true)$`)).OnElements("iframe")
	p.RequireSandboxOnIFrame(bluemonday.SandboxAllowScripts, bluemonday.SandboxAllowSameOrigin,
		bluemonday.SandboxAllowPopups, bluemonday.SandboxAllowPresentation)
	return p
}

// Sanitize returns doc made safe to insert as HTML. base is the document's
// own URL: relative links and images are resolved against it (without a
// base they are dropped).
func Sanitize(doc string, base *url.URL) string {
	return policy().Sanitize(prepare(doc, base))
}

// SanitizeText escapes plain text as HTML paragraphs (blank lines separate
// paragraphs, single line breaks become <br>).
func SanitizeText(text string) string {
	var b strings.Builder
	for _, para := range blankLines.Split(strings.ReplaceAll(text, "\r\n", "\n"), -1) {
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		b.WriteString("<p>")
		b.WriteString(strings.ReplaceAll(html.EscapeString(para), "\n", "<br>"))
		b.WriteString("</p>")
	}
	return b.String()
}

// Text returns the visible text of doc: tags dropped, entities decoded,
// white space collapsed, at most max runes (0: no limit) cut at a word.
func Text(doc string, max int) string {
	nodes, err := html.ParseFragment(strings.NewReader(doc), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return ""
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Iframe, atom.Object:
				return
			}
			if blockElement(n.DataAtom) {
				b.WriteByte(' ')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode && blockElement(n.DataAtom) {
			b.WriteByte(' ')
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return Truncate(strings.Join(strings.Fields(b.String()), " "), max)
}

// blockElement reports elements whose text is apart from the next one's
// (inline elements such as links run on: "a <a>link</a>." reads "a link.").
func blockElement(a atom.Atom) bool {
	switch a {
	case atom.Br, atom.P, atom.Div, atom.Li, atom.Ul, atom.Ol, atom.Tr, atom.Td, atom.Th, atom.Table,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Blockquote, atom.Pre, atom.Hr,
		atom.Section, atom.Article, atom.Header, atom.Footer, atom.Figure, atom.Figcaption, atom.Dt, atom.Dd, atom.Img:
		return true
	}
	return false
}

// Truncate cuts s to at most max runes, at a word boundary when one is near,
// adding "…" (max 0: s unchanged).
func Truncate(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	runes := []rune(s)[:max-1]
	cut := len(runes)
	for i := len(runes) - 1; i > len(runes)*3/4; i-- {
		if unicode.IsSpace(runes[i]) {
			cut = i
			break
		}
	}
	return strings.TrimRightFunc(string(runes[:cut]), unicode.IsSpace) + "…"
}

// ---- preparation (before the sanitiser) -------------------------------------

// prepare resolves relative URLs against base, removes tracking pixels,
// iframes that are not on the allow-list and tracking parameters, and lazy-
// loads images. The sanitiser runs after it on its output, so nothing here
// is trusted to make the HTML safe.
func prepare(doc string, base *url.URL) string {
	nodes, err := html.ParseFragment(strings.NewReader(doc), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return html.EscapeString(doc)
	}
	var b strings.Builder
	for _, n := range nodes {
		if !keep(n, base) {
			continue
		}
		if err := html.Render(&b, n); err != nil {
			return html.EscapeString(doc)
		}
	}
	return b.String()
}

// keep prepares n and its subtree; false drops n.
func keep(n *html.Node, base *url.URL) bool {
	if n.Type == html.ElementNode {
		switch n.DataAtom {
		case atom.Img:
			if isTrackingPixel(n, base) {
				return false
			}
			setAttr(n, "loading", "lazy")
		case atom.Iframe:
			src := resolve(attr(n, "src"), base)
			if !iframeSrc().MatchString(src) {
				return false
			}
			setAttr(n, "loading", "lazy")
			// The sanitiser keeps the allowed tokens of the attribute.
			setAttr(n, "sandbox", "allow-scripts allow-same-origin allow-popups allow-presentation")
		}
		for i, a := range n.Attr {
			switch a.Key {
			case "href", "src", "cite", "poster":
				n.Attr[i].Val = StripTracking(resolve(a.Val, base))
			}
		}
	}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if !keep(c, base) {
			n.RemoveChild(c)
		}
		c = next
	}
	return true
}

// trackerHosts serve the invisible images of feed statistics.
var trackerHosts = []string{
	"feeds.feedburner.com/~r/", "feedproxy.google.com/~r/", "pixel.wp.com/", "stats.wordpress.com/",
	"www.google-analytics.com/", "google-analytics.com/", "feedads.g.doubleclick.net/", "pixel.quantserve.com/",
	"www.facebook.com/tr", "analytics.twitter.com/", "pixel.mathtag.com/", "ad.doubleclick.net/",
	"feeds.wordpress.com/1.0/", "sb.scorecardresearch.com/", "pixel.newscred.com/",
}

func isTrackingPixel(n *html.Node, base *url.URL) bool {
	w, hasW := dimension(attr(n, "width"))
	h, hasH := dimension(attr(n, "height"))
	if hasW && hasH && w <= 1 && h <= 1 {
		return true
	}
	src := resolve(attr(n, "src"), base)
	rest := strings.TrimPrefix(strings.TrimPrefix(src, "https://"), "http://")
	for _, t := range trackerHosts {
		if strings.HasPrefix(rest, t) {
			return true
		}
	}
	return false
}

func dimension(s string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(s), "px"))
	return n, err == nil
}

// trackingParams are query parameters that identify a campaign or a
// click, never the resource.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "dclid": true, "gbraid": true, "wbraid": true, "msclkid": true, "yclid": true,
	"mc_cid": true, "mc_eid": true, "_hsenc": true, "_hsmi": true, "igshid": true, "twclid": true, "mkt_tok": true,
	"oly_anon_id": true, "oly_enc_id": true, "vero_id": true, "wickedid": true, "rb_clickid": true, "s_cid": true,
}

// StripTracking removes utm_* and click-identifier parameters from an
// absolute http(s) URL; anything else comes back unchanged.
func StripTracking(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery == "" {
		return raw
	}
	q := u.Query()
	changed := false
	for k := range q {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "utm_") || trackingParams[lk] {
			q.Del(k)
			changed = true
		}
	}
	if !changed {
		return raw
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// resolve makes raw absolute against base (unchanged without a base or
// when it does not parse; the sanitiser decides what survives).
func resolve(raw string, base *url.URL) string {
	raw = strings.TrimSpace(raw)
	if base == nil || raw == "" {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return base.ResolveReference(u).String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func setAttr(n *html.Node, key, val string) {
	for i, a := range n.Attr {
		if a.Key == key {
			n.Attr[i].Val = val
			return
		}
	}
	n.Attr = append(n.Attr, html.Attribute{Key: key, Val: val})
}
