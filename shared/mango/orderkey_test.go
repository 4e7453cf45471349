package mango

import (
	"slices"
	"strings"
	"testing"
)

// TestOrderKey: keys sort in Collate order (missing, null, then strings by
// code point, a prefix first, control bytes included), and what cannot be
// ordered is told apart and sorts after every ordered key.
func TestOrderKey(t *testing.T) {
	type value struct {
		v       any
		present bool
	}
	values := []value{
		{nil, false}, {nil, true},
		{"", true}, {"\x00", true}, {"\x00a", true}, {"\x01", true}, {"\x02", true}, {"\x03", true},
		{"A", true}, {"Ana", true}, {"Ana B", true}, {"Ana\x00", true}, {"Ana\x01", true}, {"Ana\x02", true}, {"Ana#", true},
		{"B", true}, {"a", true}, {"zé", true}, {"Ébano", true}, {"é", true}, {"日本", true},
	}
	// What Collate says, missing first (the sort's rule for a lacking field).
	want := slices.Clone(values)
	slices.SortFunc(want, func(a, b value) int {
		if !a.present || !b.present {
			return boolCmp(a.present, b.present)
		}
		return Collate(a.v, b.v)
	})
	got := slices.Clone(values)
	slices.SortFunc(got, func(a, b value) int {
		return strings.Compare(OrderKey(a.v, a.present)+"#id", OrderKey(b.v, b.present)+"#id")
	})
	if !slices.Equal(got, want) {
		t.Fatalf("key order\n got %v\nwant %v", got, want)
	}
	for _, v := range values {
		if k := OrderKey(v.v, v.present); !IsOrderKey(k) {
			t.Errorf("%q: key %q is not an order key", v.v, k)
		}
	}

	ordered := OrderKey("\U0010FFFF\U0010FFFF", true)
	for _, v := range []any{true, false, 1.5, int64(3), []any{"a"}, map[string]any{"a": 1}, strings.Repeat("x", 1000), strings.Repeat("\x00", 500)} {
		k := OrderKey(v, true)
		if IsOrderKey(k) {
			t.Errorf("%v: %q taken for an order key", v, k)
		}
		if k <= ordered {
			t.Errorf("%v: %q sorts before an ordered key", v, k)
		}
	}
	// Keys of another shape (dates, written before the klass was keyed by
	// a field) are no order keys and sort after them.
	for _, k := range []string{"2026-11-28T10:00:00.000Z", "", "#"} {
		if IsOrderKey(k) {
			t.Errorf("%q taken for an order key", k)
		}
		if k != "" && k <= ordered {
			t.Errorf("%q sorts before an ordered key", k)
		}
	}
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
