package wiki

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"

	"github.com/signintech/gopdf"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
)

// MaxPDFPages bounds the handbook pages of one PDF export (a category's).
const MaxPDFPages = 300

// A4 in points, and the layout.
const (
	pdfW, pdfH = 595.28, 841.89
	pdfMargin  = 48.0
	bodySize   = 10.5
	bodyLead   = 14.5
	codeSize   = 9.0
	codeLead   = 12.0
	listIndent = 16.0
)

// pdfDoc lays handbook pages out on A4 with the Go fonts (TrueType, so
// accents print in any language, as the receipts do with gopdf). Characters
// the fonts lack print as "?" instead of failing the export.
type pdfDoc struct {
	pdf   *gopdf.GoPdf
	y     float64
	err   error
	glyph *sfnt.Font
	buf   sfnt.Buffer
}

func newPDF(title string) (*pdfDoc, error) {
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	pdf.SetInfo(gopdf.PdfInfo{Title: title, Creator: "Oficina"})
	for name, ttf := range map[string][]byte{"go": goregular.TTF, "go-bold": gobold.TTF, "go-italic": goitalic.TTF, "go-mono": gomono.TTF} {
		if err := pdf.AddTTFFontData(name, ttf); err != nil {
			return nil, fmt.Errorf("wiki: pdf font: %w", err)
		}
	}
	f, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("wiki: pdf font: %w", err)
	}
	return &pdfDoc{pdf: pdf, glyph: f}, nil
}

func (d *pdfDoc) fail(err error) {
	if err != nil && d.err == nil {
		d.err = err
	}
}

func (d *pdfDoc) newPage() {
	d.pdf.AddPage()
	d.y = pdfMargin
}

func (d *pdfDoc) font(family string, size float64) { d.fail(d.pdf.SetFont(family, "", size)) }

// printable keeps what the fonts can draw: tabs become spaces, other
// control characters go, and runes without a glyph become "?".
func (d *pdfDoc) printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f:
			return -1
		}
		if i, err := d.glyph.GlyphIndex(&d.buf, r); err != nil || i == 0 {
			return '?'
		}
		return r
	}, s)
}

// write prints text wrapped to width at x, breaking pages as it goes; a
// code block keeps its spaces and breaks long lines anywhere.
func (d *pdfDoc) write(x, width, lead float64, s string, code bool) {
	for _, raw := range strings.Split(strings.ReplaceAll(d.printable(strings.ReplaceAll(s, "\t", "    ")), "\r", ""), "\n") {
		var lines []string
		var err error
		if code {
			lines, err = d.pdf.SplitText(raw, width)
		} else {
			lines, err = d.pdf.SplitTextWithWordWrap(strings.Join(strings.Fields(raw), " "), width)
		}
		if err != nil || len(lines) == 0 {
			lines = []string{""}
		}
		for _, l := range lines {
			if d.y+lead > pdfH-pdfMargin {
				d.newPage()
			}
			d.pdf.SetXY(x, d.y)
			if l != "" {
				d.fail(d.pdf.Cell(nil, l))
			}
			d.y += lead
		}
	}
}

func (d *pdfDoc) rule(x1, x2 float64) {
	if d.y+8 > pdfH-pdfMargin {
		d.newPage()
	}
	d.pdf.SetLineWidth(0.5)
	d.pdf.SetStrokeColor(180, 180, 180)
	d.pdf.Line(x1, d.y+3, x2, d.y+3)
	d.y += 8
}

// page prints one handbook page from a new PDF page: title, categories, then
// its content as the wiki reads it (Markdown, HTML or plain text).
func (d *pdfDoc) page(title string, categories []string, content, contentType string) {
	d.newPage()
	d.pdf.SetTextColor(20, 20, 20)
	d.font("go-bold", 20)
	d.write(pdfMargin, pdfW-2*pdfMargin, 25, title, false)
	if len(categories) > 0 {
		d.pdf.SetTextColor(100, 100, 100)
		d.font("go", 9)
		d.write(pdfMargin, pdfW-2*pdfMargin, 12, strings.Join(categories, " · "), false)
		d.pdf.SetTextColor(20, 20, 20)
	}
	d.rule(pdfMargin, pdfW-pdfMargin)
	switch contentType {
	case "text":
		d.font("go", bodySize)
		d.write(pdfMargin, pdfW-2*pdfMargin, bodyLead, content, false)
	case "html":
		d.font("go", bodySize)
		d.write(pdfMargin, pdfW-2*pdfMargin, bodyLead, htmlText(content), false)
	default:
		src := []byte(content)
		doc := md.Parser().Parse(text.NewReader(src))
		for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
			d.block(c, src, pdfMargin)
		}
	}
}

// block prints one Markdown block at x.
func (d *pdfDoc) block(n ast.Node, src []byte, x float64) {
	width := pdfW - pdfMargin - x
	switch n := n.(type) {
	case *ast.Heading:
		sizes := []float64{0, 17, 14.5, 12.5, 11.5, 11, 11}
		d.y += 6
		d.font("go-bold", sizes[min(n.Level, 6)])
		d.write(x, width, sizes[min(n.Level, 6)]+5, inlineText(n, src), false)
		d.y += 2
	case *ast.Paragraph, *ast.TextBlock:
		d.font("go", bodySize)
		d.write(x, width, bodyLead, inlineText(n, src), false)
		if _, tight := n.(*ast.TextBlock); !tight {
			d.y += 5
		}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(src))
		}
		d.font("go-mono", codeSize)
		d.pdf.SetTextColor(60, 60, 60)
		d.write(x+8, width-8, codeLead, strings.TrimRight(b.String(), "\n"), true)
		d.pdf.SetTextColor(20, 20, 20)
		d.y += 6
	case *ast.List:
		i := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			marker := "•"
			if n.IsOrdered() {
				marker = fmt.Sprintf("%d.", i)
				i++
			}
			if d.y+bodyLead > pdfH-pdfMargin {
				d.newPage()
			}
			d.font("go", bodySize)
			d.pdf.SetXY(x+2, d.y)
			d.fail(d.pdf.Cell(nil, marker))
			for c := item.FirstChild(); c != nil; c = c.NextSibling() {
				d.block(c, src, x+listIndent)
			}
		}
		d.y += 4
	case *ast.Blockquote:
		d.pdf.SetTextColor(90, 90, 90)
		start := d.y
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			d.block(c, src, x+14)
		}
		if d.y > start {
			d.pdf.SetLineWidth(2)
			d.pdf.SetStrokeColor(200, 200, 200)
			d.pdf.Line(x+4, start, x+4, d.y-4)
		}
		d.pdf.SetTextColor(20, 20, 20)
	case *ast.ThematicBreak:
		d.rule(x, pdfW-pdfMargin)
	case *east.Table:
		for row := n.FirstChild(); row != nil; row = row.NextSibling() {
			var cells []string
			for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
				cells = append(cells, inlineText(cell, src))
			}
			if _, head := row.(*east.TableHeader); head {
				d.font("go-bold", bodySize)
			} else {
				d.font("go", bodySize)
			}
			d.write(x, width, bodyLead, strings.Join(cells, "  |  "), false)
		}
		d.y += 5
	case *ast.HTMLBlock:
		var b strings.Builder
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.Write(seg.Value(src))
		}
		if t := strings.TrimSpace(htmlText(b.String())); t != "" {
			d.font("go", bodySize)
			d.write(x, width, bodyLead, t, false)
			d.y += 5
		}
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			d.block(c, src, x)
		}
	}
}

// inlineText is a block's text as a reader sees it: link labels, [[page]]
// labels, images as "[image: alt]", task boxes as [x] / [ ], no markup.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	hidden := 0 // inside inline <script> or <style>: not text
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if _, raw := c.(*ast.RawHTML); !raw && hidden > 0 {
				continue
			}
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Segment.Value(src))
				switch {
				case c.HardLineBreak():
					b.WriteByte('\n')
				case c.SoftLineBreak():
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			case *WikiLink:
				if c.Label != "" {
					b.WriteString(c.Label)
				} else {
					b.WriteString(c.Target)
				}
			case *ast.Image:
				var alt strings.Builder
				for t := c.FirstChild(); t != nil; t = t.NextSibling() {
					if s, ok := t.(*ast.Text); ok {
						alt.Write(s.Segment.Value(src))
					}
				}
				fmt.Fprintf(&b, "[image: %s]", alt.String())
			case *ast.AutoLink:
				b.Write(c.URL(src))
			case *east.TaskCheckBox:
				if c.IsChecked {
					b.WriteString("[x] ")
				} else {
					b.WriteString("[ ] ")
				}
			case *ast.RawHTML:
				// Tags are not text; a script's or style's text is not either.
				var tag strings.Builder
				for i := 0; i < c.Segments.Len(); i++ {
					seg := c.Segments.At(i)
					tag.Write(seg.Value(src))
				}
				t := strings.ToLower(tag.String())
				switch {
				case strings.HasPrefix(t, "<script"), strings.HasPrefix(t, "<style"):
					if !strings.HasSuffix(t, "/>") {
						hidden++
					}
				case strings.HasPrefix(t, "</script"), strings.HasPrefix(t, "</style"):
					hidden = max(hidden-1, 0)
				}
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

// htmlText is an HTML page's text, blocks on their own lines (scripts and
// styles dropped).
func htmlText(s string) string {
	z := nethtml.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case nethtml.ErrorToken:
			return strings.TrimSpace(b.String())
		case nethtml.TextToken:
			if skip == 0 {
				b.WriteString(strings.Join(strings.Fields(string(z.Text())), " "))
				b.WriteByte(' ')
			}
		case nethtml.StartTagToken, nethtml.EndTagToken, nethtml.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch a {
			case atom.Script, atom.Style, atom.Template:
				if tt := z.Token().Type; tt == nethtml.StartTagToken {
					skip++
				} else if tt == nethtml.EndTagToken && skip > 0 {
					skip--
				}
			case atom.P, atom.Div, atom.Br, atom.Li, atom.Tr, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Pre, atom.Blockquote, atom.Table, atom.Ul, atom.Ol, atom.Section, atom.Article:
				b.WriteByte('\n')
			}
		}
	}
}

func (d *pdfDoc) bytes() ([]byte, error) {
	if d.err != nil {
		return nil, fmt.Errorf("wiki: pdf: %w", d.err)
	}
	var b bytes.Buffer
	if err := d.pdf.Write(&b); err != nil {
		return nil, fmt.Errorf("wiki: pdf: %w", err)
	}
	return b.Bytes(), nil
}

// exportPDF answers GET /api/{db}/_wiki/export.pdf?category=&id=: one page,
// a category's pages or the whole wiki (titles A→Z), each from a new PDF
// page, laid out from its Markdown (headings, lists, code, quotes, tables;
// images named by their alt text). At most MaxPDFPages pages.
func (m *Module) exportPDF(w http.ResponseWriter, r *http.Request) error {
	ctx, db := r.Context(), r.PathValue("db")
	pages, name, err := m.exportSelection(r)
	if err != nil {
		return err
	}
	if len(pages) > MaxPDFPages {
		return fault.Newf(fault.BadRequest, "%d pages are more than a PDF takes (%d): export a category, or the Markdown zip", len(pages), MaxPDFPages)
	}
	doc, err := newPDF(name)
	if err != nil {
		return err
	}
	printed := 0
	for _, e := range pages {
		_, body, err := m.loadPage(ctx, db, e.ID)
		if err != nil {
			if isGone(err) {
				continue
			}
			return err
		}
		doc.page(str(body["title"]), docs.Strings(body["categories"]), str(body["content"]), str(body["content_type"]))
		printed++
	}
	if printed == 0 {
		doc.newPage()
		doc.font("go", bodySize)
		doc.write(pdfMargin, pdfW-2*pdfMargin, bodyLead, "No pages.", false)
	}
	out, err := doc.bytes()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.pdf"`, name))
	w.Header().Set("Cache-Control", "private, no-store")
	_, _ = w.Write(out)
	return nil
}
