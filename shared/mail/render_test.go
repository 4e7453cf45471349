package mail

import (
	"bytes"
	htmltemplate "html/template"
	"io/fs"
	"strings"
	"testing"
	texttemplate "text/template"
)

// reference renders as the templates were rendered before render.go:
// text/template and html/template (here in a test only, so no binary
// links them).
type reference struct {
	text map[string]*texttemplate.Template
	html map[string]*htmltemplate.Template
}

func loadReference(t *testing.T) reference {
	t.Helper()
	ref := reference{text: map[string]*texttemplate.Template{}, html: map[string]*htmltemplate.Template{}}
	layout, err := htmltemplate.ParseFS(templateFiles, "templates/layout.html")
	if err != nil {
		t.Fatal(err)
	}
	names, _ := fs.Glob(templateFiles, "templates/*.txt")
	for _, name := range names {
		key := strings.TrimSuffix(strings.TrimPrefix(name, "templates/"), ".txt")
		tt, err := texttemplate.New(key).Option("missingkey=error").ParseFS(templateFiles, name)
		if err != nil {
			t.Fatal(err)
		}
		ht, _ := layout.Clone()
		if ht, err = ht.ParseFS(templateFiles, "templates/"+key+".html"); err != nil {
			t.Fatal(err)
		}
		ref.text[key], ref.html[key] = tt, ht
	}
	return ref
}

func (r reference) render(t *testing.T, key string, d TemplateData) (subject, text, html string) {
	t.Helper()
	var s, x, h bytes.Buffer
	if err := r.text[key].ExecuteTemplate(&s, "subject", d); err != nil {
		t.Fatal(err)
	}
	d.Subject = strings.TrimSpace(s.String())
	if err := r.text[key].ExecuteTemplate(&x, "text", d); err != nil {
		t.Fatal(err)
	}
	if err := r.html[key].ExecuteTemplate(&h, "layout", d); err != nil {
		t.Fatal(err)
	}
	return d.Subject, strings.TrimLeft(x.String(), "\n"), h.String()
}

// TestRenderMatchesHTMLTemplate renders every template, in both locales,
// with ordinary and hostile values — markup, quotes, "+", NUL, URLs with
// spaces, accents, quotes, escapes and other schemes (javascript:) — through
// text/template and html/template and through render.go, and requires the
// same subject, text and HTML byte for byte.
func TestRenderMatchesHTMLTemplate(t *testing.T) {
	ref := loadReference(t)
	tpl, err := LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	hostile := `<script>alert("x")</script> & 'q' + 1 ` + "\x00"
	links := []string{
		"https://app.oficina.test/user/confirm/abc?a=1&b=2", "HTTPS://App.Test/x y/ção?q='1'&r=\"2\"#f(3)",
		"javascript:alert(1)", "JavaScript:void(0)", "mailto:ana@example.com", "/relative/path?x=%41%zz%4", "data:text/html,<b>",
		"https://x.test/%E2%9C%93/a+b;c,d[e]@f!$*~", "",
	}
	datas := []TemplateData{
		{Name: "Ana", Email: "ana@example.com", Link: links[0], ValidHours: 24,
			Vars: map[string]string{"inviter": "Rita", "group": "Oficina & Co", "records": "1,000", "limit": "1,000", "deadline": "May 4, 2026"}},
		{Name: "", Email: hostile, Link: links[1], ValidHours: 0, Change: true, Vars: map[string]string{"group": hostile, "deadline": ""}},
		{Name: hostile, Email: "a+b@example.com", Link: links[2], ValidHours: 1, Vars: nil},
	}
	for _, l := range links[3:] {
		datas = append(datas, TemplateData{Name: "Zé", Email: "ze@example.com", Link: l, ValidHours: 48, Change: true,
			Vars: map[string]string{"inviter": "Bia", "group": "G", "tickets_link": l, "incomes_link": l, "expenses_link": l, "prefs_link": l, "deadline": "x"}})
	}
	n := 0
	for key := range ref.text {
		kind, locale, _ := strings.Cut(key, ".")
		for i, d := range datas {
			subject, text, html := ref.render(t, key, TemplateData{Locale: locale, Name: d.Name, Email: d.Email, Link: d.Link,
				ValidHours: d.ValidHours, Change: d.Change, Vars: d.Vars})
			m, err := tpl.Render(kind, locale, "x@example.com", d)
			if err != nil {
				t.Fatalf("%s #%d: %v", key, i, err)
			}
			if m.Subject != subject || m.Text != text || m.HTML != html {
				t.Errorf("%s #%d differs from html/template:\nsubject %q\n   want %q\ntext %q\n   want %q\nhtml %s\n   want %s", key, i, m.Subject, subject, m.Text, text, m.HTML, html)
			}
			n++
		}
	}
	if n < 14*len(datas) {
		t.Fatalf("%d renderings compared", n)
	}
}

// TestRenderRefusesOtherSyntax: what the language does not have fails at
// load time, never at send time.
func TestRenderRefusesOtherSyntax(t *testing.T) {
	for _, src := range []string{
		`{{define "text"}}{{.Missing}}{{end}}`,
		`{{define "text"}}{{printf "%s" .Name}}{{end}}`,
		`{{define "text"}}{{range .Vars}}x{{end}}{{end}}`,
		`{{define "text"}}{{if .Name}}x{{end}}`,
		`{{define "text"}}{{else}}{{end}}`,
		`{{define "text"}}{{.Name}`,
		`stray {{define "text"}}x{{end}}`,
		`{{define "content"}}<a {{.Link}}>x</a>{{end}}`,
		`{{define "content"}}<a href={{.Link}}>x</a>{{end}}`,
	} {
		if _, err := parseBlocks(src, true); err == nil {
			t.Errorf("%q parsed", src)
		}
	}
}
