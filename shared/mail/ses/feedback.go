package ses

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/mail"
)

// Feedback is SES's report on a message, as the configuration set's SNS
// event destination publishes it (eventType) or an identity's feedback
// notifications do (notificationType): only the parts the product acts on.
type Feedback struct {
	EventType        string `json:"eventType"`
	NotificationType string `json:"notificationType"`
	Bounce           *struct {
		BounceType        string `json:"bounceType"`    // Permanent, Transient or Undetermined
		BounceSubType     string `json:"bounceSubType"` // General, NoEmail, Suppressed, MailboxFull…
		BouncedRecipients []struct {
			EmailAddress   string `json:"emailAddress"`
			Status         string `json:"status"`
			DiagnosticCode string `json:"diagnosticCode"`
		} `json:"bouncedRecipients"`
		Timestamp time.Time `json:"timestamp"`
	} `json:"bounce"`
	Complaint *struct {
		ComplainedRecipients []struct {
			EmailAddress string `json:"emailAddress"`
		} `json:"complainedRecipients"`
		ComplaintFeedbackType string    `json:"complaintFeedbackType"` // abuse, fraud, not-spam…
		Timestamp             time.Time `json:"timestamp"`
	} `json:"complaint"`
	Mail struct {
		Timestamp time.Time           `json:"timestamp"`
		Tags      map[string][]string `json:"tags"`
	} `json:"mail"`
}

// Type is the report's kind: Bounce, Complaint, Delivery, Send…
func (f Feedback) Type() string {
	if f.EventType != "" {
		return f.EventType
	}
	return f.NotificationType
}

// ErrNotFeedback marks a message that is not an SES report (retrying it
// would not help: the caller logs and drops it).
var ErrNotFeedback = errors.New("ses: not an SES event")

// Suppressions turns a report into the addresses the product must stop
// mailing: every recipient of a permanent bounce, and every complainant
// (except a complaint that says "not-spam"). Transient and undetermined
// bounces (a full mailbox, a greylisting server), deliveries and the other
// events suppress nothing.
func (f Feedback) Suppressions() []mail.Suppression {
	kind := ""
	if v := f.Mail.Tags[TagName]; len(v) > 0 {
		kind = v[0]
	}
	at := func(t time.Time) time.Time {
		if t.IsZero() {
			return f.Mail.Timestamp
		}
		return t
	}
	var out []mail.Suppression
	switch {
	case f.Type() == "Bounce" && f.Bounce != nil && f.Bounce.BounceType == "Permanent":
		for _, r := range f.Bounce.BouncedRecipients {
			detail := strings.TrimSpace(f.Bounce.BounceType + " " + f.Bounce.BounceSubType + ": " + firstOf(r.DiagnosticCode, r.Status))
			out = append(out, mail.Suppression{Address: r.EmailAddress, Reason: mail.ReasonBounce, Detail: strings.TrimSuffix(detail, ":"), Kind: kind, At: at(f.Bounce.Timestamp)})
		}
	case f.Type() == "Complaint" && f.Complaint != nil && f.Complaint.ComplaintFeedbackType != "not-spam":
		for _, r := range f.Complaint.ComplainedRecipients {
			out = append(out, mail.Suppression{Address: r.EmailAddress, Reason: mail.ReasonComplaint, Detail: f.Complaint.ComplaintFeedbackType, Kind: kind, At: at(f.Complaint.Timestamp)})
		}
	}
	return out
}

// ParseFeedback reads one SES report: the Message of an SNS notification.
func ParseFeedback(message []byte) (Feedback, error) {
	var f Feedback
	if err := json.Unmarshal(message, &f); err != nil {
		return Feedback{}, fmt.Errorf("%w: %v", ErrNotFeedback, err)
	}
	if f.Type() == "" {
		return Feedback{}, fmt.Errorf("%w: neither eventType nor notificationType", ErrNotFeedback)
	}
	return f, nil
}

// RecordFeedback applies one SES report to the suppression list and
// returns the suppressions it added.
func RecordFeedback(ctx context.Context, list *mail.Suppressions, message []byte) ([]mail.Suppression, error) {
	f, err := ParseFeedback(message)
	if err != nil {
		return nil, err
	}
	sups := f.Suppressions()
	for _, s := range sups {
		if err := list.Add(ctx, s); err != nil {
			return nil, err
		}
	}
	return sups, nil
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
