package mail

import (
	"strings"
	"testing"
)

func TestTemplatesRenderEveryKindAndLocale(t *testing.T) {
	tpl, err := LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		kind, locale string
		change       bool
		subject      string
		textHas      string
	}{
		{"confirm", "en", false, "Confirm your e-mail — Oficina", "Welcome to Oficina"},
		{"confirm", "en", true, "Confirm your new e-mail — Oficina", "change the e-mail"},
		{"confirm", "pt-BR", false, "Confirme seu e-mail — Oficina", "Boas-vindas"},
		{"confirm", "pt-BR", true, "Confirme seu novo e-mail — Oficina", "trocar o e-mail"},
		{"reset", "en", false, "Reset your password — Oficina", "reset the password"},
		{"reset", "pt-BR", false, "Redefina sua senha — Oficina", "redefinir a senha"},
		{"reset", "fr", false, "Reset your password — Oficina", "reset the password"}, // unknown locale falls back to en
		{"invite", "en", false, "Rita invited you to Oficina & Co — Oficina", `join the Group "Oficina & Co"`},
		{"invite", "pt-BR", false, "Rita convidou você para Oficina & Co — Oficina", `participar do Grupo "Oficina & Co"`},
	}
	for _, c := range cases {
		t.Run(c.kind+"/"+c.locale, func(t *testing.T) {
			m, err := tpl.Render(c.kind, c.locale, "ana@example.com", TemplateData{
				Name: "Ana <b>", Email: "ana@example.com", Link: "https://oficina.test/user/x/tok?a=1&b=2", ValidHours: 24, Change: c.change,
				Vars: map[string]string{"inviter": "Rita", "group": "Oficina & Co"},
			})
			if err != nil {
				t.Fatal(err)
			}
			if m.Subject != c.subject || m.To != "ana@example.com" || m.Tag != c.kind {
				t.Errorf("got subject %q to %q tag %q", m.Subject, m.To, m.Tag)
			}
			if !strings.Contains(m.Text, c.textHas) || !strings.Contains(m.Text, "https://oficina.test/user/x/tok?a=1&b=2") || (c.kind != "invite" && !strings.Contains(m.Text, "24")) {
				t.Errorf("text body:\n%s", m.Text)
			}
			if !strings.Contains(m.HTML, `href="https://oficina.test/user/x/tok?a=1&amp;b=2"`) {
				t.Errorf("html body lacks the escaped link:\n%s", m.HTML)
			}
			if strings.Contains(m.HTML, "Ana <b>") || !strings.Contains(m.HTML, "Ana &lt;b&gt;") {
				t.Errorf("html body does not escape the name:\n%s", m.HTML)
			}
		})
	}
	if _, err := tpl.Render("nope", "en", "a@example.com", TemplateData{}); err == nil {
		t.Error("unknown kind: want an error")
	}
}

func TestFormatInt(t *testing.T) {
	for _, c := range []struct {
		n      int64
		locale string
		want   string
	}{
		{0, "en", "0"},
		{999, "en", "999"},
		{1000, "en", "1,000"},
		{1000, LocalePtBR, "1.000"},
		{-1234567, "en", "-1,234,567"},
		{100000, LocalePtBR, "100.000"},
	} {
		if got := FormatInt(c.n, c.locale); got != c.want {
			t.Errorf("FormatInt(%d, %s) = %q, want %q", c.n, c.locale, got, c.want)
		}
	}
}
