// Package phones reads phone numbers as a shop types them — "(11)
// 98765-4321" in Brazil, "(212) 555-0100" in the US — in the Group's
// country, and keeps them in E.164 ("+5511987654321"), the form WhatsApp's
// wa.me links and every dialer understand. Parsing is Google's
// libphonenumber metadata (github.com/nyaruka/phonenumbers, kept in step
// with it), not a hand-written pattern: numbering plans change every year.
package phones

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// MsgInvalid is the field error of a number that is not a phone number of
// the Group's country (nor an international one with its + prefix).
const MsgInvalid = "is not a valid phone number"

// ErrInvalid is returned for a number that cannot be dialled.
var ErrInvalid = errors.New(MsgInvalid)

// Fallback is the country of a Group that set none and whose language says
// nothing more specific.
const Fallback = "US"

// DefaultCountry is the country a Group's language suggests: Brazilian
// Portuguese → BR, anything else → US (SPEC.md §9's defaults are US
// English's).
func DefaultCountry(locale string) string {
	if strings.HasPrefix(strings.ToLower(locale), "pt") {
		return "BR"
	}
	return Fallback
}

// Country normalises a country setting: an ISO 3166-1 alpha-2 code the
// numbering metadata knows, upper-cased; ok is false for anything else.
func Country(code string) (string, bool) {
	c := strings.ToUpper(strings.TrimSpace(code))
	if len(c) != 2 || !phonenumbers.GetSupportedRegions()[c] {
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
	n, err := phonenumbers.Parse(raw, country)
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return "", ErrInvalid
	}
	return phonenumbers.Format(n, phonenumbers.E164), nil
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
			errs[fmt.Sprintf("%s[%d].number", prefix, i)] = []string{MsgInvalid}
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
	n, err := phonenumbers.Parse(number, country)
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return number
	}
	if phonenumbers.GetRegionCodeForNumber(n) == country {
		return phonenumbers.Format(n, phonenumbers.NATIONAL)
	}
	return phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
}

// GroupCountry is a Group's country: its country setting when valid, else
// the one its language setting suggests. setting reads a Group setting by
// key (nil when unset).
func GroupCountry(setting func(key string) (any, error)) (string, error) {
	v, err := setting("country")
	if err != nil {
		return "", err
	}
	if s, _ := v.(string); s != "" {
		if c, ok := Country(s); ok {
			return c, nil
		}
	}
	l, err := setting("locale")
	if err != nil {
		return "", err
	}
	s, _ := l.(string)
	return DefaultCountry(s), nil
}
