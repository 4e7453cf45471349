// Package phones reads phone numbers as a shop types them — "(11)
// 98765-4321" in Brazil, "(212) 555-0100" in the US — in the Group's
// country, and keeps them in E.164 ("+5511987654321"), the form WhatsApp's
// wa.me links and every dialer understand. Parsing is Google's
// libphonenumber metadata and rules (github.com/nyaruka/phonenumbers, kept
// in step with it: numbering.go and the generated territories.go), not a
// hand-written pattern: numbering plans change every year.
//
// The Groups and the modules read phone numbers through phonerules.Rules,
// and only the deployables that take phone numbers are given Metadata
// (issue 23.4).
//
//go:generate go run ./internal/gen
package phones

import (
	"errors"
	"fmt"
	"strings"

	"github.com/oficina/oficina/shared/phonerules"
)

// ErrInvalid is returned for a number that cannot be dialled.
var ErrInvalid = errors.New(phonerules.MsgInvalid)

// Metadata is phonerules.Rules on libphonenumber's metadata.
type Metadata struct{}

var _ phonerules.Rules = Metadata{}

// Country implements phonerules.Rules (Country).
func (Metadata) Country(code string) (string, error) {
	if c, ok := Country(code); ok {
		return c, nil
	}
	return "", phonerules.ErrUnknownCountry
}

// NormalizeItems implements phonerules.Rules (NormalizeItems).
func (Metadata) NormalizeItems(items []any, country, prefix string) (map[string][]string, error) {
	return NormalizeItems(items, country, prefix), nil
}

// Display implements phonerules.Rules (Display).
func (Metadata) Display(number, country string) string { return Display(number, country) }

// Country normalises a country setting: an ISO 3166-1 alpha-2 code the
// numbering metadata knows, upper-cased; ok is false for anything else.
func Country(code string) (string, bool) {
	c := strings.ToUpper(strings.TrimSpace(code))
	if len(c) != 2 || !supportedRegions()[c] {
		return "", false
	}
	return c, true
}

// Normalize reads raw as typed in country and returns it in E.164. An
// empty number stays empty; a number with a + prefix may be of any
// country; anything that is not a valid number is ErrInvalid.
func Normalize(raw, country string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	if len(raw) > 40 {
		return "", ErrInvalid
	}
	n, ok := parse(raw, country)
	if !ok || !n.valid() {
		return "", ErrInvalid
	}
	return n.format(e164), nil
}

// NormalizeItems rewrites the "number" of each phone item (a JSON object,
// as customers and the Group keep them) in E.164, read in country, and
// returns the field errors of the numbers that are not phone numbers,
// keyed "<prefix>[i].number". Items are changed in place.
func NormalizeItems(items []any, country, prefix string) map[string][]string {
	errs := map[string][]string{}
	for i, item := range items {
		m, _ := item.(map[string]any)
		if m == nil {
			continue
		}
		raw, _ := m["number"].(string)
		n, err := Normalize(raw, country)
		if err != nil {
			errs[fmt.Sprintf("%s[%d].number", prefix, i)] = []string{phonerules.MsgInvalid}
			continue
		}
		m["number"] = n
	}
	return errs
}

// Display formats a stored number for print: in the national way when it
// is of country ("(11) 98765-4321"), else internationally ("+1 212-555-0100").
// A number that does not parse is printed as stored.
func Display(number, country string) string {
	n, ok := parse(number, country)
	if !ok || !n.valid() {
		return number
	}
	if n.region() == country {
		return n.format(national)
	}
	return n.format(international)
}
