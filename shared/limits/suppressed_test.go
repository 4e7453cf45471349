package limits_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/limits"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/mail/ses"
	"github.com/oficina/oficina/shared/module"
)

// feedback records the SES reports of a sample SNS event (events/) as the
// worker does.
func feedback(t *testing.T, e *apptest.Env, file string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "events", file))
	if err != nil {
		t.Fatal(err)
	}
	var ev events.SNSEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	for _, r := range ev.Records {
		if _, err := ses.RecordFeedback(context.Background(), e.App.Suppressions, []byte(r.SNS.Message)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSuppressedAddresses, on both stores: once SES reports a hard bounce
// (events/sns-ses-bounce.json) or a complaint (sns-ses-complaint.json),
// no mail path sends to that address any more — an invitation (accounts),
// a confirmation or a password-reset link (auth), the weekly summary
// (limits) — while the others still get theirs; a transient bounce
// suppresses nothing; and GET /api/{db}/_mail/suppressed names the
// memberships whose address is suppressed, to members only.
func TestSuppressedAddresses(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		ana, angry, full := e.SignUp("ana@example.com"), e.SignUp("angry@example.com"), e.SignUp("full@example.com")
		db := e.Group(ana, "Oficina da Ana")
		e.Join(ana, angry, db, false)
		e.Join(ana, full, db, false)
		for _, c := range []*apptest.Client{ana, angry, full} {
			setUser(t, c, "en", true)
		}
		gone := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Membership", "email": "gone@example.com"}).Expect(t, http.StatusCreated)
		if n := len(e.MailsTo("gone@example.com", "")); n != 1 {
			t.Fatalf("the first invitation: %d mails", n)
		}

		feedback(t, e, "sns-ses-bounce.json")
		feedback(t, e, "sns-ses-complaint.json")
		feedback(t, e, "sns-ses-other.json")
		before := len(e.Mails())

		// An invitation again (removed and invited anew).
		g := ana.Do("GET", "/api/"+db+"/"+gone["id"].(string), nil).Expect(t, http.StatusOK)
		ana.Do("DELETE", "/api/"+db+"/"+gone["id"].(string)+"?rev="+g["_rev"].(string), nil).Expect(t, http.StatusOK)
		gone = ana.Do("POST", "/api/"+db, map[string]any{"klass": "Membership", "email": "gone@example.com"}).Expect(t, http.StatusCreated)
		// A password reset, and a new account's confirmation link.
		e.Anonymous().Do("POST", "/api/_users/_password", map[string]any{"email": "angry@example.com"}).Expect(t, http.StatusAccepted)
		e.Anonymous().Do("POST", "/api/_users", map[string]any{"fullname": "Gone", "unconfirmed_email": "Gone@Example.com", "password": apptest.Password, "locale": "en"}).Expect(t, http.StatusCreated)
		// The weekly summary.
		job, _ := e.App.Modules.JobNamed(limits.JobDigest)
		if err := job.Run(context.Background(), module.JobEvent{Job: job.Name, Time: e.Clock.Now()}); err != nil {
			t.Fatal(err)
		}
		for _, to := range []string{"gone@example.com", "angry@example.com"} {
			for _, m := range e.Mails()[before:] {
				if m.To == to {
					t.Errorf("%s is suppressed but got %q", to, m.Subject)
				}
			}
		}
		for _, to := range []string{"ana@example.com", "full@example.com"} {
			if len(e.MailsTo(to, "the last 30 days")) != 1 {
				t.Errorf("%s did not get the weekly summary", to)
			}
		}
		// Lifted (the mailbox works again): mail flows.
		if err := e.App.Suppressions.Remove(context.Background(), "ANGRY@example.com"); err != nil {
			t.Fatal(err)
		}
		e.Anonymous().Do("POST", "/api/_users/_password", map[string]any{"email": "angry@example.com"}).Expect(t, http.StatusAccepted)
		e.LastLink("angry@example.com", "password")

		// The member list's marker.
		if err := e.App.Suppressions.Add(context.Background(), mail.Suppression{Address: "angry@example.com", Reason: mail.ReasonComplaint, Detail: "abuse"}); err != nil {
			t.Fatal(err)
		}
		got := angry.Do("GET", "/api/"+db+"/_mail/suppressed", nil).Expect(t, http.StatusOK)["memberships"].(map[string]any)
		if len(got) != 2 {
			t.Fatalf("suppressed memberships: %v", got)
		}
		if s := got[gone["id"].(string)].(map[string]any); s["reason"] != mail.ReasonBounce || s["address"] != "gone@example.com" || s["kind"] != "invite" {
			t.Errorf("the bounced invitation: %v", s)
		}
		for id, s := range got {
			if id != gone["id"] && s.(map[string]any)["reason"] != mail.ReasonComplaint {
				t.Errorf("the complaint: %s %v", id, s)
			}
		}
		outsider := e.SignUp("out@example.com")
		outsider.Do("GET", "/api/"+db+"/_mail/suppressed", nil).ExpectError(t, http.StatusForbidden, "")
		e.Anonymous().Do("GET", "/api/"+db+"/_mail/suppressed", nil).ExpectError(t, http.StatusUnauthorized, "")
	})
}
