package phones

import (
	"errors"
	"testing"

	"github.com/oficina/oficina/shared/phonerules"
)

func TestNormalize(t *testing.T) {
	cases := []struct {
		raw, country, want string
		err                error
	}{
		{"(11) 98765-4321", "BR", "+5511987654321", nil},
		{"11 98765-4321", "BR", "+5511987654321", nil},
		{"011 98765 4321", "BR", "+5511987654321", nil},
		{"+55 11 98765-4321", "US", "+5511987654321", nil},
		{"(11) 3333-4444", "BR", "+551133334444", nil},
		{"(212) 555-0100", "US", "+12125550100", nil},
		{"(650) 253-0000", "US", "+16502530000", nil},
		{"+1 650 253 0000", "BR", "+16502530000", nil},
		{"", "BR", "", nil},
		{"   ", "BR", "", nil},
		{"555", "BR", "", ErrInvalid},
		{"(11) 98765-4321", "US", "", ErrInvalid}, // a Brazilian mobile read as a US number
		{"call me", "BR", "", ErrInvalid},
		{"+55 11 98765-4321 98765-4321 98765-4321 98765", "BR", "", ErrInvalid},
	}
	for _, c := range cases {
		got, err := Normalize(c.raw, c.country)
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("Normalize(%q, %s) = %q, %v; want %q, %v", c.raw, c.country, got, err, c.want, c.err)
		}
	}
}

func TestCountry(t *testing.T) {
	for in, want := range map[string]string{"br": "BR", " US ": "US", "PT": "PT", "XX": "", "BRA": "", "": ""} {
		got, ok := Country(in)
		if got != want || ok != (want != "") {
			t.Errorf("Country(%q) = %q, %v", in, got, ok)
		}
		// The rules say the same, an unknown code as ErrUnknownCountry.
		got, err := Metadata{}.Country(in)
		if got != want || (want == "") != errors.Is(err, phonerules.ErrUnknownCountry) {
			t.Errorf("Metadata.Country(%q) = %q, %v", in, got, err)
		}
	}
}

func TestDisplay(t *testing.T) {
	for _, c := range []struct{ number, country, want string }{
		{"+5511987654321", "BR", "(11) 98765-4321"},
		{"+5511987654321", "US", "+55 11 98765-4321"},
		{"+16502530000", "US", "(650) 253-0000"},
		{"old text", "BR", "old text"},
	} {
		if got := Display(c.number, c.country); got != c.want {
			t.Errorf("Display(%q, %s) = %q, want %q", c.number, c.country, got, c.want)
		}
	}
}

func TestNormalizeItems(t *testing.T) {
	items := []any{
		map[string]any{"number": "(11) 98765-4321", "main": true},
		map[string]any{"number": "555"},
		map[string]any{"number": ""},
		"not an item",
	}
	errs := NormalizeItems(items, "BR", "phones")
	if len(errs) != 1 || errs["phones[1].number"][0] != phonerules.MsgInvalid {
		t.Fatalf("errors %v", errs)
	}
	if n := items[0].(map[string]any)["number"]; n != "+5511987654321" {
		t.Fatalf("item 0 %v", n)
	}
	if n := items[2].(map[string]any)["number"]; n != "" {
		t.Fatalf("a blank number %v", n)
	}
}
