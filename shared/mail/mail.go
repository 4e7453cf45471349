// Package mail is the outgoing mail port. The embedded implementation
// (Outbox) writes each message as an .eml file; the cloud one sends it
// through Amazon SES.
package mail

import (
	"context"
	"fmt"
)

// Message is one email with a plain-text and an HTML body.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
	// Tag names the message kind ("confirm", "reset", "invite"...), used for
	// logs and the SES configuration set's message tags.
	Tag string
	// Unsubscribe, for optional mail (summaries, newsletters), is the
	// one-click unsubscribe URL (RFC 8058): the message carries
	// List-Unsubscribe with it and List-Unsubscribe-Post.
	Unsubscribe string
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// Refusing is a sender for a deployable that must not send mail (one
// without the SES grant): every Send fails with reason.
func Refusing(reason string) Sender { return refusing(reason) }

type refusing string

func (r refusing) Send(_ context.Context, m Message) error {
	return fmt.Errorf("mail: %s message not sent: %s", m.Tag, string(r))
}
