package mail_test

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	oficinamail "github.com/oficina/oficina/shared/mail"
)

var when = time.Date(2026, 3, 14, 9, 26, 53, 0, time.FixedZone("BRT", -3*3600))

func TestBuildMIMEAlternative(t *testing.T) {
	m := oficinamail.Message{
		To:      "Zé Ninguém <ze@example.com>",
		Subject: "Confirme seu e-mail — Oficina",
		Text:    "Olá, Zé!\nClique no link para confirmar: https://oficina.example/confirm?t=abc\n",
		HTML:    "<p>Olá, Zé!</p><p><a href=\"https://oficina.example/confirm?t=abc\">Confirmar</a></p>",
		Tag:     "confirm",
	}
	raw, err := oficinamail.BuildMIME("Oficina <no-reply@oficina.example>", m, when)
	if err != nil {
		t.Fatal(err)
	}
	checkLines(t, raw)
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("not a parseable message: %v\n%s", err, raw)
	}
	h := msg.Header
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(h.Get("Subject"))
	if err != nil || subject != m.Subject {
		t.Errorf("subject decodes to %q (%v), want %q; raw %q", subject, err, m.Subject, h.Get("Subject"))
	}
	if !strings.Contains(string(raw), "=?utf-8?q?") {
		t.Errorf("non-ASCII subject is not Q-encoded:\n%s", raw)
	}
	from, err := h.AddressList("From")
	if err != nil || len(from) != 1 || from[0].Address != "no-reply@oficina.example" || from[0].Name != "Oficina" {
		t.Errorf("From = %v (%v)", from, err)
	}
	to, err := h.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Address != "ze@example.com" || to[0].Name != "Zé Ninguém" {
		t.Errorf("To = %v (%v)", to, err)
	}
	if d, err := h.Date(); err != nil || !d.Equal(when) {
		t.Errorf("Date = %v (%v), want %v", d, err, when)
	}
	if id := h.Get("Message-ID"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@oficina.example>") {
		t.Errorf("Message-ID = %q", id)
	}
	if v := h.Get("MIME-Version"); v != "1.0" {
		t.Errorf("MIME-Version = %q", v)
	}
	if v := h.Get(oficinamail.TagHeader); v != "confirm" {
		t.Errorf("%s = %q", oficinamail.TagHeader, v)
	}
	parts := readParts(t, msg)
	if len(parts) != 2 {
		t.Fatalf("got %d parts, want 2", len(parts))
	}
	if parts[0].mediaType != "text/plain" || parts[1].mediaType != "text/html" {
		t.Errorf("parts are %s, %s; want text/plain then text/html", parts[0].mediaType, parts[1].mediaType)
	}
	wantText := strings.ReplaceAll(m.Text, "\n", "\r\n")
	if parts[0].body != wantText {
		t.Errorf("text part = %q, want %q", parts[0].body, wantText)
	}
	if parts[1].body != m.HTML {
		t.Errorf("html part = %q, want %q", parts[1].body, m.HTML)
	}
	for _, p := range parts {
		if p.charset != "utf-8" || p.cte != "quoted-printable" {
			t.Errorf("%s: charset %q, transfer encoding %q", p.mediaType, p.charset, p.cte)
		}
	}
}

func TestBuildMIMESinglePart(t *testing.T) {
	for _, tc := range []struct {
		name, text, html, want string
	}{
		{"text only", "just text", "", "text/plain"},
		{"html only", "", "<b>just html</b>", "text/html"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := oficinamail.BuildMIME("no-reply@oficina.example", oficinamail.Message{
				To: "a@example.com", Subject: "Hi", Text: tc.text, HTML: tc.html,
			}, when)
			if err != nil {
				t.Fatal(err)
			}
			msg, err := mail.ReadMessage(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
			if err != nil || mt != tc.want || params["charset"] != "utf-8" {
				t.Errorf("Content-Type %q: %s %v %v", msg.Header.Get("Content-Type"), mt, params, err)
			}
			if msg.Header.Get(oficinamail.TagHeader) != "" {
				t.Errorf("tag header written for an untagged message")
			}
		})
	}
}

func TestBuildMIMELongSubjectIsFoldedAndDecodable(t *testing.T) {
	subject := strings.Repeat("Ordem de serviço nº 42 — atualização ", 6)
	raw, err := oficinamail.BuildMIME("no-reply@oficina.example", oficinamail.Message{
		To: "a@example.com", Subject: subject, Text: "x",
	}, when)
	if err != nil {
		t.Fatal(err)
	}
	checkLines(t, raw)
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	got, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil || got != subject {
		t.Errorf("subject decodes to %q (%v), want %q", got, err, subject)
	}
}

func TestBuildMIMERejects(t *testing.T) {
	ok := oficinamail.Message{To: "a@example.com", Subject: "s", Text: "t"}
	for name, tc := range map[string]struct {
		from string
		m    oficinamail.Message
	}{
		"bad from":         {"not an address", ok},
		"bad to":           {"x@example.com", oficinamail.Message{To: "nobody", Subject: "s", Text: "t"}},
		"header injection": {"x@example.com", oficinamail.Message{To: "a@example.com", Subject: "s\r\nBcc: evil@example.com", Text: "t"}},
		"to injection":     {"x@example.com", oficinamail.Message{To: "a@example.com\r\nBcc: evil@example.com", Subject: "s", Text: "t"}},
		"no body":          {"x@example.com", oficinamail.Message{To: "a@example.com", Subject: "s"}},
		"tag with newline": {"x@example.com", oficinamail.Message{To: "a@example.com", Subject: "s", Text: "t", Tag: "a\nb"}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := oficinamail.BuildMIME(tc.from, tc.m, when); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestAddress(t *testing.T) {
	got, err := oficinamail.Address("Oficina <no-reply@oficina.example>")
	if err != nil || got != "no-reply@oficina.example" {
		t.Errorf("Address = %q, %v", got, err)
	}
}

// checkLines asserts CRLF line ends and the RFC 5322 limit of 998 octets a
// line, and that the header lines stay near the recommended 78.
func checkLines(t *testing.T, raw []byte) {
	t.Helper()
	s := string(raw)
	if strings.Contains(strings.ReplaceAll(s, "\r\n", ""), "\n") {
		t.Error("bare LF in message")
	}
	head, _, _ := strings.Cut(s, "\r\n\r\n")
	for _, l := range strings.Split(head, "\r\n") {
		if len(l) > 78 {
			t.Errorf("header line of %d octets: %q", len(l), l)
		}
	}
	for _, l := range strings.Split(s, "\r\n") {
		if len(l) > 998 {
			t.Errorf("line of %d octets", len(l))
		}
	}
}

type decodedPart struct {
	mediaType, charset, cte, body string
}

// readParts returns the decoded parts of a multipart message. multipart.Reader
// removes Content-Transfer-Encoding: quoted-printable and decodes the body, so
// cte is read from the raw part header before that happens.
func readParts(t *testing.T, msg *mail.Message) []decodedPart {
	t.Helper()
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q: %v", msg.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	var out []decodedPart
	for {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		pt, pp, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if err != nil {
			t.Fatal(err)
		}
		cte := p.Header.Get("Content-Transfer-Encoding")
		var body io.Reader = p
		if strings.EqualFold(cte, "quoted-printable") {
			body = quotedprintable.NewReader(p)
		}
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, decodedPart{pt, pp["charset"], cte, string(b)})
	}
}
