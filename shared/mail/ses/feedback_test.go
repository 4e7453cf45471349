package ses_test

import (
	"errors"
	"testing"

	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/mail/ses"
)

// TestFeedbackSuppressions: which SES reports suppress which addresses,
// in both the configuration set's event format (eventType) and an
// identity's notification format (notificationType).
func TestFeedbackSuppressions(t *testing.T) {
	for _, tc := range []struct {
		name, message string
		want          []string // reason:address
	}{
		{"permanent bounce", `{"eventType":"Bounce","bounce":{"bounceType":"Permanent","bounceSubType":"NoEmail","bouncedRecipients":[{"emailAddress":"A@x.test"},{"emailAddress":"b@x.test"}]},"mail":{"tags":{"kind":["confirm"]}}}`,
			[]string{"bounce:a@x.test", "bounce:b@x.test"}},
		{"notification format", `{"notificationType":"Bounce","bounce":{"bounceType":"Permanent","bouncedRecipients":[{"emailAddress":"c@x.test"}]},"mail":{}}`,
			[]string{"bounce:c@x.test"}},
		{"transient bounce", `{"eventType":"Bounce","bounce":{"bounceType":"Transient","bounceSubType":"MailboxFull","bouncedRecipients":[{"emailAddress":"d@x.test"}]},"mail":{}}`, nil},
		{"undetermined bounce", `{"eventType":"Bounce","bounce":{"bounceType":"Undetermined","bouncedRecipients":[{"emailAddress":"d@x.test"}]},"mail":{}}`, nil},
		{"complaint", `{"eventType":"Complaint","complaint":{"complaintFeedbackType":"abuse","complainedRecipients":[{"emailAddress":"e@x.test"}]},"mail":{}}`,
			[]string{"complaint:e@x.test"}},
		{"complaint without a type", `{"notificationType":"Complaint","complaint":{"complainedRecipients":[{"emailAddress":"f@x.test"}]},"mail":{}}`,
			[]string{"complaint:f@x.test"}},
		{"not spam", `{"eventType":"Complaint","complaint":{"complaintFeedbackType":"not-spam","complainedRecipients":[{"emailAddress":"g@x.test"}]},"mail":{}}`, nil},
		{"delivery", `{"eventType":"Delivery","delivery":{"recipients":["h@x.test"]},"mail":{}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ses.ParseFeedback([]byte(tc.message))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range f.Suppressions() {
				got = append(got, s.Reason+":"+mail.NormalAddress(s.Address))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
	for _, junk := range []string{"hello", `{"Type":"SubscriptionConfirmation"}`, `[]`} {
		if _, err := ses.ParseFeedback([]byte(junk)); !errors.Is(err, ses.ErrNotFeedback) {
			t.Errorf("%q: %v", junk, err)
		}
	}
}
