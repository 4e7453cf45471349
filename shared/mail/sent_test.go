package mail

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadSent: what the Outbox writes reads back as it was sent: the
// addressee, the subject (encoded words decoded) and both bodies.
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
