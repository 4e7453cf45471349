package schedule

import (
	"strings"
	"testing"
	"time"
)

func TestParseRefuses(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"every 5 minutes", "must be rate(…) or cron(…)"},
		{"rate(5)", "a value and a unit"},
		{"rate(0 minutes)", "above 0"},
		{"rate(-1 minutes)", "above 0"},
		{"rate(05 minutes)", "above 0"},
		{"rate(1 minutes)", `wants "minute"`},
		{"rate(5 minute)", `wants "minutes"`},
		{"rate(2 weeks)", "minute(s), hour(s) or day(s)"},
		{"cron(0 6 * * *)", "6 fields"},
		{"cron(0 6 * * ? * *)", "6 fields"},
		{"cron(0 6 * * MON *)", "exactly one of day-of-month and day-of-week must be ?"},
		{"cron(0 6 ? * ? *)", "exactly one of day-of-month and day-of-week must be ?"},
		{"cron(? 6 * * ? *)", "? is only allowed"},
		{"cron(60 6 * * ? *)", "outside 0–59"},
		{"cron(0 24 * * ? *)", "outside 0–23"},
		{"cron(0 6 0 * ? *)", "outside 1–31"},
		{"cron(0 6 ? * 8 *)", "outside 1–7"},
		{"cron(0 6 * 13 ? *)", "outside 1–12"},
		{"cron(0 6 * * ? 1969)", "outside 1970–2199"},
		{"cron(0 6 L * ? *)", "L, W and # forms"},
		{"cron(0 6 15W * ? *)", "L, W and # forms"},
		{"cron(0 6 ? * 6#3 *)", "L, W and # forms"},
		{"cron(0 6 ? * 6L *)", "L, W and # forms"},
		{"cron(30-10 6 * * ? *)", "runs backwards"},
		{"cron(0/0 6 * * ? *)", "step"},
		{"cron(0,,5 6 * * ? *)", "empty list item"},
		{"cron(x 6 * * ? *)", "not a number"},
		{"cron(0 6 * FOO ? *)", "not a number"},
	} {
		_, err := Parse(tc.expr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.expr, err, tc.want)
		}
	}
}

func TestNext(t *testing.T) {
	at := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		expr, after string
		want        []string // the next firings, in order
	}{
		{"rate(1 minute)", "2026-05-04T09:00:30Z", []string{"2026-05-04T09:01:00Z", "2026-05-04T09:02:00Z"}},
		{"rate(5 minutes)", "2026-05-04T09:03:00Z", []string{"2026-05-04T09:05:00Z", "2026-05-04T09:10:00Z"}},
		{"rate(5 minutes)", "2026-05-04T09:05:00Z", []string{"2026-05-04T09:10:00Z"}},
		{"rate(1 hour)", "2026-05-04T09:59:59Z", []string{"2026-05-04T10:00:00Z", "2026-05-04T11:00:00Z"}},
		{"rate(1 day)", "2026-05-04T09:00:00Z", []string{"2026-05-05T00:00:00Z", "2026-05-06T00:00:00Z"}},
		{"rate(2 days)", "2026-05-04T09:00:00Z", []string{"2026-05-05T00:00:00Z", "2026-05-07T00:00:00Z"}},
		// Every day at 06:00.
		{"cron(0 6 * * ? *)", "2026-05-04T06:00:00Z", []string{"2026-05-05T06:00:00Z", "2026-05-06T06:00:00Z"}},
		{"cron(0 6 * * ? *)", "2026-05-04T05:59:00Z", []string{"2026-05-04T06:00:00Z"}},
		// Every 15 minutes (start/step and */step).
		{"cron(0/15 * * * ? *)", "2026-05-04T09:07:00Z", []string{"2026-05-04T09:15:00Z", "2026-05-04T09:30:00Z", "2026-05-04T09:45:00Z", "2026-05-04T10:00:00Z"}},
		{"cron(*/20 * * * ? *)", "2026-05-04T09:50:00Z", []string{"2026-05-04T10:00:00Z", "2026-05-04T10:20:00Z"}},
		{"cron(5/20 * * * ? *)", "2026-05-04T09:50:00Z", []string{"2026-05-04T10:05:00Z", "2026-05-04T10:25:00Z"}},
		// Weekdays at 08:30; 2026-05-08 is a Friday.
		{"cron(30 8 ? * MON-FRI *)", "2026-05-08T09:00:00Z", []string{"2026-05-11T08:30:00Z", "2026-05-12T08:30:00Z"}},
		// Day names and numbers (1 = Sunday), lists.
		{"cron(0 0 ? * SUN,4 *)", "2026-05-04T00:00:00Z", []string{"2026-05-06T00:00:00Z", "2026-05-10T00:00:00Z", "2026-05-13T00:00:00Z"}},
		{"cron(0 0 ? * 1 *)", "2026-05-04T00:00:00Z", []string{"2026-05-10T00:00:00Z"}},
		// Month names, ranges with steps, day-of-month lists.
		{"cron(0 12 1,15 JAN-MAR/2 ? *)", "2026-01-20T00:00:00Z", []string{"2026-03-01T12:00:00Z", "2026-03-15T12:00:00Z", "2027-01-01T12:00:00Z"}},
		// The 31st only in months that have one.
		{"cron(0 0 31 * ? *)", "2026-04-01T00:00:00Z", []string{"2026-05-31T00:00:00Z", "2026-07-31T00:00:00Z"}},
		// 29 February.
		{"cron(0 0 29 2 ? *)", "2026-01-01T00:00:00Z", []string{"2028-02-29T00:00:00Z", "2032-02-29T00:00:00Z"}},
		// Hours list and ranges.
		{"cron(0 8-10,20 * * ? *)", "2026-05-04T10:00:00Z", []string{"2026-05-04T20:00:00Z", "2026-05-05T08:00:00Z", "2026-05-05T09:00:00Z"}},
		// Years.
		{"cron(0 0 1 1 ? 2027-2028)", "2026-05-04T00:00:00Z", []string{"2027-01-01T00:00:00Z", "2028-01-01T00:00:00Z", "0001-01-01T00:00:00Z"}},
		// Lower-case names.
		{"cron(0 6 ? * mon *)", "2026-05-04T06:00:00Z", []string{"2026-05-11T06:00:00Z"}},
	} {
		e, err := Parse(tc.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.expr, err)
			continue
		}
		if e.String() != tc.expr {
			t.Errorf("String() = %q", e.String())
		}
		cur := at(tc.after)
		for i, w := range tc.want {
			got := e.Next(cur)
			if !got.Equal(at(w)) {
				t.Errorf("%s after %s: firing %d = %s, want %s", tc.expr, tc.after, i+1, got.Format(time.RFC3339), w)
				break
			}
			cur = got
		}
	}
}

// TestNextNonUTC: the input's location does not matter; schedules are UTC.
func TestNextNonUTC(t *testing.T) {
	saoPaulo := time.FixedZone("BRT", -3*3600)
	got := MustParse("cron(0 6 * * ? *)").Next(time.Date(2026, 5, 4, 2, 0, 0, 0, saoPaulo)) // 05:00 UTC
	if want := time.Date(2026, 5, 4, 6, 0, 0, 0, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("got %v, want %v", got, want)
	}
}
