// Package xsstest is the shared test corpus of XSS payloads and the check
// that a sanitiser's output is inert: every package that renders HTML from
// outside (reader items, wiki pages, link previews) runs each payload
// through its sanitiser and calls CheckInert on the result.
package xsstest

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

//go:embed payloads.txt
var corpus string

// Payloads returns the corpus, one payload each ("\n" in the file is a line break).
func Payloads() []string {
	var out []string
	for _, line := range strings.Split(corpus, "\n") {
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		out = append(out, strings.ReplaceAll(line, `\n`, "\n"))
	}
	return out
}

// forbidden elements: script, styles, frames except the allowed players,
// plugins, forms, documents inside documents, foreign content.
var forbidden = map[string]bool{
	"script": true, "style": true, "link": true, "meta": true, "base": true, "object": true, "embed": true,
	"applet": true, "form": true, "input": true, "button": true, "textarea": true, "select": true, "option": true,
	"keygen": true, "frame": true, "frameset": true, "svg": true, "math": true, "template": true, "noscript": true,
	"xmp": true, "title": true, "html": true, "head": true, "body": true, "bgsound": true, "marquee": true,
	"isindex": true, "noembed": true, "plaintext": true, "source": true, "param": true, "portal": true,
}

// urlAttrs hold URLs a browser may load or navigate to.
var urlAttrs = map[string]bool{
	"href": true, "src": true, "cite": true, "poster": true, "action": true, "formaction": true, "data": true,
	"background": true, "dynsrc": true, "lowsrc": true, "xlink:href": true, "longdesc": true, "usemap": true,
}

// forbiddenAttrs are never allowed, whatever their value.
var forbiddenAttrs = map[string]bool{
	"style": true, "srcdoc": true, "srcset": true, "id": true, "class": true, "name": true, "form": true,
	"formaction": true, "action": true, "xmlns": true, "xlink:href": true, "background": true, "dynsrc": true,
	"lowsrc": true, "autofocus": true, "contenteditable": true, "is": true, "slot": true, "nonce": true,
}

// AllowedIframe is the iframe sources the sanitisers may keep.
var AllowedIframe = regexp.MustCompile(`^https://(www\.youtube(-nocookie)?\.com/embed/|player\.vimeo\.com/video/|www\.dailymotion\.com/embed/video/|open\.spotify\.com/embed/|w\.soundcloud\.com/player/|bandcamp\.com/EmbeddedPlayer/)`)

var safeURL = regexp.MustCompile(`(?i)^(https?://|mailto:)`)

// CheckInert parses out as the browser would (inside <body>) and returns an
// error naming the first element, attribute or URL that could run script,
// load a style, clobber the page's DOM or open a window with an opener.
func CheckInert(out string) error { return CheckInertAllowing(out, Allow{}) }

// Allow is what a renderer's own output may carry beyond CheckInert's
// rules (the wiki's Markdown: highlighting classes, disabled task-list
// checkboxes, links to its own pages). The zero value allows nothing more.
type Allow struct {
	// Class, when set, allows class attributes whose value matches it.
	Class *regexp.Regexp
	// Checkbox allows <input type="checkbox" disabled> and nothing else
	// of input: no other type, no other attribute than checked.
	Checkbox bool
	// RelativeURL, when set, allows relative URLs that match it.
	RelativeURL *regexp.Regexp
}

// CheckInertAllowing is CheckInert with a renderer's allowances.
func CheckInertAllowing(out string, allow Allow) error {
	nodes, err := html.ParseFragment(strings.NewReader(out), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return fmt.Errorf("unparseable output: %w", err)
	}
	var check func(n *html.Node) error
	check = func(n *html.Node) error {
		if n.Type == html.ElementNode {
			name := strings.ToLower(n.Data)
			if name == "input" && allow.Checkbox {
				if err := checkbox(n); err != nil {
					return err
				}
			} else if forbidden[name] || n.Namespace != "" {
				return fmt.Errorf("element <%s> survived", name)
			}
			var rel, target string
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				if a.Namespace != "" {
					key = a.Namespace + ":" + key
				}
				if key == "class" && allow.Class != nil && allow.Class.MatchString(a.Val) {
					continue
				}
				if name == "input" && allow.Checkbox {
					continue // checked by checkbox
				}
				if strings.HasPrefix(key, "on") || forbiddenAttrs[key] {
					return fmt.Errorf("attribute %s on <%s> survived", key, name)
				}
				if urlAttrs[key] {
					v := strings.Map(func(r rune) rune {
						if r <= 0x20 || r == 0x7f {
							return -1
						}
						return r
					}, a.Val)
					if !safeURL.MatchString(v) && (allow.RelativeURL == nil || v != a.Val || !allow.RelativeURL.MatchString(v)) {
						return fmt.Errorf("%s=%q on <%s> is not an http(s) or mailto URL", key, a.Val, name)
					}
				}
				switch key {
				case "rel":
					rel = a.Val
				case "target":
					target = a.Val
				}
			}
			if name == "iframe" {
				src := ""
				sandbox := false
				for _, a := range n.Attr {
					switch a.Key {
					case "src":
						src = a.Val
					case "sandbox":
						sandbox = true
					}
				}
				if !AllowedIframe.MatchString(src) || !sandbox {
					return fmt.Errorf("iframe %q (sandbox %v) is not an allowed player", src, sandbox)
				}
			}
			if name == "a" && target != "" {
				if !strings.Contains(rel, "noopener") || !strings.Contains(rel, "noreferrer") {
					return fmt.Errorf("link with target %q has rel %q, want noopener noreferrer", target, rel)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if err := check(c); err != nil {
				return err
			}
		}
		return nil
	}
	for _, n := range nodes {
		if err := check(n); err != nil {
			return err
		}
	}
	return nil
}

// checkbox accepts only a disabled checkbox with no other attribute than
// checked.
func checkbox(n *html.Node) error {
	typ, disabled := "", false
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "type":
			typ = strings.ToLower(a.Val)
		case "disabled":
			disabled = true
		case "checked":
		default:
			return fmt.Errorf("attribute %s on <input> survived", a.Key)
		}
	}
	if typ != "checkbox" || !disabled {
		return fmt.Errorf("<input type=%q disabled=%v> is not a disabled checkbox", typ, disabled)
	}
	return nil
}
