package links

import (
	"bytes"
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/fetchguard"
	"github.com/oficina/oficina/shared/httpjson"
)

// PageFetcher fetches a page a user names, within a guard that keeps the
// server's own networks out of reach: the feed reader's fetchguard client.
type PageFetcher interface {
	Get(ctx context.Context, raw string, header http.Header) (*fetchguard.Response, error)
}

// WithPageFetcher lets the links app fetch a bookmark's title from its page
// (app.Modules passes the reader's guarded client, so both fetch within the
// same allow-list and ports; without one, titles are entered).
func (m *Module) WithPageFetcher(f PageFetcher) *Module {
	m.fetcher = f
	return m
}

// The answers of POST _links/title when no title comes back, each under the
// url field (nothing is stored either way).
const (
	MsgTitleUnavailable = "Titles cannot be fetched on this server: enter one"
	MsgTitleBlocked     = "This address cannot be fetched from the server"
	MsgTitleUnreachable = "The page could not be reached"
	MsgTitleNotHTML     = "This is not a web page"
	MsgTitleMissing     = "The page has no title: enter one"
	maxTitleRequest     = 8 << 10
	maxBookmarkTitle    = 500
)

// fetchTitle answers POST /api/{db}/_links/title {url} with {url, title}:
// the page's <title> (or its og:title), decoded from its charset, as plain
// text on one line (markup in a title stays text: it is never HTML). A
// refused address, an error status, a page that is not HTML or has no title
// get a 422 on url saying which.
func (m *Module) fetchTitle(w http.ResponseWriter, r *http.Request) error {
	var in titleRequest
	if err := httpjson.Decode(w, r, maxTitleRequest, &in); err != nil {
		return err
	}
	raw := strings.TrimSpace(in.URL)
	if raw == "" {
		return fault.Invalid(map[string][]string{"url": {fault.CantBeBlank}})
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(raw) > 2048 {
		return fault.Invalid(map[string][]string{"url": {fault.IsInvalid}})
	}
	if m.fetcher == nil {
		return fault.New(fault.NotFound, MsgTitleUnavailable)
	}
	res, err := m.fetcher.Get(r.Context(), u.String(), http.Header{"Accept": {"text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"}})
	if err != nil {
		if fetchguard.IsBlocked(err) {
			return fault.Invalid(map[string][]string{"url": {MsgTitleBlocked}})
		}
		return fault.Invalid(map[string][]string{"url": {MsgTitleUnreachable, fetchguard.Failure(err, "page")}})
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return fault.Invalid(map[string][]string{"url": {MsgTitleUnreachable, fmt.Sprintf("HTTP %d %s", res.StatusCode, http.StatusText(res.StatusCode))}})
	}
	ct := res.Header.Get("Content-Type")
	if !isHTML(ct, res.Body) {
		mt, _, _ := mime.ParseMediaType(ct)
		if mt == "" {
			mt = http.DetectContentType(res.Body)
		}
		return fault.Invalid(map[string][]string{"url": {MsgTitleNotHTML, mt}})
	}
	title := pageTitle(res.Body, ct)
	if title == "" {
		return fault.Invalid(map[string][]string{"url": {MsgTitleMissing}})
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"url": res.URL.String(), "title": title})
	return nil
}

// titleRequest is the body of POST _links/title.
type titleRequest struct {
	URL string `json:"url"`
}

// isHTML: an HTML or XHTML content type, or, with none given, HTML by sniffing.
func isHTML(contentType string, body []byte) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	switch mt {
	case "text/html", "application/xhtml+xml":
		return true
	case "":
		return strings.HasPrefix(http.DetectContentType(body), "text/html")
	}
	return false
}

// pageTitle reads the first <title> of the document (outside SVG and MathML,
// which have titles of their own), else its og:title, as one line of text.
func pageTitle(body []byte, contentType string) string {
	rd, err := charset.NewReader(bytes.NewReader(body), contentType)
	if err != nil {
		rd = bytes.NewReader(body)
	}
	z := nethtml.NewTokenizer(rd)
	var og string
	foreign := 0
	for {
		switch z.Next() {
		case nethtml.ErrorToken: // io.EOF or a broken document: what was found so far
			return cleanText(og, maxBookmarkTitle)
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			tok := z.Token()
			switch tok.DataAtom {
			case atom.Svg, atom.Math:
				if tok.Type == nethtml.StartTagToken {
					foreign++
				}
			case atom.Title:
				if foreign > 0 {
					continue
				}
				if z.Next() == nethtml.TextToken {
					if t := cleanText(string(z.Text()), maxBookmarkTitle); t != "" {
						return t
					}
				}
			case atom.Meta:
				var prop, content string
				for _, a := range tok.Attr {
					switch strings.ToLower(a.Key) {
					case "property", "name":
						prop = strings.ToLower(a.Val)
					case "content":
						content = a.Val
					}
				}
				if prop == "og:title" && og == "" {
					og = content
				}
			case atom.Body:
				// The title belongs to the head; an og:title found so far still counts.
				if og != "" {
					return cleanText(og, maxBookmarkTitle)
				}
			}
		case nethtml.EndTagToken:
			if a := z.Token().DataAtom; (a == atom.Svg || a == atom.Math) && foreign > 0 {
				foreign--
			}
		}
	}
}
