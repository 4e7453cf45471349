package mango

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

var scanSamples = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `-12`, `3.25`, `1e3`, `-1.5E-7`,
	`123456789012345678`, `1234567890123456789`, `-9223372036854775808`, `9223372036854775808`,
	`""`, `"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00"`, `"\ud800x"`,
	`"\ud83d\u0041"`, `"tab\\"`, `"\\\""`, `"é中😀"`,
	` { "a" : [ 1 , { "b" : null } , "x" ] , "c" : { } , "d":[] } `,
	`{"k\"ey":1,"k\\":2,"\u006b":3}`,
	`[[[[[]]]],{"a":{"b":{"c":[1,2,{"d":"}]"}]}}}]`,
	`{"dup":1,"dup":2}`, ` {"":[] } `,
}

func stdDecode(t testing.TB, s string) any {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("encoding/json rejects %s: %v", s, err)
	}
	return normValue(v)
}

func TestScannerMatchesEncodingJSON(t *testing.T) {
	for _, s := range scanSamples {
		checkScan(t, []byte(s))
	}
}

func checkScan(t testing.TB, b []byte) {
	want := stdDecode(t, string(b))
	i := skipWS(b, 0)
	got, end, err := decodeValue(b, i)
	if err != nil {
		t.Fatalf("decodeValue(%s): %v", b, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("decodeValue(%s) = %#v, want %#v", b, got, want)
	}
	if skipWS(b, end) != len(b) {
		t.Fatalf("decodeValue(%s) stopped at %d", b, end)
	}
	if e2, err := skipValue(b, i); err != nil || e2 != end {
		t.Fatalf("skipValue(%s) = %d, %v; decodeValue ended at %d", b, e2, err, end)
	}
	if obj, ok := want.(map[string]any); ok {
		names := make([]string, 0, len(obj))
		for k := range obj {
			names = append(names, k)
		}
		m := map[string]any{}
		if err := newDecoder(len(names)).extractTop(b, names, m); err != nil {
			t.Fatalf("extractTop(%s): %v", b, err)
		}
		if !reflect.DeepEqual(m, obj) && !hasDupKeys(b) {
			t.Fatalf("extractTop(%s) = %#v, want %#v", b, m, obj)
		}
	}
}

// hasDupKeys reports a repeated top-level key: extractTop keeps the first
// (stored bodies never repeat one), encoding/json the last.
func hasDupKeys(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		k := tok.(string)
		if seen[k] {
			return true
		}
		seen[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}

func TestExtractTopPartial(t *testing.T) {
	b := []byte(`{"big":{"x":[1,2,{"y":"}"}]},"s":"a\"}","n":5,"later":{"bad json is never read"`)
	m := map[string]any{}
	if err := (*decoder)(nil).extractTop(b, []string{"n", "s"}, m); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m, map[string]any{"s": `a"}`, "n": int64(5)}) {
		t.Errorf("got %#v", m)
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range scanSamples {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":"\`))
	f.Add([]byte(`{"a":[1,2`))
	f.Fuzz(func(t *testing.T, b []byte) {
		// Never panic on anything.
		decodeValue(b, skipWS(b, 0))
		skipValue(b, skipWS(b, 0))
		(*decoder)(nil).extractTop(b, []string{"a", "b"}, map[string]any{})
		if json.Valid(b) && utf8.Valid(b) {
			checkScan(t, b)
		}
	})
}
