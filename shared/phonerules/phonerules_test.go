package phonerules_test

import (
	"errors"
	"testing"

	"github.com/oficina/oficina/shared/phonerules"
	"github.com/oficina/oficina/shared/phones"
)

func TestDefaultCountry(t *testing.T) {
	for l, want := range map[string]string{"pt-BR": "BR", "pt": "BR", "PT-br": "BR", "en": "US", "es": "US", "": "US"} {
		if got := phonerules.DefaultCountry(l); got != want {
			t.Errorf("DefaultCountry(%q) = %q", l, got)
		}
	}
}

func TestGroupCountry(t *testing.T) {
	settings := func(m map[string]any) func(string) (any, error) {
		return func(k string) (any, error) { return m[k], nil }
	}
	refusing := phonerules.Refusing("no metadata in this test")
	for _, c := range []struct {
		m     map[string]any
		rules phonerules.Rules
		want  string
		err   error
	}{
		{map[string]any{"country": "PT", "locale": "en"}, phones.Metadata{}, "PT", nil},
		{map[string]any{"country": "zz", "locale": "pt-BR"}, phones.Metadata{}, "BR", nil},
		{map[string]any{"locale": "pt-BR"}, phones.Metadata{}, "BR", nil},
		{map[string]any{}, phones.Metadata{}, "US", nil},
		// Without the metadata a country setting cannot be checked: refused,
		// not guessed; a Group that set none still gets its language's.
		{map[string]any{"country": "PT", "locale": "en"}, refusing, "", phonerules.ErrNoRules},
		{map[string]any{"locale": "pt-BR"}, refusing, "BR", nil},
	} {
		got, err := phonerules.GroupCountry(c.rules, settings(c.m))
		if got != c.want || !errors.Is(err, c.err) || (c.err == nil) != (err == nil) {
			t.Errorf("GroupCountry(%v) = %q, %v; want %q, %v", c.m, got, err, c.want, c.err)
		}
	}
	boom := errors.New("store down")
	if _, err := phonerules.GroupCountry(phones.Metadata{}, func(string) (any, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("a failed read: %v", err)
	}
}

// TestRefusing: the rules of a deployable without the metadata refuse
// what needs it with ErrNoRules and the reason, and change nothing.
func TestRefusing(t *testing.T) {
	r := phonerules.Refusing("this function takes no phone numbers")
	if c, err := r.Country("BR"); c != "" || !errors.Is(err, phonerules.ErrNoRules) {
		t.Errorf("Country = %q, %v", c, err)
	}
	items := []any{map[string]any{"number": "(11) 98765-4321"}}
	fields, err := r.NormalizeItems(items, "BR", "phones")
	if fields != nil || !errors.Is(err, phonerules.ErrNoRules) {
		t.Errorf("NormalizeItems = %v, %v", fields, err)
	}
	if err == nil || err.Error() != "phone numbers not normalised: phone numbers cannot be read here: this function takes no phone numbers" {
		t.Errorf("message %v", err)
	}
	if n := items[0].(map[string]any)["number"]; n != "(11) 98765-4321" {
		t.Errorf("item changed to %v", n)
	}
	if got := r.Display("+5511987654321", "BR"); got != "+5511987654321" {
		t.Errorf("Display = %q", got)
	}
}
