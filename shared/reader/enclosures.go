package reader

import (
	"encoding/json"
	"math"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/mmcdole/gofeed"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/schema"
)

// An item's enclosures are the files its feed attaches to it — a
// podcast's episode above all (RSS <enclosure url length type>, Atom
// <link rel="enclosure">, JSON Feed attachments) — kept on the item as
// "enclosures": [{url, type, length}] so the item can play them. Only the
// address is kept: the browser fetches the file from the publisher.

// Bounds of an item's enclosures.
const (
	maxEnclosures     = 10
	maxEnclosureURL   = 2000
	maxEnclosureBytes = 1 << 50 // a length beyond this is no file's
)

// enclosure is one file an item carries.
type enclosure struct {
	URL    string `json:"url"`
	Type   string `json:"type,omitempty"`   // a MIME type, lower case, without parameters
	Length int64  `json:"length,omitempty"` // bytes, as the feed says (0: not said)
}

// mimeRE is a MIME type's shape (RFC 6838 names), compiled on first use:
// its counted repetitions would cost every cold start half a millisecond.
var mimeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}$`)
})

// feedEnclosures reads an item's enclosures: addresses resolved against
// base, http(s) only, repeats dropped, at most maxEnclosures; a type or
// length the feed gets wrong is left out rather than the file.
func feedEnclosures(in []*gofeed.Enclosure, base *url.URL) []enclosure {
	var out []enclosure
	seen := map[string]bool{}
	for _, e := range in {
		if e == nil || len(out) == maxEnclosures {
			continue
		}
		u, err := resolveURL(base, strings.TrimSpace(e.URL))
		if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || len(u.String()) > maxEnclosureURL || seen[u.String()] {
			continue
		}
		seen[u.String()] = true
		n, err := strconv.ParseInt(strings.TrimSpace(e.Length), 10, 64)
		if err != nil || n < 0 || n > maxEnclosureBytes {
			n = 0
		}
		out = append(out, enclosure{URL: u.String(), Type: mimeType(e.Type), Length: n})
	}
	return out
}

// mimeType is t without parameters, lower case; "" when it is no MIME type.
func mimeType(t string) string {
	t, _, _ = strings.Cut(t, ";")
	t = strings.ToLower(strings.TrimSpace(t))
	if !mimeRE().MatchString(t) {
		return ""
	}
	return t
}

// enclosureList is enclosures as a document body holds them.
func enclosureList(es []enclosure) []any {
	out := make([]any, len(es))
	for i, e := range es {
		m := map[string]any{"url": e.URL}
		if e.Type != "" {
			m["type"] = e.Type
		}
		if e.Length > 0 {
			m["length"] = e.Length
		}
		out[i] = m
	}
	return out
}

// checkEnclosures validates and normalises an item's "enclosures" on every
// write path: a list of at most maxEnclosures objects, each with an
// absolute http(s) url, an optional MIME type and an optional length in
// bytes (a non-negative integer); other keys are dropped, an empty list
// removes the field.
func checkEnclosures(n map[string]any) error {
	v, ok := n["enclosures"]
	if !ok || v == nil {
		delete(n, "enclosures")
		return nil
	}
	bad := fault.Invalid(map[string][]string{"enclosures": {schema.MsgInvalid}})
	list, ok := v.([]any)
	if !ok || len(list) > maxEnclosures {
		return bad
	}
	out := make([]enclosure, 0, len(list))
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return bad
		}
		raw, _ := m["url"].(string)
		u, err := url.Parse(strings.TrimSpace(raw))
		if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || len(raw) > maxEnclosureURL {
			return bad
		}
		e := enclosure{URL: u.String()}
		switch t := m["type"].(type) {
		case nil:
		case string:
			if e.Type = mimeType(t); e.Type == "" && strings.TrimSpace(t) != "" {
				return bad
			}
		default:
			return bad
		}
		if l, ok := m["length"]; ok && l != nil {
			n, ok := wholeNumber(l)
			if !ok || n < 0 || n > maxEnclosureBytes {
				return bad
			}
			e.Length = n
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		delete(n, "enclosures")
		return nil
	}
	n["enclosures"] = enclosureList(out)
	return nil
}

// wholeNumber reads an integer as a decoded body may hold it.
func wholeNumber(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > maxEnclosureBytes {
			return 0, false
		}
		return int64(x), true
	case int64:
		return x, true
	case int:
		return int64(x), true
	}
	return 0, false
}
