package htmlsafe

import (
	"regexp"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The wiki's renderer (shared/wiki) produces HTML from a page's Markdown
// and the page author's raw HTML; it comes through WikiSanitize, which is
// the outside-HTML policy above plus only what rendered Markdown needs:
//
//   - class attributes whose every token starts with "wk-" (code
//     highlighting classes and the wiki-link marks; the SPA styles only
//     these, so page HTML cannot borrow the app's own classes);
//   - task-list checkboxes: <input type="checkbox" disabled> (checked or
//     not), always disabled whatever the source said;
//   - align on table cells;
//   - two shapes of same-site relative URL, both naming the page's own
//     Group: links to its handbooks (/account/{db}/handbooks/{id}, or the
//     "new page" form with a title) and images from its drive
//     (/api/{db}/_drive/files/{id}/content). Any other relative URL is
//     dropped (there is no base to resolve it against).
var wikiPolicy = sync.OnceValue(newWikiPolicy)

// WikiClass is the class values wiki HTML may carry (compiled on first
// use, see iframeSrc).
var WikiClass = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^wk-[a-z0-9-]{1,40}( wk-[a-z0-9-]{1,40}){0,7}$`)
})

const (
	dbPattern  = `acc-[0-9a-f]{32}`
	hexID      = `[0-9a-f]{32}`
	titleParam = `[A-Za-z0-9%._~+-]+`
	// driveQuery: the drive's content route may name a version and ask
	// for the file inline.
	driveQuery = `(\?(inline=true|version=[A-Za-z0-9._-]{1,100})(&(inline=true|version=[A-Za-z0-9._-]{1,100}))?)?`
)

// WikiLinkPath matches the relative links wiki HTML may carry (the db is
// checked separately); WikiImagePath the relative image sources (both
// compiled on first use, see iframeSrc).
var (
	WikiLinkPath = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^/account/(` + dbPattern + `)/handbooks/(han-` + hexID + `|new\?title=` + titleParam + `)$`)
	})
	WikiImagePath = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^/api/(` + dbPattern + `)/_drive/files/fle-` + hexID + `/content` + driveQuery + `$`)
	})
)

func newWikiPolicy() *bluemonday.Policy {
	p := newPolicy()
	// Relative URLs pass the policy only after wikiPrepare kept the two
	// allowed shapes of the page's own Group and dropped every other one.
	p.AllowRelativeURLs(true)
	p.AllowAttrs("class").Matching(WikiClass()).OnElements("pre", "code", "span", "a", "div", "li", "ul", "ol")
	p.AllowElements("input")
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^(|checked|disabled)$`)).OnElements("input")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|center|right)$`)).OnElements("td", "th")
	return p
}

// WikiSanitize makes rendered wiki HTML of Group db safe to insert.
func WikiSanitize(doc, db string) string {
	return wikiPolicy().Sanitize(wikiPrepare(doc, db))
}

// wikiPrepare keeps relative URLs only in the allowed shapes naming db,
// strips tracking parameters from absolute ones, forces checkboxes to be
// disabled checkboxes and drops inputs of any other kind.
func wikiPrepare(doc, db string) string {
	nodes, err := html.ParseFragment(strings.NewReader(doc), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return html.EscapeString(doc)
	}
	var b strings.Builder
	for _, n := range nodes {
		if !wikiKeep(n, db) {
			continue
		}
		if err := html.Render(&b, n); err != nil {
			return html.EscapeString(doc)
		}
	}
	return b.String()
}

func wikiKeep(n *html.Node, db string) bool {
	if n.Type == html.ElementNode {
		switch n.DataAtom {
		case atom.Img:
			if isTrackingPixel(n, nil) {
				return false
			}
			setAttr(n, "loading", "lazy")
		case atom.Input:
			if !strings.EqualFold(attr(n, "type"), "checkbox") {
				return false
			}
			checked := hasAttr(n, "checked")
			n.Attr = []html.Attribute{{Key: "type", Val: "checkbox"}, {Key: "disabled", Val: ""}}
			if checked {
				n.Attr = append(n.Attr, html.Attribute{Key: "checked", Val: ""})
			}
		case atom.Iframe:
			src := strings.TrimSpace(attr(n, "src"))
			if !iframeSrc().MatchString(src) {
				return false
			}
			setAttr(n, "loading", "lazy")
			setAttr(n, "sandbox", "allow-scripts allow-same-origin allow-popups allow-presentation")
		}
		kept := n.Attr[:0]
		for _, a := range n.Attr {
			switch a.Key {
			case "href", "src", "cite", "poster":
				v, ok := wikiURL(a.Key, strings.TrimSpace(a.Val), n.DataAtom, db)
				if !ok {
					continue
				}
				a.Val = v
			}
			kept = append(kept, a)
		}
		n.Attr = kept
	}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if !wikiKeep(c, db) {
			n.RemoveChild(c)
		}
		c = next
	}
	return true
}

// wikiURL decides one URL attribute: absolute URLs go on to the policy's
// scheme check; relative ones must be one of the allowed shapes of db.
func wikiURL(key, v string, el atom.Atom, db string) (string, bool) {
	if v == "" {
		return "", false
	}
	if isAbsolute(v) {
		return StripTracking(v), true
	}
	switch {
	case key == "href" && el == atom.A:
		if m := WikiLinkPath().FindStringSubmatch(v); m != nil && m[1] == db {
			return v, true
		}
	case key == "src" && el == atom.Img:
		if m := WikiImagePath().FindStringSubmatch(v); m != nil && m[1] == db {
			return v, true
		}
	}
	return "", false
}

// isAbsolute reports a URL with a scheme (the policy then checks it is
// http, https or mailto). "//host/…" is relative here, so it is dropped.
func isAbsolute(v string) bool {
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return false
	}
	for j, r := range v[:i] {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case j > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'):
		default:
			return false
		}
	}
	return true
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
