// Package phonerules is what the Groups and the modules need to read a
// Group's phone numbers, without the numbering metadata itself: the Rules
// a deployable is given (shared/phones: Google's libphonenumber metadata,
// 2.3 MB of every binary that links it, decoded whole at start), the
// country a Group's language suggests, and the rules of a deployable that
// reads no phone numbers, which refuse. Only the deployables that take
// phone numbers (the API) link the metadata (issue 23.4).
package phonerules

import (
	"errors"
	"fmt"
	"strings"
)

// MsgInvalid is the field error of a number that is not a phone number of
// the Group's country (nor an international one with its + prefix).
const MsgInvalid = "is not a valid phone number"

// Fallback is the country of a Group that set none and whose language says
// nothing more specific.
const Fallback = "US"

// ErrUnknownCountry is Rules.Country's answer for a code that names no
// country the numbering metadata knows.
var ErrUnknownCountry = errors.New("not a country of the numbering plans")

// ErrNoRules is what the refusing rules fail with: the deployable was not
// given the numbering metadata.
var ErrNoRules = errors.New("phone numbers cannot be read here")

// Rules read phone numbers in a country's numbering plan.
type Rules interface {
	// Country normalises a country setting: an ISO 3166-1 alpha-2 code
	// the numbering metadata knows, upper-cased; ErrUnknownCountry for
	// anything else.
	Country(code string) (string, error)
	// NormalizeItems rewrites the "number" of each phone item (a JSON
	// object, as customers and the Group keep them) in E.164, read in
	// country, and returns the field errors (MsgInvalid) of the numbers
	// that are not phone numbers, keyed "<prefix>[i].number". Items are
	// changed in place.
	NormalizeItems(items []any, country, prefix string) (map[string][]string, error)
	// Display formats a stored number for print: nationally when it is of
	// country, else internationally; as stored when it does not parse.
	Display(number, country string) string
}

// DefaultCountry is the country a Group's language suggests: Brazilian
// Portuguese → BR, anything else → US (SPEC.md §9's defaults are US
// English's).
func DefaultCountry(locale string) string {
	if strings.HasPrefix(strings.ToLower(locale), "pt") {
		return "BR"
	}
	return Fallback
}

// GroupCountry is a Group's country: its country setting when valid, else
// the one its language setting suggests. setting reads a Group setting by
// key (nil when unset).
func GroupCountry(r Rules, setting func(key string) (any, error)) (string, error) {
	v, err := setting("country")
	if err != nil {
		return "", err
	}
	if s, _ := v.(string); s != "" {
		c, err := r.Country(s)
		switch {
		case err == nil:
			return c, nil
		case !errors.Is(err, ErrUnknownCountry):
			return "", err
		}
	}
	l, err := setting("locale")
	if err != nil {
		return "", err
	}
	s, _ := l.(string)
	return DefaultCountry(s), nil
}

// Refusing is the rules of a deployable that reads no phone numbers (one
// built without the metadata): Country and NormalizeItems fail with
// ErrNoRules and reason, so a write that needs them is refused whole
// rather than stored unread; Display prints numbers as stored.
func Refusing(reason string) Rules { return refusing(reason) }

type refusing string

func (r refusing) Country(code string) (string, error) {
	return "", fmt.Errorf("country %q not checked: %w: %s", code, ErrNoRules, string(r))
}

func (r refusing) NormalizeItems([]any, string, string) (map[string][]string, error) {
	return nil, fmt.Errorf("phone numbers not normalised: %w: %s", ErrNoRules, string(r))
}

func (refusing) Display(number, _ string) string { return number }
