package dav

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/oficina/oficina/shared/drive"
)

// A PROPFIND of Depth 0 or 1 that asks for live properties only (allprop,
// or a list of DAV: names) is answered here, from one listing, with the
// multistatus written directly: x/net/webdav's reflective XML encoder and
// its per-entry Stat and OpenFile were most of a 1,000-entry folder's
// time. The answer is the one x/net/webdav gives (same properties and
// values, one propstat per status). Anything else — propname, dead
// properties asked for or held by an entry, an unknown element — goes to
// x/net/webdav.

type propfindBody struct {
	XMLName  xml.Name  `xml:"DAV: propfind"`
	Allprop  *struct{} `xml:"DAV: allprop"`
	Propname *struct{} `xml:"DAV: propname"`
	Include  *struct{} `xml:"DAV: include"`
	Prop     *struct {
		Names []struct {
			XMLName xml.Name
		} `xml:",any"`
	} `xml:"DAV: prop"`
}

// liveNames are the live properties served, in x/net/webdav's allprop order
// (dir: whether folders have it).
var liveNames = []struct {
	name string
	dir  bool
}{
	{"resourcetype", true}, {"displayname", true}, {"getcontentlength", false}, {"getlastmodified", true},
	{"getcontenttype", false}, {"getetag", false}, {"supportedlock", true},
}

// hiddenNames are DAV: properties x/net/webdav knows but never shows (404).
var hiddenNames = map[string]bool{"creationdate": true, "getcontentlanguage": true, "lockdiscovery": true}

// quotaNames are RFC 4331's, answered on folders when asked for by name
// (never in allprop): the Group's drive usage and what is left of its
// limit, as the web app's quota bar shows them.
var quotaNames = map[string]bool{"quota-available-bytes": true, "quota-used-bytes": true}

// fastPropfind answers the request and returns true, or returns false
// having written nothing (the caller hands the request to x/net/webdav).
func (f *fsys) fastPropfind(ctx context.Context, w http.ResponseWriter, body []byte, mount, depth string) bool {
	if depth != "0" && depth != "1" {
		return false
	}
	var names []string // nil: allprop
	if len(bytes.TrimSpace(body)) > 0 {
		var pf propfindBody
		if xml.Unmarshal(body, &pf) != nil || pf.Propname != nil || pf.Include != nil {
			return false
		}
		switch {
		case pf.Allprop != nil && pf.Prop == nil:
		case pf.Prop != nil && pf.Allprop == nil:
			if len(pf.Prop.Names) == 0 {
				return false
			}
			for _, n := range pf.Prop.Names {
				if n.XMLName.Space != "DAV:" || !(hiddenNames[n.XMLName.Local] || quotaNames[n.XMLName.Local] || isLive(n.XMLName.Local)) {
					return false // a dead property: x/net/webdav reads them
				}
				names = append(names, n.XMLName.Local)
			}
		default:
			return false
		}
	}
	e, err := f.resolve(ctx, f.req.path)
	if err != nil {
		return false // 404 and the like: x/net/webdav answers them
	}
	entries := []drive.Entry{e}
	if depth == "1" && e.Dir {
		list, err := f.h.drive.FSList(ctx, f.db, e.ID, f.h.maxListing)
		if status := statusOf(err); status != 0 {
			// A refusal (a folder over the listing bound) says why, before
			// any of the multistatus is written.
			plain(w, status, reasonOf(err))
			return true
		}
		if err != nil {
			return false
		}
		entries = append(entries, list...)
	}
	for _, x := range entries {
		if len(x.Props) > 0 {
			return false
		}
	}
	var quota *[2]int64 // used, available
	for _, n := range names {
		if quotaNames[n] && quota == nil {
			u, err := f.h.drive.FSUsage(ctx, f.db)
			if err != nil {
				return false
			}
			quota = &[2]int64{u.Bytes, max(u.Limit-u.Bytes, 0)}
		}
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusMultiStatus)
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?><D:multistatus xmlns:D="DAV:">`)
	for i, x := range entries {
		p := f.req.path
		if i > 0 {
			p = path.Join(p, x.Name)
		}
		href := path.Join(mount, p)
		if x.Dir && href != "/" {
			href += "/"
		}
		writeResponse(bw, href, x, names, quota)
	}
	bw.WriteString(`</D:multistatus>`)
	_ = bw.Flush()
	return true
}

func isLive(name string) bool {
	for _, l := range liveNames {
		if l.name == name {
			return true
		}
	}
	return false
}

func writeResponse(bw *bufio.Writer, href string, e drive.Entry, names []string, quota *[2]int64) {
	bw.WriteString(`<D:response><D:href>`)
	xmlText(bw, (&url.URL{Path: href}).EscapedPath())
	bw.WriteString(`</D:href>`)
	var missing []string
	bw.WriteString(`<D:propstat><D:prop>`)
	if names == nil {
		for _, l := range liveNames {
			if l.dir || !e.Dir {
				writeProp(bw, l.name, e)
			}
		}
	} else {
		for _, n := range names {
			ok := false
			for _, l := range liveNames {
				if l.name == n && (l.dir || !e.Dir) {
					ok = true
				}
			}
			switch {
			case quotaNames[n] && e.Dir && quota != nil:
				v := quota[0]
				if n == "quota-available-bytes" {
					v = quota[1]
				}
				bw.WriteString(`<D:` + n + `>` + strconv.FormatInt(v, 10) + `</D:` + n + `>`)
			case ok:
				writeProp(bw, n, e)
			default:
				missing = append(missing, n)
			}
		}
	}
	bw.WriteString(`</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>`)
	if len(missing) > 0 {
		bw.WriteString(`<D:propstat><D:prop>`)
		for _, n := range missing {
			bw.WriteString(`<D:` + n + `></D:` + n + `>`)
		}
		bw.WriteString(`</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>`)
	}
	bw.WriteString(`</D:response>`)
}

func writeProp(bw *bufio.Writer, name string, e drive.Entry) {
	bw.WriteString(`<D:` + name + `>`)
	switch name {
	case "resourcetype":
		if e.Dir {
			bw.WriteString(`<D:collection xmlns:D="DAV:"/>`)
		}
	case "displayname":
		if e.ID != "" {
			xmlText(bw, e.Name)
		}
	case "getcontentlength":
		bw.WriteString(strconv.FormatInt(e.Size, 10))
	case "getlastmodified":
		bw.WriteString(e.Modified.UTC().Format(http.TimeFormat))
	case "getcontenttype":
		xmlText(bw, e.ContentType)
	case "getetag":
		tag, _ := info{e}.ETag(context.Background())
		xmlText(bw, tag)
	case "supportedlock":
		bw.WriteString(`<D:lockentry xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>` +
			`<D:lockentry xmlns:D="DAV:"><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`)
	}
	bw.WriteString(`</D:` + name + `>`)
}

// xmlText writes s as XML character data: "<", ">" and "&" escaped, as
// x/net/webdav writes values (quotes stay quotes: ETags read as sent).
func xmlText(w *bufio.Writer, s string) {
	if !strings.ContainsAny(s, "<>&\r") {
		w.WriteString(s)
		return
	}
	for _, r := range s {
		switch r {
		case '<':
			w.WriteString("&lt;")
		case '>':
			w.WriteString("&gt;")
		case '&':
			w.WriteString("&amp;")
		case '\r':
			w.WriteString("&#xD;")
		default:
			w.WriteRune(r)
		}
	}
}
