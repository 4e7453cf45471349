package limits

// The weekly summary lives here rather than in a package of its own: it
// walks the same Groups and members as the limit mail, keeps its "sent"
// marks the same way, and needs the same unsubscribe link; a separate
// package would repeat all three.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/mail"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
)

const (
	// JobDigest sends the weekly summary (Mondays 09:00 UTC).
	JobDigest = "limits.digest"
	// TopicSummary is the newsletter topic the summary belongs to.
	TopicSummary = "ticket_app"
	// SummaryDays is the period a summary covers.
	SummaryDays = 30

	kindDigest = "limits.digest" // key db \x00 user \x00 ISO week: sent
	digestTTL  = 60 * 24 * time.Hour
)

// Summary is what one Group did in the period.
type Summary struct {
	From, To       time.Time
	Opened, Closed int64
	// Incomes and Expenses: minor units by currency.
	Incomes, Expenses map[string]int64
}

// Summarize reads db's tickets and money records of the SummaryDays days
// before to.
func (m *Module) Summarize(ctx context.Context, db string, to time.Time) (Summary, error) {
	s := Summary{From: to.AddDate(0, 0, -SummaryDays), To: to, Incomes: map[string]int64{}, Expenses: map[string]int64{}}
	from := s.From.UTC().Format(docs.TimeFormat)
	end := to.UTC().Format(docs.TimeFormat)
	in := func(t string) bool { return t >= from && t < end }
	err := m.each(ctx, db, "Ticket", func(b map[string]any) {
		if in(str(b["created_at"])) {
			s.Opened++
		}
		if st := str(b["status"]); (st == "done" || st == "cancel") && in(str(b["updated_at"])) {
			s.Closed++
		}
	})
	if err != nil {
		return s, err
	}
	money := func(klass string, into map[string]int64) error {
		return m.each(ctx, db, klass, func(b map[string]any) {
			when := str(b["created_at"])
			if d := str(b["posted_at"]); d != "" {
				when = d
			}
			if len(when) == 10 { // a date: the day counts whole
				when += "T12:00:00.000Z"
			}
			if !in(when) {
				return
			}
			v, _ := toInt(b["value"])
			into[str(b["currency"])] += v
		})
	}
	if err := money("Income", s.Incomes); err != nil {
		return s, err
	}
	return s, money("Outgo", s.Expenses)
}

func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case interface{ Int64() (int64, error) }:
		i, err := n.Int64()
		return i, err == nil
	case float64:
		return int64(n), true
	}
	return 0, false
}

// each calls fn with every live document of klass in db.
func (m *Module) each(ctx context.Context, db, klass string, fn func(map[string]any)) error {
	q := store.ListQuery{Klass: klass, Limit: 500}
	for {
		page, err := m.st.List(ctx, db, q)
		if err != nil {
			return err
		}
		for _, d := range page.Docs {
			if d.Deleted {
				continue
			}
			b, err := docs.Decode(d.Body)
			if err != nil {
				return err
			}
			fn(b)
		}
		if page.Next == "" {
			return nil
		}
		q.After = page.Next
	}
}

// formatMoney writes amounts in minor units by currency ("USD 1,234.50;
// BRL 10.00", pt-BR "BRL 1.234,50"); "—" when none.
func formatMoney(by map[string]int64, locale string) string {
	if len(by) == 0 {
		return "—"
	}
	var parts []string
	for _, cur := range slices.Sorted(maps.Keys(by)) {
		v := by[cur]
		sign := ""
		if v < 0 {
			sign, v = "-", -v
		}
		dec := "."
		if locale == mail.LocalePtBR {
			dec = ","
		}
		label := cur
		if label == "" {
			label = "?"
		}
		parts = append(parts, fmt.Sprintf("%s %s%s%s%02d", label, sign, mail.FormatInt(v/100, locale), dec, v%100))
	}
	return strings.Join(parts, "; ")
}

// digestGroup is the limits.digest job for one Group: the week's summary
// to each member who wants it, once per member, Group and ISO week: a
// re-run (or a second scheduler) finds the mark and skips.
func (m *Module) digestGroup(ctx context.Context, ev module.JobEvent, db string) error {
	when := ev.Time
	if when.IsZero() {
		when = m.now()
	}
	year, week := when.UTC().ISOWeek()
	name, live, err := m.groupName(ctx, db)
	if err != nil || !live {
		return err
	}
	return m.Digest(ctx, db, name, when, fmt.Sprintf("%d-W%02d", year, week))
}

// Digest mails db's summary up to `to` to its subscribed members who have
// not had the one of period yet.
func (m *Module) Digest(ctx context.Context, db, group string, to time.Time, period string) error {
	members, err := m.members(ctx, db, false)
	if err != nil {
		return err
	}
	var sum *Summary
	var errs []error
	for _, u := range members {
		ok, err := m.wantsSummary(ctx, u)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ok {
			continue
		}
		if sum == nil {
			s, err := m.Summarize(ctx, db, to)
			if err != nil {
				return err
			}
			sum = &s
		}
		key := db + "\x00" + u.UserID + "\x00" + period
		err = m.st.PutRecord(ctx, store.Record{Kind: kindDigest, Key: key, Value: []byte("sent"), ExpiresAt: m.now().Add(digestTTL)}, true)
		if errors.Is(err, store.ErrExists) {
			continue // sent already
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := m.sendDigest(ctx, db, group, u, *sum); err != nil {
			_ = m.st.DeleteRecord(context.WithoutCancel(ctx), kindDigest, key) // try again next run
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (m *Module) sendDigest(ctx context.Context, db, group string, u member, s Summary) error {
	unsub, err := m.unsubscribeURL(ctx, u.UserID)
	if err != nil {
		return err
	}
	app := m.base + "/account/" + db
	vars := map[string]string{
		"group":         group,
		"from":          formatDate(s.From, u.Locale),
		"to":            formatDate(s.To, u.Locale),
		"opened":        mail.FormatInt(s.Opened, u.Locale),
		"closed":        mail.FormatInt(s.Closed, u.Locale),
		"incomes":       formatMoney(s.Incomes, u.Locale),
		"expenses":      formatMoney(s.Expenses, u.Locale),
		"tickets_link":  app + "/tickets",
		"incomes_link":  app + "/incomes",
		"expenses_link": app + "/outgos",
		"prefs_link":    m.base + "/user/newsletter",
	}
	msg, err := m.tpl.Render("weekly", u.Locale, u.Email, mail.TemplateData{Name: u.Name, Email: u.Email, Link: app, Vars: vars})
	if err != nil {
		return err
	}
	msg.Unsubscribe = unsub
	if err := m.deps.Mail.Send(ctx, msg); err != nil {
		return fmt.Errorf("limits: summary to %s: %w", u.UserID, err)
	}
	return nil
}
