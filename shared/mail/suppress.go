package mail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	netmail "net/mail"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/store"
)

// Why the product stops mailing an address (SES's feedback, mail/ses).
const (
	// ReasonBounce: the address bounced for good (a permanent bounce:
	// it does not exist, the domain does not take mail).
	ReasonBounce = "bounce"
	// ReasonComplaint: its owner marked the product's mail as spam.
	ReasonComplaint = "complaint"
)

// SuppressionKind is the store record kind of the suppression list (key:
// the address, lower-cased). A store record, not a document: it belongs to
// no Group and shows in no changes feed or backup.
const SuppressionKind = "mail.suppressed"

// Suppression is one address the product no longer mails.
type Suppression struct {
	Address string    `json:"address"`
	Reason  string    `json:"reason"`           // ReasonBounce or ReasonComplaint
	Detail  string    `json:"detail,omitempty"` // the bounce's type and diagnostic, or the complaint's feedback type
	Kind    string    `json:"kind,omitempty"`   // the Message.Tag of the mail that bounced
	At      time.Time `json:"at"`               // when SES reported it
}

// Suppressions is the suppression list in the store, shared by every
// process (the API, the worker that records feedback, the local server).
type Suppressions struct {
	st store.Store
}

// NewSuppressions returns the list kept in st.
func NewSuppressions(st store.Store) *Suppressions { return &Suppressions{st: st} }

// NormalAddress is the list's key for an address: the bare address of
// "Name <a@b>", trimmed and lower-cased (the product keeps e-mail addresses
// lower-cased throughout).
func NormalAddress(addr string) string {
	addr = strings.TrimSpace(addr)
	if a, err := netmail.ParseAddress(addr); err == nil {
		addr = a.Address
	}
	return strings.ToLower(addr)
}

// Add puts s on the list (a later report replaces an earlier one).
func (l *Suppressions) Add(ctx context.Context, s Suppression) error {
	s.Address = NormalAddress(s.Address)
	if s.Address == "" {
		return errors.New("mail: suppress an empty address")
	}
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("mail: suppress %s: %w", s.Address, err)
	}
	if err := l.st.PutRecord(ctx, store.Record{Kind: SuppressionKind, Key: s.Address, Value: b}, false); err != nil {
		return fmt.Errorf("mail: suppress %s: %w", s.Address, err)
	}
	return nil
}

// Lookup says whether addr is on the list, and why.
func (l *Suppressions) Lookup(ctx context.Context, addr string) (Suppression, bool, error) {
	key := NormalAddress(addr)
	if key == "" {
		return Suppression{}, false, nil
	}
	rec, err := l.st.GetRecord(ctx, SuppressionKind, key)
	if errors.Is(err, store.ErrNotFound) {
		return Suppression{}, false, nil
	}
	if err != nil {
		return Suppression{}, false, fmt.Errorf("mail: suppression of %s: %w", key, err)
	}
	var s Suppression
	if err := json.Unmarshal(rec.Value, &s); err != nil {
		return Suppression{}, false, fmt.Errorf("mail: suppression of %s: %w", key, err)
	}
	return s, true, nil
}

// Remove takes addr off the list (the owner fixed the mailbox; also
// remove it from SES's account-level suppression list).
func (l *Suppressions) Remove(ctx context.Context, addr string) error {
	if err := l.st.DeleteRecord(ctx, SuppressionKind, NormalAddress(addr)); err != nil {
		return fmt.Errorf("mail: lift the suppression of %s: %w", addr, err)
	}
	return nil
}

// Guard wraps the product's sender so that every mail path — confirmation
// and reset links, invitations, limit mail, the weekly summary — passes
// one suppression check: a message to a suppressed address is dropped and
// logged, and Send answers nil, as SES does for an address on its own
// suppression list (callers then keep their "sent" marks and do not retry).
func Guard(next Sender, list *Suppressions, log *slog.Logger) Sender {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &guarded{next: next, list: list, log: log}
}

type guarded struct {
	next Sender
	list *Suppressions
	log  *slog.Logger
}

func (g *guarded) Send(ctx context.Context, m Message) error {
	s, suppressed, err := g.list.Lookup(ctx, m.To)
	if err != nil {
		return err
	}
	if suppressed {
		g.log.InfoContext(ctx, "mail not sent: the address is suppressed", "kind", m.Tag, "reason", s.Reason, "since", s.At)
		return nil
	}
	return g.next.Send(ctx, m)
}

// Unwrap returns the sender the guard wraps.
func (g *guarded) Unwrap() Sender { return g.next }
