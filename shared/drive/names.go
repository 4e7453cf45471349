package drive

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Messages of the name rule (422 field errors on "name").
var (
	MsgNameBlank   = "can't be blank"
	MsgNameDots    = `cannot be "." or ".."`
	MsgNameSlash   = `cannot contain "/"`
	MsgNameControl = "cannot contain control characters (line breaks, tabs, NUL or invisible direction marks)"
	MsgNameLong    = fmt.Sprintf("is too long (maximum is %d bytes)", MaxNameBytes)
	MsgNameInvalid = "is invalid"
)

// CleanName checks an entry's name and returns it in Unicode NFC, the form
// in which names are compared (so "é" typed as one code point or as "e" and
// a combining accent is one name), or a message saying what is wrong.
// Names are case sensitive and kept exactly otherwise: spaces are part of
// a name, "%2f" is three characters like any others.
func CleanName(v any) (string, string) {
	s, ok := v.(string)
	if !ok {
		if v == nil {
			return "", MsgNameBlank
		}
		return "", MsgNameInvalid
	}
	if !utf8.ValidString(s) {
		return "", MsgNameInvalid
	}
	s = norm.NFC.String(s)
	switch {
	case strings.TrimSpace(s) == "":
		return "", MsgNameBlank
	case s == "." || s == "..":
		return "", MsgNameDots
	case strings.Contains(s, "/"):
		return "", MsgNameSlash
	case strings.ContainsFunc(s, nameControl):
		return "", MsgNameControl
	case len(s) > MaxNameBytes:
		return "", MsgNameLong
	}
	return s, ""
}

// nameControl refuses what would break a listing, a header or a path
// (C0, DEL, C1) and the bidirectional overrides that make "gpj.exe" read as
// "exe.jpg".
func nameControl(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
