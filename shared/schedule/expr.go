// Package schedule runs the modules' scheduled jobs (module.Job) the same way
// on AWS and on a laptop: it parses EventBridge schedule expressions
// ("rate(5 minutes)", "cron(0 6 ? * MON-FRI *)"), computes their next
// firing time, dispatches EventBridge scheduled events to the job they name
// (functions/schedule on Lambda) and, locally, fires those same events from
// an in-process scheduler (functions/local). A job never overlaps itself:
// the in-process scheduler skips a firing while the previous run is going,
// and every dispatch holds a lease record in the store, so two Lambda
// invocations of one job do not run at once either.
package schedule

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Expr is a parsed EventBridge schedule expression (UTC).
type Expr interface {
	// Next returns the first firing time strictly after t (UTC, whole
	// minutes), or the zero time when there is none (a cron whose years
	// have passed).
	Next(t time.Time) time.Time
	// String is the expression as written.
	String() string
}

// Parse parses an EventBridge schedule expression: rate(value unit) with
// unit minute(s), hour(s) or day(s) (singular exactly when the value is 1,
// as EventBridge requires), or cron(minutes hours day-of-month month
// day-of-week year) with *, ?, lists, ranges, steps, and month (JAN–DEC) and
// day (SUN–SAT, 1 = Sunday) names. One of day-of-month and day-of-week must
// be ?. The L, W and # forms are refused.
func Parse(expr string) (Expr, error) {
	switch {
	case strings.HasPrefix(expr, "rate(") && strings.HasSuffix(expr, ")"):
		return parseRate(expr)
	case strings.HasPrefix(expr, "cron(") && strings.HasSuffix(expr, ")"):
		return parseCron(expr)
	}
	return nil, fmt.Errorf("schedule %q: must be rate(…) or cron(…)", expr)
}

// MustParse is Parse for expressions written in code.
func MustParse(expr string) Expr {
	e, err := Parse(expr)
	if err != nil {
		panic(err)
	}
	return e
}

// ---- rate -------------------------------------------------------------------

type rate struct {
	expr   string
	period time.Duration
}

func parseRate(expr string) (Expr, error) {
	inner := strings.TrimSuffix(strings.TrimPrefix(expr, "rate("), ")")
	parts := strings.Fields(inner)
	if len(parts) != 2 {
		return nil, fmt.Errorf("schedule %q: rate needs a value and a unit, e.g. rate(5 minutes)", expr)
	}
	n, err := strconv.Atoi(parts[0])
	if err != nil || n < 1 || parts[0] != strconv.Itoa(n) {
		return nil, fmt.Errorf("schedule %q: the rate value must be a whole number above 0", expr)
	}
	units := map[string]time.Duration{"minute": time.Minute, "hour": time.Hour, "day": 24 * time.Hour}
	unit := parts[1]
	singular := strings.TrimSuffix(unit, "s")
	d, ok := units[singular]
	if !ok {
		return nil, fmt.Errorf("schedule %q: the unit must be minute(s), hour(s) or day(s)", expr)
	}
	if (n == 1) != (unit == singular) {
		return nil, fmt.Errorf("schedule %q: EventBridge wants %q for %d", expr, map[bool]string{true: singular, false: singular + "s"}[n == 1], n)
	}
	return rate{expr: expr, period: time.Duration(n) * d}, nil
}

// Next fires at whole multiples of the period counted from midnight UTC: on
// AWS a rate counts from the rule's creation, which no local clock can know,
// so the local scheduler picks aligned times (every 5 minutes: :00, :05, …).
func (r rate) Next(t time.Time) time.Time {
	t = t.UTC()
	return t.Truncate(r.period).Add(r.period)
}

func (r rate) String() string { return r.expr }

// ---- cron -------------------------------------------------------------------

// field bounds and names, in the order the expression lists them.
var cronFields = []struct {
	name     string
	min, max int
	names    map[string]int
}{
	{name: "minutes", min: 0, max: 59},
	{name: "hours", min: 0, max: 23},
	{name: "day-of-month", min: 1, max: 31},
	{name: "month", min: 1, max: 12, names: map[string]int{
		"JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6,
		"JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10, "NOV": 11, "DEC": 12,
	}},
	{name: "day-of-week", min: 1, max: 7, names: map[string]int{
		"SUN": 1, "MON": 2, "TUE": 3, "WED": 4, "THU": 5, "FRI": 6, "SAT": 7,
	}},
	{name: "year", min: 1970, max: 2199},
}

const (
	fMinute = iota
	fHour
	fDom
	fMonth
	fDow
	fYear
)

type cron struct {
	expr string
	// sets[i] holds the allowed values of field i (nil = any, for ?).
	sets [6]map[int]bool
}

func parseCron(expr string) (Expr, error) {
	inner := strings.TrimSuffix(strings.TrimPrefix(expr, "cron("), ")")
	parts := strings.Fields(inner)
	if len(parts) != 6 {
		return nil, fmt.Errorf("schedule %q: cron needs 6 fields (minutes hours day-of-month month day-of-week year), got %d", expr, len(parts))
	}
	c := cron{expr: expr}
	for i, p := range parts {
		if p == "?" {
			if i != fDom && i != fDow {
				return nil, fmt.Errorf("schedule %q: ? is only allowed in day-of-month and day-of-week", expr)
			}
			continue
		}
		set, err := parseField(p, i)
		if err != nil {
			return nil, fmt.Errorf("schedule %q: %s: %w", expr, cronFields[i].name, err)
		}
		c.sets[i] = set
	}
	if (parts[fDom] == "?") == (parts[fDow] == "?") {
		return nil, fmt.Errorf("schedule %q: exactly one of day-of-month and day-of-week must be ?", expr)
	}
	return c, nil
}

// parseField parses one comma-separated field into its set of values.
func parseField(s string, i int) (map[int]bool, error) {
	f := cronFields[i]
	set := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		if part == "" {
			return nil, fmt.Errorf("empty list item in %q", s)
		}
		if strings.ContainsAny(part, "LW#") && !isName(part, f.names) {
			return nil, fmt.Errorf("%q: the L, W and # forms are not supported", part)
		}
		rng, stepStr, hasStep := strings.Cut(part, "/")
		step := 1
		if hasStep {
			n, err := strconv.Atoi(stepStr)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("%q: the step must be a whole number above 0", part)
			}
			step = n
		}
		lo, hi := f.min, f.max
		switch {
		case rng == "*":
		case strings.Contains(rng, "-"):
			a, b, _ := strings.Cut(rng, "-")
			var err error
			if lo, err = value(a, f.min, f.max, f.names); err != nil {
				return nil, err
			}
			if hi, err = value(b, f.min, f.max, f.names); err != nil {
				return nil, err
			}
			if lo > hi {
				return nil, fmt.Errorf("%q: the range runs backwards", part)
			}
		default:
			v, err := value(rng, f.min, f.max, f.names)
			if err != nil {
				return nil, err
			}
			lo = v
			if !hasStep {
				hi = v // a single value; "5/15" means from 5 every 15
			}
		}
		for v := lo; v <= hi; v += step {
			set[v] = true
		}
	}
	return set, nil
}

func isName(s string, names map[string]int) bool {
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '/' }) {
		if _, ok := names[strings.ToUpper(part)]; ok {
			continue
		}
		if _, err := strconv.Atoi(part); err != nil {
			return false
		}
	}
	return true
}

func value(s string, min, max int, names map[string]int) (int, error) {
	if v, ok := names[strings.ToUpper(s)]; ok {
		return v, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || strconv.Itoa(v) != s {
		return 0, fmt.Errorf("%q is not a number or a name", s)
	}
	if v < min || v > max {
		return 0, fmt.Errorf("%d is outside %d–%d", v, min, max)
	}
	return v, nil
}

func (c cron) String() string { return c.expr }

func (c cron) match(i, v int) bool { return c.sets[i] == nil || c.sets[i][v] }

// dayMatches: the day-of-month or the day-of-week (whichever is not ?).
func (c cron) dayMatches(t time.Time) bool {
	return c.match(fDom, t.Day()) && c.match(fDow, int(t.Weekday())+1)
}

// Next walks forward field by field (year, month, day, hour, minute),
// jumping to the start of the next unit whenever one does not match, so it
// takes at most a few hundred steps whatever the expression.
func (c cron) Next(after time.Time) time.Time {
	t := after.UTC().Truncate(time.Minute).Add(time.Minute)
	for t.Year() <= cronFields[fYear].max {
		switch {
		case !c.match(fYear, t.Year()):
			t = time.Date(t.Year()+1, 1, 1, 0, 0, 0, 0, time.UTC)
		case !c.match(fMonth, int(t.Month())):
			t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		case !c.dayMatches(t):
			t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, time.UTC)
		case !c.match(fHour, t.Hour()):
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour()+1, 0, 0, 0, time.UTC)
		case !c.match(fMinute, t.Minute()):
			t = t.Add(time.Minute)
		default:
			return t
		}
	}
	return time.Time{}
}
