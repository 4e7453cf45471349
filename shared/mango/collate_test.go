package mango

import (
	"cmp"
	"encoding/json"
	"testing"
)

func TestCollateOrder(t *testing.T) {
	// Strictly increasing in CouchDB collation (strings by code point).
	ordered := []string{
		`null`, `false`, `true`,
		`-1e10`, `-1`, `0`, `1.5`, `2`, `9007199254740992`, `9007199254740993`, `1e300`,
		`""`, `"A"`, `"B"`, `"Z"`, `"a"`, `"aa"`, `"b"`, `"é"`, `"😀"`,
		`[]`, `[null]`, `[1]`, `[1,2]`, `[2]`, `["a"]`, `[[]]`,
		`{}`, `{"a":1}`, `{"a":1,"b":1}`, `{"a":2}`, `{"b":0}`,
	}
	vals := make([]any, len(ordered))
	for i, s := range ordered {
		v, _, err := decodeValue([]byte(s), 0)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		vals[i] = v
	}
	for i := range vals {
		for j := range vals {
			want := cmp.Compare(i, j)
			if got := Collate(vals[i], vals[j]); got != want {
				t.Errorf("Collate(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	if Collate(missingValue{}, nil) >= 0 {
		t.Error("missing must sort below null")
	}
}

func TestCollateNumberKinds(t *testing.T) {
	eq := [][2]any{
		{int64(1), float64(1)},
		{json.Number("1.0"), int64(1)},
		{1, json.Number("1")},
		{uint64(7), float32(7)},
	}
	for _, p := range eq {
		if Collate(p[0], p[1]) != 0 {
			t.Errorf("Collate(%#v, %#v) != 0", p[0], p[1])
		}
	}
	if Collate(int64(2), float64(1.5)) <= 0 || Collate(float64(1.5), int64(2)) >= 0 {
		t.Error("mixed int/float order")
	}
}

func TestParseField(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a", []string{"a"}},
		{"a.b.c", []string{"a", "b", "c"}},
		{`a\.b`, []string{"a.b"}},
		{`a.b\.c`, []string{"a", "b.c"}},
		{`a\\.b`, []string{`a\`, "b"}},
		{`a\`, []string{`a\`}},
	}
	for _, tt := range tests {
		got, err := parseField(tt.in)
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("parseField(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("parseField(%q) = %q; want %q", tt.in, got, tt.want)
			}
		}
	}
	for _, in := range []string{"", ".", "a..b", "a.", ".a", `a\..`} {
		if _, err := parseField(in); err == nil {
			t.Errorf("parseField(%q) should fail", in)
		}
	}
}
