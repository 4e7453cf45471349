package reader

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mmcdole/gofeed"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/oficina/oficina/shared/htmlsafe"
)

// errNotAFeed: the body is neither RSS, Atom nor JSON Feed.
var errNotAFeed = errors.New("not a feed")

// parsedFeed is a feed reduced to what the reader keeps.
type parsedFeed struct {
	Title    string
	SiteURL  string
	Language string
	Entries  []entry // newest first, at most MaxItemsPerFetch
}

// entry is one item of a feed.
type entry struct {
	Key         string // GUID, else link, else a hash of title and content
	URL         string
	Title       string
	Content     string // as the feed has it; sanitised by the item rule
	ContentType string // "html" or "text"
	Summary     string
	Author      string
	Categories  []string
	Posted      time.Time // zero when the feed gives no usable date
	Enclosures  []enclosure
	Hash        string // of everything above: an edit changes it
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// parseFeed parses RSS 0.9x/1.0/2.0, Atom and JSON Feed (gofeed). feedURL
// resolves relative links (against the feed's own site link first). Items
// without a date get none (the caller dates them when first seen); dates
// in the future are taken as now.
func parseFeed(body []byte, feedURL *url.URL, now time.Time) (*parsedFeed, error) {
	body = bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(body, " \t\r\n"), utf8BOM), " \t\r\n")
	if len(body) > 0 && body[0] == '{' {
		// Any JSON object passes gofeed's detection; a JSON Feed names its version.
		var head struct {
			Version string `json:"version"`
		}
		if json.Unmarshal(body, &head) != nil || !strings.HasPrefix(head.Version, "https://jsonfeed.org/version/") {
			return nil, errNotAFeed
		}
	}
	f, err := gofeed.NewParser().Parse(bytes.NewReader(body))
	if err != nil {
		if errors.Is(err, gofeed.ErrFeedTypeNotDetected) {
			return nil, errNotAFeed
		}
		return nil, fmt.Errorf("%w: %v", errNotAFeed, err)
	}
	base := feedURL
	site := ""
	if f.Link != "" {
		if u, err := resolveURL(feedURL, strings.TrimSpace(f.Link)); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
			site = u.String()
			base = u
		}
	}
	out := &parsedFeed{Title: clean(f.Title), SiteURL: site, Language: strings.TrimSpace(f.Language)}
	for _, it := range f.Items {
		if it == nil {
			continue
		}
		e := entry{Title: clean(it.Title), Categories: it.Categories}
		if it.Link != "" {
			if u, err := resolveURL(base, strings.TrimSpace(it.Link)); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
				e.URL = u.String()
			}
		}
		e.Content = it.Content
		if strings.TrimSpace(e.Content) == "" {
			e.Content = it.Description
		} else if d := strings.TrimSpace(it.Description); d != "" {
			e.Summary = htmlsafe.Text(d, 300)
		}
		e.ContentType = "html"
		if !looksLikeHTML(e.Content) {
			e.ContentType = "text"
		}
		if len(it.Authors) > 0 && it.Authors[0] != nil {
			e.Author = clean(it.Authors[0].Name)
		}
		switch {
		case it.PublishedParsed != nil && !it.PublishedParsed.IsZero():
			e.Posted = *it.PublishedParsed
		case it.UpdatedParsed != nil && !it.UpdatedParsed.IsZero():
			e.Posted = *it.UpdatedParsed
		}
		if e.Posted.After(now) {
			e.Posted = now
		}
		if e.Posted.Year() < 1970 {
			e.Posted = time.Time{}
		}
		if e.Title == "" {
			e.Title = htmlsafe.Text(e.Content, 80)
		}
		e.Title = htmlsafe.Truncate(e.Title, 500)
		e.Author = htmlsafe.Truncate(e.Author, 200)
		switch guid := strings.TrimSpace(it.GUID); {
		case guid != "":
			e.Key = "guid:" + guid
		case e.URL != "":
			e.Key = "url:" + e.URL
		default:
			e.Key = "hash:" + hashOf(e.Title, e.Content)
		}
		e.Enclosures = feedEnclosures(it.Enclosures, base)
		files := ""
		if len(e.Enclosures) > 0 {
			raw, _ := json.Marshal(e.Enclosures)
			files = string(raw)
		}
		e.Hash = hashOf(e.Key, e.URL, e.Title, e.Content, e.Summary, e.Author, e.Posted.UTC().Format(time.RFC3339), files)
		out.Entries = append(out.Entries, e)
	}
	// Newest first (undated entries keep the feed's order, after the dated
	// ones that precede them), then the cap.
	slices.SortStableFunc(out.Entries, func(a, b entry) int {
		if a.Posted.IsZero() || b.Posted.IsZero() {
			return 0
		}
		return b.Posted.Compare(a.Posted)
	})
	if len(out.Entries) > MaxItemsPerFetch {
		out.Entries = out.Entries[:MaxItemsPerFetch]
	}
	return out, nil
}

func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// clean makes a title plain text: entities decoded, tags dropped,
// white space collapsed.
func clean(s string) string {
	if strings.ContainsAny(s, "<&") {
		return htmlsafe.Text(s, 0)
	}
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
}

var tagRE = regexp.MustCompile(`<(/?[a-zA-Z][a-zA-Z0-9]*)[\s/>]|&[a-zA-Z]+;|&#[0-9]+;`)

func looksLikeHTML(s string) bool { return tagRE.MatchString(s) }

func resolveURL(base *url.URL, ref string) (*url.URL, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, err
	}
	if base == nil {
		if !u.IsAbs() {
			return nil, errors.New("relative URL without a base")
		}
		return u, nil
	}
	return base.ResolveReference(u), nil
}

// ---- discovery --------------------------------------------------------------

// feedTypes are the <link rel="alternate" type> values of feeds, in the
// order of preference when a page lists several.
var feedTypes = []string{"application/atom+xml", "application/rss+xml", "application/feed+json", "application/json", "application/rdf+xml", "application/xml", "text/xml"}

// discoveredFeed is a feed an HTML page links to.
type discoveredFeed struct {
	URL, Title, Type string
}

// discover returns the feeds an HTML page declares with
// <link rel="alternate" type="…">, resolved against the page's URL (or
// its <base>), in document order, without repeats.
func discover(body []byte, pageURL *url.URL) []discoveredFeed {
	if !utf8.Valid(body) {
		body = []byte(strings.ToValidUTF8(string(body), ""))
	}
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return nil
	}
	base := pageURL
	var out []discoveredFeed
	seen := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Base:
				if u, err := resolveURL(pageURL, attrOf(n, "href")); err == nil && attrOf(n, "href") != "" {
					base = u
				}
			case atom.Link, atom.A:
				rels := strings.Fields(strings.ToLower(attrOf(n, "rel")))
				typ := strings.ToLower(strings.TrimSpace(strings.Split(attrOf(n, "type"), ";")[0]))
				href := strings.TrimSpace(attrOf(n, "href"))
				if slices.Contains(rels, "alternate") && slices.Contains(feedTypes, typ) && href != "" {
					if u, err := resolveURL(base, href); err == nil && (u.Scheme == "http" || u.Scheme == "https") && !seen[u.String()] {
						seen[u.String()] = true
						out = append(out, discoveredFeed{URL: u.String(), Title: clean(attrOf(n, "title")), Type: typ})
					}
				}
			case atom.Body:
				// Feeds are declared in the head; links in the body are content.
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	slices.SortStableFunc(out, func(a, b discoveredFeed) int {
		return slices.Index(feedTypes, a.Type) - slices.Index(feedTypes, b.Type)
	})
	return out
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// looksLikeHTMLPage reports a response that is a web page rather than a
// feed: by its content type, or by its first bytes when the type lies.
func looksLikeHTMLPage(contentType string, body []byte) bool {
	if strings.Contains(strings.ToLower(contentType), "html") && !strings.Contains(strings.ToLower(contentType), "xml") {
		return true
	}
	head := strings.ToLower(string(body[:min(len(body), 512)]))
	return strings.Contains(head, "<!doctype html") || strings.Contains(head, "<html")
}
