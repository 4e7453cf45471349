package mango

import (
	"errors"
	"maps"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// Bounds on what one request may ask of the engine, so that its cost
// follows from its size: a body of the largest allowed size must not buy
// seconds of CPU (issue 8). Every bound is far above what the SPA sends.
const (
	MaxFields        = 256  // entries of "fields" (and of ?fields=)
	MaxFieldLen      = 256  // bytes of one field name (a dotted path)
	MaxSortFields    = 16   // entries of "sort"
	MaxSelectorTerms = 2000 // object members and array elements of a selector, all levels
	MaxSelectorDepth = 32   // nested objects and arrays in a selector
	MaxRegexLen      = 256  // bytes of a $regex pattern
)

func errTooManyFields() error { return badf("fields: at most %d may be requested", MaxFields) }

func errFieldTooLong() error {
	return badf("field name is too long (maximum is %d characters)", MaxFieldLen)
}

// checkSelectorSize walks the decoded selector once, before it is compiled,
// refusing one that is too large or too deep.
func checkSelectorSize(v any) error {
	terms := 0
	var walk func(v any, depth int) error
	walk = func(v any, depth int) error {
		var children []any
		switch t := v.(type) {
		case map[string]any:
			children = slices.Collect(maps.Values(t))
		case []any:
			children = t
		default:
			return nil
		}
		if depth >= MaxSelectorDepth {
			return badf("selector is nested too deeply (maximum is %d levels)", MaxSelectorDepth)
		}
		terms += len(children)
		if terms > MaxSelectorTerms {
			return badf("selector is too large (maximum is %d conditions and values)", MaxSelectorTerms)
		}
		for _, x := range children {
			if err := walk(x, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(v, 0)
}

// compileRegex compiles a $regex argument. Errors name the problem in a
// few words (the regexp package's error code) and never repeat the pattern.
func compileRegex(s string) (*regexp.Regexp, error) {
	if len(s) > MaxRegexLen {
		return nil, badf("$regex is too long (maximum is %d characters)", MaxRegexLen)
	}
	re, err := regexp.Compile(s)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, badf("invalid $regex: %s", se.Code)
		}
		return nil, bad("invalid $regex")
	}
	return re, nil
}

// ParseFieldList reads a comma-separated ?fields= list (GET of a document,
// a user or a Group record), with the bounds of _find's "fields".
func ParseFieldList(list string) ([]string, error) {
	if strings.Count(list, ",") >= MaxFields {
		return nil, errTooManyFields()
	}
	fields := strings.Split(list, ",")
	for _, f := range fields {
		if _, err := parseField(f); err != nil {
			return nil, err
		}
	}
	return fields, nil
}
