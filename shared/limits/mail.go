package limits

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

// Limit mail kinds (shared/mail/templates), highest first: a Group that
// jumps past several thresholds at once gets only the highest one's mail.
var limitMails = []struct{ mark, kind string }{
	{"view_only", "viewonly"},
	{"100", "limit100"},
	{"80", "limit80"},
}

// due returns the marks a status has reached, highest first.
func due(st Status) map[string]bool {
	out := map[string]bool{}
	if st.RecordLimit == 0 {
		return out
	}
	if st.ViewOnly {
		out["view_only"] = true
	}
	if st.Records >= st.RecordLimit {
		out["100"] = true
	}
	if st.Records*100 >= st.RecordLimit*80 {
		out["80"] = true
	}
	return out
}

// checkGroup is the limits.check job for one Group: it moves the Group's
// notice and sends the limit mail due.
func (m *Module) checkGroup(ctx context.Context, _ module.JobEvent, db string) error {
	name, live, err := m.groupName(ctx, db)
	if err != nil || !live {
		return err
	}
	return m.Check(ctx, db, name)
}

// Check evaluates one Group and mails its administrators the limit mail
// it has reached and not been sent in this crossing. The mark is stored
// (conditionally, so two runs at once send one mail) before the mail goes
// out, and dropped again when sending fails, so a re-run never mails twice.
func (m *Module) Check(ctx context.Context, db, group string) error {
	st, _, err := m.evaluate(ctx, db)
	if err != nil {
		return err
	}
	reached := due(st)
	if len(reached) == 0 {
		return nil
	}
	for range 10 {
		s, raw, err := m.readState(ctx, db)
		if err != nil {
			return err
		}
		kind, mark := "", ""
		for _, lm := range limitMails {
			if reached[lm.mark] && !s.Sent[lm.mark] {
				kind, mark = lm.kind, lm.mark
				break
			}
		}
		if kind == "" {
			return nil
		}
		next := s
		next.Sent = map[string]bool{}
		for k, v := range s.Sent {
			next.Sent[k] = v
		}
		// The lower marks go with the higher one: no 80 % mail after the 100 % one.
		for _, lm := range limitMails {
			if reached[lm.mark] {
				next.Sent[lm.mark] = true
			}
		}
		if err := m.writeState(ctx, db, raw, next); errors.Is(err, errRace) {
			continue
		} else if err != nil {
			return err
		}
		if err := m.sendLimitMail(ctx, db, group, kind, st); err != nil {
			m.unmark(ctx, db, mark)
			return err
		}
		m.log.InfoContext(ctx, "limit mail sent", "db", db, "kind", kind, "records", st.Records)
		return nil
	}
	return fmt.Errorf("limits: state of %s keeps changing", db)
}

// unmark drops a mail mark after its mail failed, so the next run tries again.
func (m *Module) unmark(ctx context.Context, db, mark string) {
	for range 10 {
		s, raw, err := m.readState(ctx, db)
		if err != nil || !s.Sent[mark] {
			return
		}
		delete(s.Sent, mark)
		if err := m.writeState(ctx, db, raw, s); !errors.Is(err, errRace) {
			return
		}
	}
}

func (m *Module) sendLimitMail(ctx context.Context, db, group, kind string, st Status) error {
	admins, err := m.members(ctx, db, true)
	if err != nil {
		return fmt.Errorf("limits: admins of %s: %w", db, err)
	}
	var errs []error
	for _, a := range admins {
		vars := map[string]string{
			"group":   group,
			"records": mail.FormatInt(st.Records, a.Locale),
			"limit":   mail.FormatInt(st.RecordLimit, a.Locale),
		}
		if st.ViewOnlyAt != nil {
			vars["deadline"] = formatDate(*st.ViewOnlyAt, a.Locale)
		} else {
			vars["deadline"] = ""
		}
		msg, err := m.tpl.Render(kind, a.Locale, a.Email, mail.TemplateData{Name: a.Name, Email: a.Email, Link: m.base + "/billing", Vars: vars})
		if err != nil {
			return err
		}
		if err := m.deps.Mail.Send(ctx, msg); err != nil {
			errs = append(errs, fmt.Errorf("limits: mail %s to %s: %w", kind, a.UserID, err))
		}
	}
	return errors.Join(errs...)
}

var ptMonths = []string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}

// formatDate writes a day the way the locale reads it (UTC).
func formatDate(t time.Time, locale string) string {
	t = t.UTC()
	if locale == mail.LocalePtBR {
		return fmt.Sprintf("%d de %s de %d", t.Day(), ptMonths[t.Month()-1], t.Year())
	}
	return t.Format("January 2, 2006")
}

// ---- one-click unsubscribe (RFC 8058) ----------------------------------------

const (
	kindUnsub = "limits.unsubscribe" // key token → user id
	unsubTTL  = 60 * 24 * time.Hour
)

// unsubscribeURL makes the one-click link of an optional message to userID.
func (m *Module) unsubscribeURL(ctx context.Context, userID string) (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	tok := base64.RawURLEncoding.EncodeToString(b[:])
	if err := m.st.PutRecord(ctx, store.Record{Kind: kindUnsub, Key: tok, Value: []byte(userID), ExpiresAt: m.now().Add(unsubTTL)}, true); err != nil {
		return "", fmt.Errorf("limits: unsubscribe token: %w", err)
	}
	return m.base + "/api/_mail/unsubscribe/" + tok, nil
}

// unsubscribe turns the newsletter off for the link's user: the
// "newsletter" adjustment of their personal db, as the preferences page
// writes it (which also syncs the user document).
func (m *Module) unsubscribe(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	rec, err := m.st.GetRecord(ctx, kindUnsub, r.PathValue("token"))
	if errors.Is(err, store.ErrNotFound) {
		return fault.New(fault.NotFound, "This unsubscribe link is unknown or has expired: change your preferences on the newsletter page")
	}
	if err != nil {
		return err
	}
	uid := string(rec.Value)
	u, ok, err := m.user(ctx, uid)
	if err != nil {
		return err
	}
	if !ok {
		return fault.New(fault.NotFound, "This unsubscribe link is unknown or has expired: change your preferences on the newsletter page")
	}
	if err := m.setNewsletter(ctx, u, false); err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"ok": true, "newsletter": false})
	return nil
}

// setNewsletter writes the user's "newsletter" adjustment as the user.
func (m *Module) setNewsletter(ctx context.Context, u member, on bool) error {
	p := &access.Principal{UserID: u.UserID, Email: u.Email, EmailConfirmed: true, Name: u.UserID, Label: u.Name,
		Roles: []string{u.UserID}, Locale: u.Locale, Via: access.ViaSession}
	if p.Label == "" {
		p.Label = u.Email
	}
	q := store.ListQuery{Klass: "Adjustment", Limit: 200}
	for {
		page, err := m.st.List(ctx, u.UserID, q)
		if errors.Is(err, store.ErrDBNotFound) {
			break
		}
		if err != nil {
			return err
		}
		for _, d := range page.Docs {
			b, err := docs.Decode(d.Body)
			if err != nil || str(b["key"]) != "newsletter" {
				continue
			}
			if b["value"] == on {
				return nil
			}
			b["value"] = on
			_, err = m.deps.Docs.Save(ctx, p, u.UserID, d.ID, d.Rev, b)
			return err
		}
		if page.Next == "" {
			break
		}
		q.After = page.Next
	}
	if !u.Newsletter {
		return nil // nothing to turn off
	}
	_, err := m.deps.Docs.Save(ctx, p, u.UserID, ids.New("adj"), "", map[string]any{"klass": "Adjustment", "key": "newsletter", "label": "newsletter", "value": on})
	return err
}

// wantsSummary reports whether a member subscribed to the weekly summary:
// the newsletter on (the preferences page keeps the user document in sync)
// and, when they chose topics, "ticket_app" among them (the summary is the
// ticket app's: tickets and the books).
func (m *Module) wantsSummary(ctx context.Context, u member) (bool, error) {
	if !u.Newsletter {
		return false, nil
	}
	q := store.ListQuery{Klass: "Adjustment", Limit: 200}
	for {
		page, err := m.st.List(ctx, u.UserID, q)
		if errors.Is(err, store.ErrDBNotFound) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		for _, d := range page.Docs {
			var b struct {
				Key   string          `json:"key"`
				Value json.RawMessage `json:"value"`
			}
			if json.Unmarshal(d.Body, &b) != nil || b.Key != "newsletter-topics" {
				continue
			}
			var topics []string
			if json.Unmarshal(b.Value, &topics) != nil || len(topics) == 0 {
				return true, nil
			}
			for _, t := range topics {
				if t == TopicSummary {
					return true, nil
				}
			}
			return false, nil
		}
		if page.Next == "" {
			return true, nil
		}
		q.After = page.Next
	}
}
