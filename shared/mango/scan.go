package mango

import (
	"bytes"
	"errors"
	"hash/maphash"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON scanner for the _find hot loop: it walks a document's
// top-level object, skips the members no condition or sort key reads
// (strings are skipped with bytes.IndexByte, so skipping costs little more
// than a memchr) and decodes only the wanted ones. Bodies come from the
// store, which only holds valid JSON, so the scanner checks structure just
// enough never to misread or panic; it is not a validator.

var errSyntax = errors.New("mango: malformed JSON document")

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString returns the index after the string whose opening quote is at i.
func skipString(b []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, errSyntax
		}
		q := j + k
		// The quote is escaped when an odd number of backslashes precede it.
		bs := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
}

// skipValue returns the index after the value starting at i.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errSyntax
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				j, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = j
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, errSyntax
	case 't':
		return skipLiteral(b, i, "true")
	case 'f':
		return skipLiteral(b, i, "false")
	case 'n':
		return skipLiteral(b, i, "null")
	}
	j := numberEnd(b, i)
	if j == i {
		return 0, errSyntax
	}
	return j, nil
}

func skipLiteral(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, errSyntax
	}
	return i + len(lit), nil
}

func numberEnd(b []byte, i int) int {
	for i < len(b) {
		switch c := b[i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			i++
		default:
			return i
		}
	}
	return i
}

// decoder decodes the wanted top-level members of one Run's candidates.
// A top-level string value is looked up in a small direct-mapped cache per
// member first: values such as klass or status repeat in nearly every
// document, and reusing the boxed string saves two allocations each, while
// unique values (timestamps) only ever evict their own member's slots.
type decoder struct {
	seed   maphash.Seed
	caches []strCache
}

type strCache [64]struct {
	s string
	v any
}

const maxCachedLen = 64

func newDecoder(members int) *decoder {
	return &decoder{seed: maphash.MakeSeed(), caches: make([]strCache, members)}
}

func (d *decoder) topString(member int, raw []byte) any {
	if d == nil || len(raw) > maxCachedLen {
		return string(raw)
	}
	e := &d.caches[member][maphash.Bytes(d.seed, raw)&63]
	if e.v != nil && e.s == string(raw) {
		return e.v
	}
	e.s = string(raw)
	e.v = e.s
	return e.v
}

// decodeValue decodes the value at i into the types encoding/json uses,
// except that integers which fit are int64 (exact, and cheaper to compare).
func decodeValue(b []byte, i int) (any, int, error) {
	if i >= len(b) {
		return nil, 0, errSyntax
	}
	switch b[i] {
	case '"':
		return decodeString(b, i)
	case '{':
		m := make(map[string]any)
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == '}' {
			return m, i + 1, nil
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return nil, 0, errSyntax
			}
			k, j, err := decodeString(b, i)
			if err != nil {
				return nil, 0, err
			}
			i = skipWS(b, j)
			if i >= len(b) || b[i] != ':' {
				return nil, 0, errSyntax
			}
			v, j2, err := decodeValue(b, skipWS(b, i+1))
			if err != nil {
				return nil, 0, err
			}
			m[k.(string)] = v
			i = skipWS(b, j2)
			if i >= len(b) {
				return nil, 0, errSyntax
			}
			if b[i] == '}' {
				return m, i + 1, nil
			}
			if b[i] != ',' {
				return nil, 0, errSyntax
			}
			i = skipWS(b, i+1)
		}
	case '[':
		arr := []any{}
		i = skipWS(b, i+1)
		if i < len(b) && b[i] == ']' {
			return arr, i + 1, nil
		}
		for {
			v, j, err := decodeValue(b, i)
			if err != nil {
				return nil, 0, err
			}
			arr = append(arr, v)
			i = skipWS(b, j)
			if i >= len(b) {
				return nil, 0, errSyntax
			}
			if b[i] == ']' {
				return arr, i + 1, nil
			}
			if b[i] != ',' {
				return nil, 0, errSyntax
			}
			i = skipWS(b, i+1)
		}
	case 't':
		j, err := skipLiteral(b, i, "true")
		return true, j, err
	case 'f':
		j, err := skipLiteral(b, i, "false")
		return false, j, err
	case 'n':
		j, err := skipLiteral(b, i, "null")
		return nil, j, err
	}
	j := numberEnd(b, i)
	if j == i {
		return nil, 0, errSyntax
	}
	n, err := parseNumber(b[i:j])
	return n, j, err
}

func parseNumber(s []byte) (any, error) {
	// Fast path: up to 18 digits always fit an int64.
	neg := len(s) > 0 && s[0] == '-'
	d := s
	if neg {
		d = s[1:]
	}
	if len(d) > 0 && len(d) <= 18 {
		var n int64
		ok := true
		for _, c := range d {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			n = n*10 + int64(c-'0')
		}
		if ok {
			if neg {
				n = -n
			}
			return n, nil
		}
	}
	if !bytes.ContainsAny(s, ".eE") {
		if n, err := strconv.ParseInt(string(s), 10, 64); err == nil {
			return n, nil
		}
	}
	return parseFloat(string(s))
}

// parseFloat clamps out-of-range numbers (1e400) to ±MaxFloat64: they keep
// their place in the order and, unlike ±Inf, still encode in a bookmark.
func parseFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return 0, errSyntax
		}
		f = math.Copysign(math.MaxFloat64, f)
	}
	return f, nil
}

// decodeString decodes the string whose opening quote is at i.
func decodeString(b []byte, i int) (any, int, error) {
	end, err := skipString(b, i)
	if err != nil {
		return nil, 0, err
	}
	raw := b[i+1 : end-1]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw), end, nil
	}
	s, ok := unescape(raw)
	if !ok {
		return nil, 0, errSyntax
	}
	return s, end, nil
}

// unescape decodes JSON string escapes, joining UTF-16 surrogate pairs and
// replacing lone surrogates with U+FFFD as encoding/json does.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(raw) {
			return "", false
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			out = append(out, raw[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(raw, i+2)
			if !ok {
				return "", false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r2, ok := hex4(raw, i+2); ok && i+1 < len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						i += 6
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	return string(out), true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// extractTop decodes into m the top-level members of the object in b whose
// names are in names, skipping the rest. It stops as soon as all are found;
// stored bodies never repeat a key, so the first occurrence is the only one.
// An empty body is an empty object.
func (d *decoder) extractTop(b []byte, names []string, m map[string]any) error {
	i := skipWS(b, 0)
	if i == len(b) {
		return nil
	}
	if b[i] != '{' {
		return errSyntax
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return nil
	}
	left := len(names)
	for {
		if i >= len(b) || b[i] != '"' {
			return errSyntax
		}
		end, err := skipString(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : end-1]
		want := -1
		if bytes.IndexByte(key, '\\') >= 0 {
			if k, ok := unescape(key); ok {
				key = []byte(k)
			}
		}
		for j, n := range names {
			if string(key) == n {
				want = j
				break
			}
		}
		i = skipWS(b, end)
		if i >= len(b) || b[i] != ':' {
			return errSyntax
		}
		i = skipWS(b, i+1)
		if want >= 0 {
			var v any
			var j int
			var err error
			if i < len(b) && b[i] == '"' {
				j, err = skipString(b, i)
				if err == nil {
					if raw := b[i+1 : j-1]; bytes.IndexByte(raw, '\\') < 0 {
						v = d.topString(want, raw)
					} else {
						v, j, err = decodeString(b, i)
					}
				}
			} else {
				v, j, err = decodeValue(b, i)
			}
			if err != nil {
				return err
			}
			if _, dup := m[names[want]]; !dup {
				left--
			}
			m[names[want]] = v
			if left == 0 {
				return nil
			}
			i = j
		} else {
			j, err := skipValue(b, i)
			if err != nil {
				return err
			}
			i = j
		}
		i = skipWS(b, i)
		if i >= len(b) {
			return errSyntax
		}
		if b[i] == '}' {
			return nil
		}
		if b[i] != ',' {
			return errSyntax
		}
		i = skipWS(b, i+1)
	}
}
