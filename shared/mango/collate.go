package mango

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// missingValue stands for an absent field in a sort key. It collates below
// null, so documents that lack a sort field sort first ascending and last
// descending instead of vanishing as they would from a CouchDB json index.
type missingValue struct{}

// Collation ranks, CouchDB order: null < false < true < numbers < strings <
// arrays < objects. rankMissing exists only for sort keys.
const (
	rankMissing = iota
	rankNull
	rankFalse
	rankTrue
	rankNumber
	rankString
	rankArray
	rankObject
)

func rank(v any) int {
	switch t := v.(type) {
	case nil:
		return rankNull
	case bool:
		if t {
			return rankTrue
		}
		return rankFalse
	case string:
		return rankString
	case []any:
		return rankArray
	case map[string]any:
		return rankObject
	case missingValue:
		return rankMissing
	case int64, float64, json.Number, int, int32, uint32, uint64, uint, float32:
		return rankNumber
	}
	// Anything else is not a decoded JSON value; rank it last so the order
	// stays total rather than panicking on a caller's odd map.
	return rankObject + 1
}

// Collate compares two decoded JSON values with CouchDB's collation: by type
// (null < false < true < numbers < strings < arrays < objects), numbers by
// value (1 == 1.0), strings by Unicode code point (NOT CouchDB's ICU/UCA
// collation: "B" < "a" here), arrays element by element then by length, and
// objects pair by pair in key order then by size. Go maps do not keep key
// order, so objects are compared with their keys sorted.
//
// Values are what encoding/json produces (with or without UseNumber) plus
// int64 and the other Go integer types.
func Collate(a, b any) int {
	ra, rb := rank(a), rank(b)
	if ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	switch ra {
	case rankNumber:
		x, _ := toNumber(a)
		y, _ := toNumber(b)
		return cmpNumber(x, y)
	case rankString:
		return strings.Compare(a.(string), b.(string))
	case rankArray:
		x, y := a.([]any), b.([]any)
		for i := 0; i < len(x) && i < len(y); i++ {
			if c := Collate(x[i], y[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(x), len(y))
	case rankObject:
		return cmpObject(a.(map[string]any), b.(map[string]any))
	}
	return 0
}

func cmpObject(x, y map[string]any) int {
	kx, ky := sortedKeys(x), sortedKeys(y)
	for i := 0; i < len(kx) && i < len(ky); i++ {
		if c := strings.Compare(kx[i], ky[i]); c != 0 {
			return c
		}
		if c := Collate(x[kx[i]], y[ky[i]]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(kx), len(ky))
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// number keeps integers exact (ids, counters and amounts in minor units
// beyond 2^53 must not collide) and falls back to float64 otherwise.
type number struct {
	i     int64
	f     float64
	isInt bool
}

func toNumber(v any) (number, bool) {
	switch t := v.(type) {
	case int64:
		return number{i: t, isInt: true}, true
	case float64:
		return number{f: t}, true
	case int:
		return number{i: int64(t), isInt: true}, true
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return number{i: i, isInt: true}, true
		}
		f, _ := parseFloat(string(t))
		return number{f: f}, true
	case int32:
		return number{i: int64(t), isInt: true}, true
	case uint32:
		return number{i: int64(t), isInt: true}, true
	case uint:
		if uint64(t) <= math.MaxInt64 {
			return number{i: int64(t), isInt: true}, true
		}
		return number{f: float64(t)}, true
	case uint64:
		if t <= math.MaxInt64 {
			return number{i: int64(t), isInt: true}, true
		}
		return number{f: float64(t)}, true
	case float32:
		return number{f: float64(t)}, true
	}
	return number{}, false
}

func (n number) float() float64 {
	if n.isInt {
		return float64(n.i)
	}
	return n.f
}

func cmpNumber(a, b number) int {
	if a.isInt && b.isInt {
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	}
	x, y := a.float(), b.float()
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// integral reports v as an int64 when it is a whole number. 3.0 counts: a
// doc decoded without UseNumber holds only float64s and $mod must still work
// on it (CouchDB, which keeps the literal, rejects 3.0).
func integral(v any) (int64, bool) {
	n, ok := toNumber(v)
	if !ok {
		return 0, false
	}
	if n.isInt {
		return n.i, true
	}
	if n.f != math.Trunc(n.f) || n.f < -(1<<63) || n.f >= 1<<63 {
		return 0, false
	}
	return int64(n.f), true
}

// typeName is the $type name of a JSON value.
func typeName(v any) string {
	switch rank(v) {
	case rankNull:
		return "null"
	case rankFalse, rankTrue:
		return "boolean"
	case rankNumber:
		return "number"
	case rankString:
		return "string"
	case rankArray:
		return "array"
	case rankObject:
		return "object"
	}
	return ""
}

// normValue turns json.Number (from a UseNumber decode of the request) into
// int64 or float64 so comparisons in the hot loop never parse text.
func normValue(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i
		}
		f, _ := parseFloat(string(t))
		return f
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = normValue(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = normValue(x)
		}
		return out
	}
	return v
}
