package mail

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOutboxWritesReadableMessage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outbox")
	var logs bytes.Buffer
	now := time.Date(2025, 10, 15, 12, 30, 0, 0, time.UTC)
	o := NewOutbox(dir, "Oficina <no-reply@oficina.test>", slog.New(slog.NewTextHandler(&logs, nil))).WithClock(func() time.Time { return now })

	msg := Message{
		To:      "ana@example.com",
		Subject: "Confirme seu e-mail — Oficina",
		Text:    "Olá Ana,\nconfirme: https://oficina.test/user/confirm/abc\n",
		HTML:    "<p>Olá Ana, <a href=\"https://oficina.test/user/confirm/abc\">confirme</a></p>",
		Tag:     "confirm",
	}
	if err := o.Send(context.Background(), msg); err != nil {
		t.Fatalf("Send: %v", err)
	}

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("want 1 file (no temp files left), got %d", len(entries))
	}
	name := entries[0].Name()
	if !strings.HasPrefix(name, "20251015T123000.000000000Z-confirm-") || !strings.HasSuffix(name, ".eml") {
		t.Errorf("file name %q", name)
	}
	info, err := entries[0].Info()
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("file mode %v, want 0600", perm)
	}
	if !strings.Contains(logs.String(), "to=ana@example.com") || !strings.Contains(logs.String(), name) {
		t.Errorf("log line missing recipient or file: %s", logs.String())
	}

	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	parsed, err := mail.ReadMessage(f)
	if err != nil {
		t.Fatalf("net/mail cannot read the file: %v", err)
	}
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(parsed.Header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	if subject != msg.Subject {
		t.Errorf("Subject %q, want %q", subject, msg.Subject)
	}
	if to, err := parsed.Header.AddressList("To"); err != nil || len(to) != 1 || to[0].Address != msg.To {
		t.Errorf("To = %v, %v", to, err)
	}
	if from, err := parsed.Header.AddressList("From"); err != nil || from[0].Address != "no-reply@oficina.test" {
		t.Errorf("From = %v, %v", from, err)
	}
	if d, err := parsed.Header.Date(); err != nil || !d.Equal(now) {
		t.Errorf("Date = %v, %v", d, err)
	}
	if got := parsed.Header.Get(TagHeader); got != "confirm" {
		t.Errorf("%s = %q", TagHeader, got)
	}

	mt, params, err := mime.ParseMediaType(parsed.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q: %v", mt, err)
	}
	mr := multipart.NewReader(parsed.Body, params["boundary"])
	bodies := map[string]string{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		pt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		var r io.Reader = p
		if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			r = quotedprintable.NewReader(p)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		bodies[pt] = string(b)
	}
	if got := strings.ReplaceAll(bodies["text/plain"], "\r\n", "\n"); got != msg.Text {
		t.Errorf("text part %q, want %q", got, msg.Text)
	}
	if got := strings.ReplaceAll(bodies["text/html"], "\r\n", "\n"); got != msg.HTML {
		t.Errorf("html part %q, want %q", got, msg.HTML)
	}
}

func TestOutboxRejectsBadMessageWithoutWriting(t *testing.T) {
	dir := t.TempDir()
	o := NewOutbox(dir, "no-reply@oficina.test", slog.New(slog.DiscardHandler))
	if err := o.Send(context.Background(), Message{To: "not an address", Subject: "x", Text: "y"}); err == nil {
		t.Fatal("want an error for a bad recipient")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("files written for a failed send: %v", entries)
	}
}

func TestOutboxFileNamesAreUniqueAndSafe(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	o := NewOutbox(dir, "no-reply@oficina.test", slog.New(slog.DiscardHandler)).WithClock(func() time.Time { return now })
	for range 3 {
		if err := o.Send(context.Background(), Message{To: "a@example.com", Subject: "s", Text: "t", Tag: "../Re set"}); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Fatalf("want 3 distinct files, got %d", len(entries))
	}
	for _, e := range entries {
		if !strings.Contains(e.Name(), "-__re_set-") {
			t.Errorf("tag not sanitised in %q", e.Name())
		}
	}
}

// TestReadSent: what the Outbox writes reads back as it was sent: the
// addressee, the subject (encoded words decoded) and both bodies; ReadOutbox
// reads the dir's messages, and none from a dir not made yet.
func TestReadSent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outbox")
	o := NewOutbox(dir, "Oficina <no-reply@oficina.test>", slog.New(slog.DiscardHandler))
	msg := Message{To: "ana@example.com", Subject: "Confirme seu e-mail — Oficina", Text: "Olá Ana, confirme já.\n", HTML: "<p>Olá Ana, <b>confirme</b> já.</p>", Tag: "confirm"}
	if err := o.Send(context.Background(), msg); err != nil {
		t.Fatalf("Send: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 {
		t.Fatalf("outbox: %v, %d files", err, len(entries))
	}
	got, err := ReadSent(filepath.Join(dir, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	if all, err := ReadOutbox(dir); err != nil || len(all) != 1 || all[0].File != got.File {
		t.Errorf("ReadOutbox = %d messages, %v", len(all), err)
	}
	if none, err := ReadOutbox(filepath.Join(dir, "not-yet")); err != nil || len(none) != 0 {
		t.Errorf("an outbox not made yet: %d messages, %v", len(none), err)
	}
	if got.File != entries[0].Name() || got.To != msg.To || got.Subject != msg.Subject || got.Header.Get(TagHeader) != "confirm" {
		t.Errorf("read back %q to %q, %q, tag %q", got.File, got.To, got.Subject, got.Header.Get(TagHeader))
	}
	// The message travels with CRLF line ends.
	if strings.ReplaceAll(got.Text, "\r\n", "\n") != msg.Text || got.HTML != msg.HTML {
		t.Errorf("bodies: %q, %q", got.Text, got.HTML)
	}
	if _, err := ReadSent(filepath.Join(dir, "missing.eml")); err == nil {
		t.Error("a missing file reads without an error")
	}
}
