package mail

import (
	"fmt"
	"strconv"
	"strings"
)

// The mail templates are written in a small subset of Go's template
// language, rendered here without reflection. text/template and
// html/template evaluate fields by reflection, and a program that can call
// methods by name keeps every exported method of every type it uses: in
// the worker function that was 2.2 MB of its 8 MB package, and in the API
// 2.3 MB (issue 23.4). The subset:
//
//	{{define "name"}}…{{end}}         a named block ("subject", "text", "content", "layout")
//	{{.Name}} {{.Email}} {{.Link}} {{.ValidHours}} {{.Subject}} {{.Locale}} {{.Change}}
//	{{index .Vars "key"}}             a value of Vars ("" when missing)
//	{{if VALUE}}…{{else}}…{{end}}     empty, false and 0 are false
//	{{template "content" .}}          another block, with the same data
//
// Anything else fails LoadTemplates. In HTML blocks every value is escaped
// for where it stands, as html/template does: element text and attribute
// values by HTML escaping, URL attributes (href, src) by refusing other
// schemes than http, https and mailto, then normalising and escaping; a
// test renders every template through html/template and this renderer and
// requires the same bytes.

// block is a parsed template block.
type block []piece

// piece is literal text, a value, a condition or a call of another block.
type piece struct {
	text string
	val  *ref
	esc  escaper // how a value is written
	cond *ref
	then block
	els  block
	call string
}

// ref names a value of TemplateData.
type ref struct {
	field string // "Name", …, or "Vars"
	key   string // for Vars
}

type escaper int

const (
	escNone escaper = iota // text blocks
	escHTML                // element text, RCDATA and attribute values
	escURL                 // URL attribute values
)

func (r ref) value(d *TemplateData) (s string, truth bool) {
	switch r.field {
	case "Locale":
		s = d.Locale
	case "Subject":
		s = d.Subject
	case "Name":
		s = d.Name
	case "Email":
		s = d.Email
	case "Link":
		s = d.Link
	case "ValidHours":
		return strconv.Itoa(d.ValidHours), d.ValidHours != 0
	case "Change":
		return strconv.FormatBool(d.Change), d.Change
	case "Vars":
		s = d.Vars[r.key]
	}
	return s, s != ""
}

// parseBlocks reads one template file into its named blocks; html says
// whether values are escaped for HTML.
func parseBlocks(src string, html bool) (map[string]block, error) {
	p := &parser{src: src, html: html, blocks: map[string]block{}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.blocks, nil
}

type parser struct {
	src    string
	html   bool
	blocks map[string]block
	ctx    htmlContext
}

// frame is an open {{define}} or {{if}}.
type frame struct {
	define string
	cond   *ref
	then   block
	els    block
	inElse bool
}

func (f *frame) add(p piece) {
	if f.inElse {
		f.els = append(f.els, p)
	} else {
		f.then = append(f.then, p)
	}
}

func (p *parser) parse() error {
	var stack []*frame
	rest := p.src
	for rest != "" {
		open := strings.Index(rest, "{{")
		if open < 0 {
			open = len(rest)
		}
		if text := rest[:open]; text != "" && len(stack) > 0 {
			stack[len(stack)-1].add(piece{text: text})
			if p.html {
				p.ctx = p.ctx.after(text)
			}
		} else if text != "" && strings.TrimSpace(text) != "" {
			return fmt.Errorf("text outside {{define}}: %q", text)
		}
		if open == len(rest) {
			break
		}
		closeAt := strings.Index(rest[open:], "}}")
		if closeAt < 0 {
			return fmt.Errorf("unclosed action at %q", rest[open:])
		}
		action := strings.TrimSpace(rest[open+2 : open+closeAt])
		rest = rest[open+closeAt+2:]
		word, arg, _ := strings.Cut(action, " ")
		arg = strings.TrimSpace(arg)
		switch {
		case word == "define":
			name, err := quoted(arg)
			if err != nil || len(stack) > 0 {
				return fmt.Errorf("{{%s}}: a define at the top level with a quoted name", action)
			}
			stack = append(stack, &frame{define: name})
			p.ctx = htmlContext{}
		case word == "if":
			r, err := parseRef(arg)
			if err != nil || len(stack) == 0 {
				return fmt.Errorf("{{%s}}: %v", action, err)
			}
			stack = append(stack, &frame{cond: &r})
		case action == "else":
			if len(stack) < 2 || stack[len(stack)-1].cond == nil || stack[len(stack)-1].inElse {
				return fmt.Errorf("{{else}} outside an {{if}}")
			}
			stack[len(stack)-1].inElse = true
		case action == "end":
			if len(stack) == 0 {
				return fmt.Errorf("{{end}} without a block")
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.cond == nil {
				p.blocks[f.define] = f.then
				continue
			}
			stack[len(stack)-1].add(piece{cond: f.cond, then: f.then, els: f.els})
		case word == "template":
			name, dot, _ := strings.Cut(arg, " ")
			called, err := quoted(name)
			if err != nil || strings.TrimSpace(dot) != "." || len(stack) == 0 {
				return fmt.Errorf("{{%s}}: want {{template \"name\" .}}", action)
			}
			stack[len(stack)-1].add(piece{call: called})
		default:
			r, err := parseRef(action)
			if err != nil || len(stack) == 0 {
				return fmt.Errorf("{{%s}}: %v", action, err)
			}
			esc, err := p.escaper()
			if err != nil {
				return fmt.Errorf("{{%s}}: %w", action, err)
			}
			stack[len(stack)-1].add(piece{val: &r, esc: esc})
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("a block is not closed with {{end}}")
	}
	return nil
}

// escaper is how a value at the current place of an HTML block is written.
func (p *parser) escaper() (escaper, error) {
	if !p.html {
		return escNone, nil
	}
	switch {
	case !p.ctx.inTag:
		return escHTML, nil
	case p.ctx.quote == 0:
		return 0, fmt.Errorf("a value inside a tag must be in a quoted attribute value")
	case p.ctx.attr == "href" || p.ctx.attr == "src":
		return escURL, nil
	}
	return escHTML, nil
}

// htmlContext is where literal HTML has left off: in element text, or in
// a tag, in the quoted value of an attribute.
type htmlContext struct {
	inTag bool
	attr  string // the attribute being written, lower-cased
	quote byte   // its value's quote, 0 outside a value
}

// after is the context after text.
func (c htmlContext) after(text string) htmlContext {
	for i := 0; i < len(text); i++ {
		b := text[i]
		switch {
		case c.quote != 0:
			if b == c.quote {
				c.quote, c.attr = 0, ""
			}
		case !c.inTag:
			if b == '<' {
				c = htmlContext{inTag: true}
			}
		case b == '>':
			c = htmlContext{}
		case b == '"' || b == '\'':
			c.quote = b
		case b == '=':
			// the name before it is the attribute's
			j := i
			for j > 0 && text[j-1] == ' ' {
				j--
			}
			k := j
			for k > 0 && isNameByte(text[k-1]) {
				k--
			}
			c.attr = strings.ToLower(text[k:j])
		}
	}
	return c
}

func isNameByte(b byte) bool {
	return b == '-' || b == '_' || b == ':' || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') || ('0' <= b && b <= '9')
}

func quoted(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' || strings.ContainsAny(s[1:len(s)-1], `"\`) {
		return "", fmt.Errorf("%s is not a quoted name", s)
	}
	return s[1 : len(s)-1], nil
}

var fields = map[string]bool{"Locale": true, "Subject": true, "Name": true, "Email": true, "Link": true, "ValidHours": true, "Change": true}

func parseRef(s string) (ref, error) {
	if f, ok := strings.CutPrefix(s, "."); ok && fields[f] {
		return ref{field: f}, nil
	}
	if rest, ok := strings.CutPrefix(s, "index .Vars "); ok {
		key, err := quoted(strings.TrimSpace(rest))
		if err != nil {
			return ref{}, err
		}
		return ref{field: "Vars", key: key}, nil
	}
	return ref{}, fmt.Errorf("not a value of the mail templates' language")
}

// execute writes block name of blocks with d.
func execute(b *strings.Builder, blocks map[string]block, name string, d *TemplateData, depth int) error {
	p, ok := blocks[name]
	if !ok {
		return fmt.Errorf("no block %q", name)
	}
	if depth > 4 {
		return fmt.Errorf("block %q calls itself", name)
	}
	return run(b, blocks, p, d, depth)
}

func run(b *strings.Builder, blocks map[string]block, p block, d *TemplateData, depth int) error {
	for _, pc := range p {
		switch {
		case pc.val != nil:
			s, _ := pc.val.value(d)
			switch pc.esc {
			case escHTML:
				s = escapeHTML(s)
			case escURL:
				s = escapeHTML(normalizeURL(filterURL(s)))
			}
			b.WriteString(s)
		case pc.cond != nil:
			branch := pc.els
			if _, truth := pc.cond.value(d); truth {
				branch = pc.then
			}
			if err := run(b, blocks, branch, d, depth); err != nil {
				return err
			}
		case pc.call != "":
			if err := execute(b, blocks, pc.call, d, depth+1); err != nil {
				return err
			}
		default:
			b.WriteString(pc.text)
		}
	}
	return nil
}

// escapeHTML escapes a value for element text or a quoted attribute
// value: the characters html/template escapes there, as it does.
func escapeHTML(s string) string {
	if !strings.ContainsAny(s, "\x00\"&'+<>") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 0:
			b.WriteString("\uFFFD")
		case '"':
			b.WriteString("&#34;")
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&#39;")
		case '+':
			b.WriteString("&#43;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// filterURL refuses a URL with another scheme than http, https or mailto
// (javascript:…), as html/template does, with its failsafe value.
func filterURL(s string) string {
	if scheme, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(scheme, "/") {
		if !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") && !strings.EqualFold(scheme, "mailto") {
			return "#ZgotmplZ"
		}
	}
	return s
}

// normalizeURL percent-encodes the bytes a URL may not hold as they are
// (RFC 3986: reserved and unreserved characters stay, and so do escapes
// already there), also quotes and parentheses, as html/template does.
func normalizeURL(s string) string {
	var b strings.Builder
	written := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte("!#$&*+,/:;=?@[]-._~", c) >= 0,
			'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
			continue
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			continue
		}
		b.WriteString(s[written:i])
		fmt.Fprintf(&b, "%%%02x", c)
		written = i + 1
	}
	if written == 0 {
		return s
	}
	b.WriteString(s[written:])
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
