package links

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schema"
	"github.com/oficina/oficina/shared/store"
)

// The Netscape bookmark file every browser imports and exports.
const (
	// MaxImportBytes bounds an imported bookmark file.
	MaxImportBytes = 5 << 20
	// MaxImportLinks bounds the bookmarks of one import.
	MaxImportLinks = 10_000
	maxFolderDepth = 32
	maxFailed      = 100
)

// bookmarkRule: http(s) URLs only (the schema's URL type), the host as the
// title when none is given, tags trimmed (the schema), and the display
// label.
func bookmarkRule(_ context.Context, w *docs.Write) error {
	if w.Deleting {
		return nil
	}
	n := w.New
	if strings.TrimSpace(str(n["title"])) == "" {
		if u, err := url.Parse(str(n["url"])); err == nil {
			n["title"] = u.Host
		}
	}
	n["label"] = n["title"]
	return nil
}

// netscapeLink is one bookmark read from a file.
type netscapeLink struct {
	URL, Title, Description string
	Tags                    []string
	Added                   time.Time
}

// parseNetscape reads a Netscape bookmark file: <DT><A HREF ADD_DATE TAGS>
// entries, <DD> descriptions, <H3> folders (which become tags, except the
// browser's toolbar folder). Hostile input is bounded: the file's size by
// the route, the links by MaxImportLinks, the folder nesting by
// maxFolderDepth, each text by the record's limits.
func parseNetscape(r io.Reader) ([]netscapeLink, error) {
	z := nethtml.NewTokenizer(r)
	z.SetMaxBuf(1 << 20)
	var (
		out        []netscapeLink
		folders    []string // names of the open folders ("" = not a tag)
		pending    string   // the last <H3>'s name, until its <DL> opens
		pendingTag bool
		inA, inH3  bool
		inDD       bool
		cur        *netscapeLink
		text       strings.Builder
		dlDepth    int
	)
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for {
		tt := z.Next()
		switch tt {
		case nethtml.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				flush()
				if len(out) > MaxImportLinks {
					return nil, fault.Newf(fault.TooLarge, "The bookmark file has more than %d links; split it", MaxImportLinks)
				}
				return out, nil
			}
			return nil, fault.New(fault.BadRequest, "The bookmark file cannot be read")
		case nethtml.TextToken:
			if inA || inH3 || inDD {
				if text.Len() < 20_000 {
					text.Write(z.Text())
				}
			}
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			tok := z.Token()
			switch tok.DataAtom {
			case atom.A:
				flush()
				inDD = false
				cur = &netscapeLink{}
				for _, a := range tok.Attr {
					switch strings.ToLower(a.Key) {
					case "href":
						cur.URL = strings.TrimSpace(a.Val)
					case "tags":
						cur.Tags = splitTags(a.Val)
					case "add_date":
						if sec, err := strconv.ParseInt(strings.TrimSpace(a.Val), 10, 64); err == nil && sec > 0 && sec < 1<<35 {
							cur.Added = time.Unix(sec, 0).UTC()
						}
					}
				}
				for _, f := range folders {
					if f != "" && !slices.Contains(cur.Tags, f) {
						cur.Tags = append(cur.Tags, f)
					}
				}
				inA = true
				text.Reset()
			case atom.H3:
				flush()
				inDD = false
				inH3 = true
				pendingTag = true
				for _, a := range tok.Attr {
					if strings.EqualFold(a.Key, "personal_toolbar_folder") && strings.EqualFold(a.Val, "true") {
						pendingTag = false
					}
				}
				text.Reset()
			case atom.Dd:
				inDD = cur != nil
				text.Reset()
			case atom.Dl:
				dlDepth++
				if dlDepth > maxFolderDepth+1 {
					return nil, fault.New(fault.BadRequest, "The bookmark file nests folders too deeply")
				}
				if dlDepth > 1 {
					name := ""
					if pendingTag {
						name = tagOf(pending)
					}
					folders = append(folders, name)
				}
				pending, pendingTag = "", false
			case atom.Dt:
				if inDD && cur != nil {
					cur.Description = cleanText(text.String(), 5000)
				}
				inDD = false
			}
		case nethtml.EndTagToken:
			name, _ := z.TagName()
			switch atom.Lookup(name) {
			case atom.A:
				if inA && cur != nil {
					cur.Title = cleanText(text.String(), 500)
				}
				inA = false
			case atom.H3:
				if inH3 {
					pending = cleanText(text.String(), 100)
				}
				inH3 = false
			case atom.Dl:
				if inDD && cur != nil {
					cur.Description = cleanText(text.String(), 5000)
					inDD = false
				}
				flush()
				if dlDepth > 1 && len(folders) > 0 {
					folders = folders[:len(folders)-1]
				}
				dlDepth = max(dlDepth-1, 0)
			}
		}
		if inDD && cur != nil {
			cur.Description = cleanText(text.String(), 5000)
		}
		if len(out) > MaxImportLinks {
			return nil, fault.Newf(fault.TooLarge, "The bookmark file has more than %d links; split it", MaxImportLinks)
		}
	}
}

func splitTags(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ",") {
		if t = tagOf(t); t != "" && !slices.Contains(out, t) && len(out) < 50 {
			out = append(out, t)
		}
	}
	return out
}

// tagOf is a tag as the schema keeps it (trimmed, spaces as dashes).
func tagOf(s string) string {
	s = cleanText(s, 100)
	return schema.Tag(s)
}

// cleanText collapses white space, drops control characters and invalid
// UTF-8 and cuts at max runes.
func cleanText(s string, max int) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max])
	}
	return s
}

// normalURL is how imports compare URLs: scheme and host lower-cased,
// fragment kept (single-page apps route by it).
func normalURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return raw
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	return u.String()
}

// importBookmarks reads a bookmark file (the request body) and saves each
// link through the write path: a URL the Group has already gets the tags
// it lacks (updated) or nothing (unchanged); a link the rules refuse (not
// http or https, too long) is listed in failed with the field's message.
func (m *Module) importBookmarks(w http.ResponseWriter, r *http.Request) error {
	ctx, db, p := r.Context(), r.PathValue("db"), module.Principal(r)
	body, err := httpjson.ReadBody(w, r, MaxImportBytes)
	if err != nil {
		return err
	}
	if !utf8.Valid(body) {
		return fault.New(fault.BadRequest, "The bookmark file must be UTF-8")
	}
	if !bytes.Contains(bytes.ToLower(body[:min(len(body), 4096)]), []byte("netscape-bookmark-file")) && !bytes.Contains(bytes.ToLower(body), []byte("<dt>")) {
		return fault.New(fault.BadRequest, "This is not a bookmark file (Netscape bookmark HTML, as browsers export)")
	}
	links, err := parseNetscape(bytes.NewReader(body))
	if err != nil {
		return err
	}
	existing := map[string]store.Doc{}
	if err := m.eachBookmark(ctx, db, func(d store.Doc, b map[string]any) { existing[normalURL(str(b["url"]))] = d }); err != nil {
		return err
	}
	res := importAnswer{Failed: []importFailure{}}
	fail := func(l netscapeLink, reason string) {
		if len(res.Failed) < maxFailed {
			res.Failed = append(res.Failed, importFailure{URL: cleanText(l.URL, 300), Title: l.Title, Reason: reason})
		} else {
			res.More++
		}
	}
	// save writes one link through the write path and counts it; a link the
	// rules refuse is listed in Failed instead.
	save := func(l netscapeLink, key, id, rev string, b map[string]any, counted *int) error {
		saved, err := m.deps.Docs.Save(ctx, p, db, id, rev, b)
		if msg := fieldMessage(err); msg != "" {
			fail(l, msg)
			return nil
		}
		if err != nil {
			return err
		}
		existing[key] = saved
		*counted++
		return nil
	}
	for _, l := range links {
		if err := ctx.Err(); err != nil {
			return err
		}
		key := normalURL(l.URL)
		if d, ok := existing[key]; ok {
			b, err := docs.Decode(d.Body)
			if err != nil {
				fail(l, schema.MsgInvalid)
				continue
			}
			tags := docs.Strings(b["tags"])
			add := false
			for _, t := range l.Tags {
				if !slices.Contains(tags, t) {
					tags = append(tags, t)
					add = true
				}
			}
			if !add {
				res.Unchanged++
				continue
			}
			b["tags"] = docs.List(tags)
			if err := save(l, key, d.ID, d.Rev, b, &res.Updated); err != nil {
				return err
			}
			continue
		}
		b := map[string]any{"klass": KlassBookmark, "url": l.URL, "title": l.Title, "tags": docs.List(l.Tags), "starred": false}
		if l.Description != "" {
			b["description"] = l.Description
		}
		if !l.Added.IsZero() {
			b["added_at"] = l.Added.Format(time.RFC3339)
		}
		if err := save(l, key, ids.New(ids.PrefixOf(KlassBookmark)), "", b, &res.Created); err != nil {
			return err
		}
	}
	httpjson.Write(w, http.StatusOK, res)
	return nil
}

// importAnswer is what an import did; Failed lists at most maxFailed links
// the rules refused, More counts the rest.
type importAnswer struct {
	Created   int             `json:"created"`
	Updated   int             `json:"updated"`
	Unchanged int             `json:"unchanged"`
	Failed    []importFailure `json:"failed"`
	More      int             `json:"more_failed"`
}

type importFailure struct {
	URL    string `json:"url"`
	Title  string `json:"title"`
	Reason string `json:"reason"`
}

// fieldMessage turns a refused write into "field: message" ("" for other
// errors).
func fieldMessage(err error) string {
	fe, ok := fault.As(err)
	if !ok || fe.Kind != fault.Unprocessable {
		return ""
	}
	var parts []string
	for f, msgs := range fe.Fields {
		parts = append(parts, f+": "+strings.Join(msgs, ", "))
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

// exportBookmarks writes the Group's bookmarks as a Netscape bookmark file
// (every browser imports it), oldest first, tags in TAGS.
func (m *Module) exportBookmarks(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<!-- This is an automatically generated file. -->\n" +
		"<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=UTF-8\">\n<TITLE>Bookmarks</TITLE>\n<H1>Bookmarks</H1>\n<DL><p>\n")
	err := m.eachBookmark(ctx, db, func(_ store.Doc, body map[string]any) {
		u := str(body["url"])
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") {
			return
		}
		added := str(body["added_at"])
		if added == "" {
			added = str(body["created_at"])
		}
		at, _ := time.Parse(time.RFC3339, added)
		fmt.Fprintf(&b, "    <DT><A HREF=\"%s\" ADD_DATE=\"%d\"", html.EscapeString(u), max(at.Unix(), 0))
		if tags := docs.Strings(body["tags"]); len(tags) > 0 {
			fmt.Fprintf(&b, " TAGS=\"%s\"", html.EscapeString(strings.Join(tags, ",")))
		}
		fmt.Fprintf(&b, ">%s</A>\n", html.EscapeString(str(body["title"])))
		if desc := str(body["description"]); desc != "" {
			fmt.Fprintf(&b, "    <DD>%s\n", html.EscapeString(desc))
		}
	})
	if err != nil {
		return err
	}
	b.WriteString("</DL><p>\n")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="bookmarks.html"`)
	_, _ = w.Write(b.Bytes())
	return nil
}

// eachBookmark calls fn with every bookmark of db, oldest first (a body
// that does not decode is skipped).
func (m *Module) eachBookmark(ctx context.Context, db string, fn func(d store.Doc, body map[string]any)) error {
	q := store.ListQuery{Klass: KlassBookmark, Limit: 500}
	for {
		page, err := m.st.List(ctx, db, q)
		if err != nil {
			return err
		}
		for _, d := range page.Docs {
			if body, err := docs.Decode(d.Body); err == nil {
				fn(d, body)
			}
		}
		if page.Next == "" {
			return nil
		}
		q.After = page.Next
	}
}
