// Package ses is the cloud implementation of the mail port: it renders each
// message with mail.BuildMIME and sends it through the Amazon SES v2 API
// (SendEmail with raw content), in a configuration set, tagged with the
// message kind.
//
// Wiring in a Lambda entrypoint (the stack sets the variables):
//
//	cfg, err := config.LoadDefaultConfig(ctx)
//	...
//	sender, err := ses.New(sesv2.NewFromConfig(cfg), ses.Options{
//		From:             os.Getenv("OFICINA_MAIL_FROM"),
//		ConfigurationSet: os.Getenv("OFICINA_SES_CONFIGURATION_SET"),
//	})
//
// The function's role may send only from the stack's SES identity and only
// in its configuration set (infra-cdk pins both), so From must be an
// address of that identity.
package ses

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sesv2/types"

	"github.com/oficina/oficina/shared/mail"
)

// TagName is the SES message tag that carries mail.Message.Tag. The
// configuration set's CloudWatch event destination uses it as a metric
// dimension (infra-cdk reads this constant's value from this file).
const TagName = "kind"

// API is the part of *sesv2.Client the sender uses.
type API interface {
	SendEmail(ctx context.Context, in *sesv2.SendEmailInput, optFns ...func(*sesv2.Options)) (*sesv2.SendEmailOutput, error)
}

// Options configure a Sender.
type Options struct {
	// From is the sender, "Name <address>" or a bare address, on a verified
	// SES identity. Required.
	From string
	// ConfigurationSet is the SES configuration set every message is sent
	// in. Empty sends without one (the stack always sets it).
	ConfigurationSet string
	// Now is the clock for the Date header; time.Now when nil.
	Now func() time.Time
}

// Sender sends mail.Messages through SES. It is safe for concurrent use.
type Sender struct {
	api       API
	from      string
	fromAddr  string
	configSet string
	now       func() time.Time
}

var _ mail.Sender = (*Sender)(nil)

// New returns a Sender that calls api.
func New(api API, o Options) (*Sender, error) {
	if api == nil {
		return nil, errors.New("ses: nil API client")
	}
	addr, err := mail.Address(o.From)
	if err != nil {
		return nil, fmt.Errorf("ses: from: %w", err)
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	return &Sender{api: api, from: o.From, fromAddr: addr, configSet: o.ConfigurationSet, now: now}, nil
}

// Send renders m and hands it to SES. SES errors come back wrapped (use
// errors.As with the sesv2/types error types to tell them apart); the
// message text of m is never part of the error.
func (s *Sender) Send(ctx context.Context, m mail.Message) error {
	raw, err := mail.BuildMIME(s.from, m, s.now())
	if err != nil {
		return fmt.Errorf("ses: build %s message: %w", tagOrDefault(m.Tag), err)
	}
	to, err := mail.Address(m.To)
	if err != nil {
		return fmt.Errorf("ses: to: %w", err)
	}
	in := &sesv2.SendEmailInput{
		FromEmailAddress: aws.String(s.fromAddr),
		Destination:      &types.Destination{ToAddresses: []string{to}},
		Content:          &types.EmailContent{Raw: &types.RawMessage{Data: raw}},
		EmailTags:        []types.MessageTag{{Name: aws.String(TagName), Value: aws.String(tagValue(m.Tag))}},
	}
	if s.configSet != "" {
		in.ConfigurationSetName = aws.String(s.configSet)
	}
	if _, err := s.api.SendEmail(ctx, in); err != nil {
		return fmt.Errorf("ses: send %s message: %w", tagOrDefault(m.Tag), err)
	}
	return nil
}

// tagValue makes m.Tag a valid SES tag value: ASCII letters, digits, "_"
// and "-", at most 256 characters, never empty.
func tagValue(tag string) string {
	var b strings.Builder
	for _, r := range tag {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() == 256 {
			break
		}
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

func tagOrDefault(tag string) string {
	if tag == "" {
		return "untagged"
	}
	return fmt.Sprintf("%q", tag)
}
