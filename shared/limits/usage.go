package limits

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// dateFormat names a snapshot's day (UTC).
const dateFormat = "2006-01-02"

// history is a Group's daily snapshots, one record per Group: date →
// klass → records and bytes. 90 days of about twenty klasses stay far
// below a DynamoDB item's 400 KB.
type history map[string]map[string]stream.KlassCount

// Day is one snapshot of GET /api/{db}/_usage.
type Day struct {
	Date    string                       `json:"date"`
	Klasses map[string]stream.KlassCount `json:"klasses"`
}

func (m *Module) readHistory(ctx context.Context, db string) (history, []byte, error) {
	r, err := m.st.GetRecord(ctx, kindUsage, db)
	if errors.Is(err, store.ErrNotFound) {
		return history{}, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("limits: read usage of %s: %w", db, err)
	}
	h := history{}
	if err := json.Unmarshal(r.Value, &h); err != nil {
		return nil, nil, fmt.Errorf("limits: decode usage of %s: %w", db, err)
	}
	return h, r.Value, nil
}

// Snapshot records db's counts as the snapshot of day (UTC), replacing one
// taken earlier that day, and drops snapshots older than UsageDays. Running
// it again the same day changes nothing but the figures.
func (m *Module) Snapshot(ctx context.Context, db string, day time.Time) error {
	c, err := stream.Read(ctx, m.st, db)
	if err != nil {
		return err
	}
	date := day.UTC().Format(dateFormat)
	oldest := day.UTC().AddDate(0, 0, -(UsageDays - 1)).Format(dateFormat)
	for range 10 {
		h, raw, err := m.readHistory(ctx, db)
		if err != nil {
			return err
		}
		h[date] = maps.Clone(c.Klass)
		if h[date] == nil {
			h[date] = map[string]stream.KlassCount{}
		}
		for d := range h {
			if d < oldest {
				delete(h, d)
			}
		}
		val, err := json.Marshal(h)
		if err != nil {
			return err
		}
		err = m.st.Transact(ctx, []store.RecordWrite{store.SwapWrite(kindUsage, db, val, raw)})
		if errors.Is(err, store.ErrConflict) {
			continue
		}
		if err != nil {
			return fmt.Errorf("limits: write usage of %s: %w", db, err)
		}
		return nil
	}
	return fmt.Errorf("limits: usage of %s keeps changing", db)
}

// testSnapshot answers the test-only POST /api/{db}/_limits/test/snapshot
// {days_ago}: the Group's snapshot as of days_ago days back (its counts
// now), then GET _usage's answer.
func (m *Module) testSnapshot(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		DaysAgo int `json:"days_ago"`
	}
	if err := httpjson.Decode(w, r, 1<<10, &in); err != nil {
		return err
	}
	if in.DaysAgo < 0 || in.DaysAgo >= UsageDays {
		return fault.Invalid(map[string][]string{"days_ago": {fmt.Sprintf("must be from 0 to %d", UsageDays-1)}})
	}
	if err := m.Snapshot(r.Context(), r.PathValue("db"), m.now().AddDate(0, 0, -in.DaysAgo)); err != nil {
		return err
	}
	return m.getUsage(w, r)
}

// snapshotGroup is the limits.snapshot job for one Group: the day's snapshot.
func (m *Module) snapshotGroup(ctx context.Context, ev module.JobEvent, db string) error {
	day := ev.Time
	if day.IsZero() {
		day = m.now()
	}
	return m.Snapshot(ctx, db, day)
}

// Usage returns the last days snapshots of db, oldest first.
func (m *Module) Usage(ctx context.Context, db string, days int) ([]Day, error) {
	h, _, err := m.readHistory(ctx, db)
	if err != nil {
		return nil, err
	}
	oldest := m.now().UTC().AddDate(0, 0, -(days - 1)).Format(dateFormat)
	dates := slices.Sorted(maps.Keys(h))
	out := make([]Day, 0, len(dates))
	for _, d := range dates {
		if d < oldest {
			continue
		}
		k := h[d]
		if k == nil {
			k = map[string]stream.KlassCount{}
		}
		out = append(out, Day{Date: d, Klasses: k})
	}
	return out, nil
}

func (m *Module) getUsage(w http.ResponseWriter, r *http.Request) error {
	days := UsageDays
	if v := r.URL.Query().Get("days"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > UsageDays {
			return fault.Newf(fault.BadRequest, "days must be a whole number from 1 to %d", UsageDays)
		}
		days = n
	}
	out, err := m.Usage(r.Context(), r.PathValue("db"), days)
	if err != nil {
		return err
	}
	httpjson.Write(w, http.StatusOK, map[string]any{"days": out})
	return nil
}
