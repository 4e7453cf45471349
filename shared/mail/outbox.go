package mail

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Outbox is the embedded Sender: every message becomes an .eml file in Dir,
// so a developer running the product locally can open the confirmation and
// reset mails (and tests can read them back) without any mail server.
type Outbox struct {
	dir  string
	from string
	log  *slog.Logger
	now  func() time.Time
}

// NewOutbox returns an Outbox writing to dir (created 0700 on first send)
// with from as the sender. log may be nil.
func NewOutbox(dir, from string, log *slog.Logger) *Outbox {
	if log == nil {
		log = slog.Default()
	}
	return &Outbox{dir: dir, from: from, log: log, now: time.Now}
}

// WithClock makes the outbox date messages and name files by now (tests).
func (o *Outbox) WithClock(now func() time.Time) *Outbox {
	o.now = now
	return o
}

// Dir is the folder the messages are written to.
func (o *Outbox) Dir() string { return o.dir }

// Send writes m as <dir>/<timestamp>-<tag>-<random>.eml. The file appears
// whole or not at all (temp file + rename), so a reader polling the folder
// never sees a half-written message.
func (o *Outbox) Send(ctx context.Context, m Message) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	now := o.now()
	raw, err := BuildMIME(o.from, m, now)
	if err != nil {
		return fmt.Errorf("outbox: build message: %w", err)
	}
	if err := os.MkdirAll(o.dir, 0o700); err != nil {
		return fmt.Errorf("outbox: create dir: %w", err)
	}
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return fmt.Errorf("outbox: random name: %w", err)
	}
	// The timestamp leads so that a plain directory listing is in send order.
	name := fmt.Sprintf("%s-%s-%s.eml", now.UTC().Format("20060102T150405.000000000Z"), fileTag(m.Tag), hex.EncodeToString(rnd[:]))
	final := filepath.Join(o.dir, name)

	tmp, err := os.CreateTemp(o.dir, ".tmp-*.eml")
	if err != nil {
		return fmt.Errorf("outbox: create temp file: %w", err)
	}
	tmpName := tmp.Name()
	cleanup := func() { _ = os.Remove(tmpName) }
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		cleanup()
		return fmt.Errorf("outbox: chmod: %w", err)
	}
	if _, err := tmp.Write(raw); err != nil {
		_ = tmp.Close()
		cleanup()
		return fmt.Errorf("outbox: write: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		cleanup()
		return fmt.Errorf("outbox: sync: %w", err)
	}
	if err := tmp.Close(); err != nil {
		cleanup()
		return fmt.Errorf("outbox: close: %w", err)
	}
	if err := os.Rename(tmpName, final); err != nil {
		cleanup()
		return fmt.Errorf("outbox: rename: %w", err)
	}
	o.log.InfoContext(ctx, "mail written to outbox", "to", m.To, "subject", m.Subject, "tag", m.Tag, "file", final)
	return nil
}

// fileTag keeps a tag safe for a file name: lowercase letters, digits, '_'.
func fileTag(tag string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(tag) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		case r == '-' || r == ' ' || r == '.':
			b.WriteByte('_')
		}
		if b.Len() >= 32 {
			break
		}
	}
	if b.Len() == 0 {
		return "mail"
	}
	return b.String()
}
