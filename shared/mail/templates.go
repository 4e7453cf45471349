package mail

import (
	"embed"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// Locales the product writes mail in (SPEC.md §9); DefaultLocale is the
// fallback for anything else.
const (
	DefaultLocale = "en"
	LocalePtBR    = "pt-BR"
)

//go:embed templates/*.txt templates/*.html
var templateFiles embed.FS

// TemplateData is what every message template sees.
type TemplateData struct {
	Locale     string // set by Render
	Subject    string // set by Render, for the HTML <title>
	Name       string // how to greet the recipient
	Email      string // the address the message is about
	Link       string // the one action of the message
	ValidHours int    // how long Link works
	Change     bool   // confirm: a change of address rather than a new account
	// Vars carries anything a later message kind needs without a new field.
	Vars map[string]string
}

// Templates renders the product's localized messages: for each kind and
// locale, <kind>.<locale>.txt defines "subject" and "text", and
// <kind>.<locale>.html defines "content" inside layout.html, where every
// value is escaped for its HTML context (render.go: the templates'
// language and why it is not text/template's).
type Templates struct {
	text map[string]map[string]block // key "<kind>.<locale>" → blocks
	html map[string]map[string]block
}

// Renderer renders a message kind for one recipient: *Templates. The
// services take it as a dependency, loaded once per process, rather than
// each parsing the templates at start; a deployable that sends no mail
// gives them NoTemplates.
type Renderer interface {
	Render(name, locale, to string, data TemplateData) (Message, error)
}

// NoTemplates renders nothing: the renderer of a deployable that sends no
// mail.
var NoTemplates Renderer = noTemplates{}

type noTemplates struct{}

func (noTemplates) Render(name, _, _ string, _ TemplateData) (Message, error) {
	return Message{}, fmt.Errorf("mail: no templates to render %s: this deployable sends no mail", name)
}

// LoadTemplates parses the embedded templates once; call it at start-up and
// keep the result.
func LoadTemplates() (*Templates, error) {
	t := &Templates{text: map[string]map[string]block{}, html: map[string]map[string]block{}}
	raw, err := fs.ReadFile(templateFiles, "templates/layout.html")
	if err != nil {
		return nil, fmt.Errorf("mail templates: layout: %w", err)
	}
	layout, err := parseBlocks(string(raw), true)
	if err != nil {
		return nil, fmt.Errorf("mail templates: layout: %w", err)
	}
	if _, ok := layout["layout"]; !ok {
		return nil, fmt.Errorf("mail templates: layout.html does not define \"layout\"")
	}
	names, err := fs.Glob(templateFiles, "templates/*.txt")
	if err != nil {
		return nil, fmt.Errorf("mail templates: %w", err)
	}
	for _, name := range names {
		key := strings.TrimSuffix(strings.TrimPrefix(name, "templates/"), ".txt")
		raw, err := fs.ReadFile(templateFiles, name)
		if err != nil {
			return nil, fmt.Errorf("mail templates: %s: %w", name, err)
		}
		tt, err := parseBlocks(string(raw), false)
		if err != nil {
			return nil, fmt.Errorf("mail templates: %s: %w", name, err)
		}
		for _, def := range []string{"subject", "text"} {
			if tt[def] == nil {
				return nil, fmt.Errorf("mail templates: %s does not define %q", name, def)
			}
		}
		if raw, err = fs.ReadFile(templateFiles, "templates/"+key+".html"); err != nil {
			return nil, fmt.Errorf("mail templates: %s.html: %w", key, err)
		}
		ht, err := parseBlocks(string(raw), true)
		if err != nil {
			return nil, fmt.Errorf("mail templates: %s.html: %w", key, err)
		}
		if ht["content"] == nil {
			return nil, fmt.Errorf("mail templates: %s.html does not define \"content\"", key)
		}
		ht["layout"] = layout["layout"]
		t.text[key] = tt
		t.html[key] = ht
	}
	return t, nil
}

// Render builds the message of kind for to in locale (falling back to
// English), tagged with kind.
func (t *Templates) Render(kind, locale, to string, data TemplateData) (Message, error) {
	if locale != LocalePtBR {
		locale = DefaultLocale
	}
	key := kind + "." + locale
	tt, ok := t.text[key]
	if !ok {
		return Message{}, fmt.Errorf("mail templates: no template %q", key)
	}
	data.Locale = locale
	var subject, text, html strings.Builder
	if err := execute(&subject, tt, "subject", &data, 0); err != nil {
		return Message{}, fmt.Errorf("mail templates: %s subject: %w", key, err)
	}
	data.Subject = strings.TrimSpace(subject.String())
	if err := execute(&text, tt, "text", &data, 0); err != nil {
		return Message{}, fmt.Errorf("mail templates: %s text: %w", key, err)
	}
	if err := execute(&html, t.html[key], "layout", &data, 0); err != nil {
		return Message{}, fmt.Errorf("mail templates: %s html: %w", key, err)
	}
	return Message{
		To:      to,
		Subject: data.Subject,
		Text:    strings.TrimLeft(text.String(), "\n"),
		HTML:    html.String(),
		Tag:     kind,
	}, nil
}

// FormatInt writes n with the locale's thousands separator: 1,000 in
// English, 1.000 in Portuguese.
func FormatInt(n int64, locale string) string {
	sep := ","
	if locale == LocalePtBR {
		sep = "."
	}
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, sep...)
		}
		out = append(out, c)
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
