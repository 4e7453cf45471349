package servicedocs

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/store"
)

// The calendar feed: one secret URL per Group (re-issuing it kills the old
// one) serving its coming maintenances and the due dates of its open
// tickets as RFC 5545, for Google Calendar or Outlook to subscribe to.
const (
	calendarPast  = 30 // days back a due date stays in the feed
	maxCalendared = 5000
)

func calendarCurrent(db string) string { return "calendar-of:" + db }

// calendarLink answers POST /api/{db}/_calendar/link (admins): a new feed URL.
func (m *Module) calendarLink(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	db := r.PathValue("db")
	token, err := newToken(m.now())
	if err != nil {
		return err
	}
	old, err := m.deps.Store.GetRecord(ctx, recordKind, calendarCurrent(db))
	switch {
	case err == nil:
		if err := m.deps.Store.DeleteRecord(ctx, recordKind, string(old.Value)); err != nil {
			return fmt.Errorf("servicedocs: drop calendar link: %w", err)
		}
	case !errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("servicedocs: read calendar link: %w", err)
	}
	key := linkKey(kindCalendar, token)
	if err := m.deps.Store.PutRecord(ctx, store.Record{Kind: recordKind, Key: calendarCurrent(db), Value: []byte(key)}, false); err != nil {
		return fmt.Errorf("servicedocs: store calendar link: %w", err)
	}
	if err := m.putLink(ctx, kindCalendar, token, link{DB: db}); err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"url": m.deps.BaseURL + "/api/_public/calendar/" + token + ".ics"})
	return nil
}

// calendar answers GET /api/_public/calendar/{token}.ics.
func (m *Module) calendar(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	token := strings.TrimSuffix(r.PathValue("token"), ".ics")
	if !tokenRe.MatchString(token) {
		return notFound()
	}
	key := linkKey(kindCalendar, token)
	rec, err := m.deps.Store.GetRecord(ctx, recordKind, key)
	if errors.Is(err, store.ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return fmt.Errorf("servicedocs: read calendar link: %w", err)
	}
	var l link
	if err := json.Unmarshal(rec.Value, &l); err != nil {
		return fmt.Errorf("servicedocs: decode calendar link: %w", err)
	}
	cur, err := m.deps.Store.GetRecord(ctx, recordKind, calendarCurrent(l.DB))
	if err != nil || string(cur.Value) != key {
		return notFound()
	}
	sh, err := m.shopOf(ctx, l.DB)
	if err != nil {
		return err
	}
	t := textsFor(sh.Locale)
	cal := ics.NewCalendar()
	cal.SetMethod(ics.MethodPublish)
	cal.SetProductId("-//Oficina//Service calendar//EN")
	cal.SetName(sh.Name)
	cal.SetXWRCalName(sh.Name)
	cal.SetRefreshInterval("PT1H")
	from := m.now().AddDate(0, 0, -calendarPast).Format(time.DateOnly)

	maints, err := m.listAll(ctx, l.DB, KlassMaintenance, maxCalendared)
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, d := range maints {
		var f struct {
			Next      string `json:"next_maintenance"`
			Equipment string `json:"equipment_id"`
			Updated   string `json:"updated_at"`
		}
		if json.Unmarshal(d.Body, &f) != nil || f.Next < from {
			continue
		}
		name, ok := names[f.Equipment]
		if !ok {
			_, e, err := m.get(ctx, l.DB, f.Equipment)
			if err != nil {
				return err
			}
			name = equipmentName(e)
			names[f.Equipment] = name
		}
		addDay(cal, d.ID, f.Next, f.Updated, t.maintenanceDue+": "+name, m.deps.BaseURL+"/account/"+l.DB+"/maintenances/"+d.ID)
	}
	tickets, err := m.listAll(ctx, l.DB, KlassTicket, maxCalendared)
	if err != nil {
		return err
	}
	for _, d := range tickets {
		var f struct {
			Due     string `json:"estimation"`
			Status  string `json:"status"`
			Number  any    `json:"number"`
			Title   string `json:"title"`
			Updated string `json:"updated_at"`
		}
		if json.Unmarshal(d.Body, &f) != nil || f.Due < from || f.Status == "done" || f.Status == "cancel" {
			continue
		}
		addDay(cal, d.ID, f.Due, f.Updated, fmt.Sprintf("%s nº %v: %s", t.ticketDue, f.Number, f.Title), m.deps.BaseURL+"/account/"+l.DB+"/tickets/"+d.ID)
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Cache-Control", "private, max-age=300")
	w.WriteHeader(http.StatusOK)
	// RFC 5545 §3.1: content lines end in CRLF, folded ones too (the
	// library's default is the platform's line end).
	return cal.SerializeTo(w, ics.WithNewLineWindows)
}

// addDay adds an all-day event; its UID is the record's id, so a refresh
// updates the same entry instead of adding another.
func addDay(cal *ics.Calendar, id, day, updated, summary, url string) {
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return
	}
	ev := cal.AddEvent(id + "@oficina")
	stamp, err := time.Parse(time.RFC3339Nano, updated)
	if err != nil {
		stamp = d
	}
	ev.SetDtStampTime(stamp.UTC())
	ev.SetAllDayStartAt(d)
	ev.SetAllDayEndAt(d.AddDate(0, 0, 1))
	ev.SetSummary(summary)
	ev.SetURL(url)
}
