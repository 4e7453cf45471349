package mango

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"slices"

	"github.com/oficina/oficina/shared/fault"
)

// Selector is a compiled Mango selector.
//
// Compilation follows CouchDB's mango_selector normalisation: implicit $eq
// and $and are made explicit, field names are pushed down to the terminal
// operators ({"a": {"b": {"$gt": 1}}} is "a.b" > 1), and at the top level
// $not/$nor are pushed down to the leaves with De Morgan's laws and operator
// inversion ($gt <-> $lte, $in <-> $nin, $exists flipped, anything else
// keeps a terminal negation). The push-down is what gives CouchDB's answers
// on missing fields: every condition on a field, negated or not, fails when
// the field is absent; only {"$exists": false} matches an absent field.
// Inside $elemMatch, $allMatch and $keyMapMatch CouchDB does not normalise
// negations, so there $not is a plain logical not.
type Selector struct {
	root *node
}

type nodeOp uint8

const (
	opAnd nodeOp = iota
	opOr
	opNot
	opNor
	opField
)

// node is a logical operator over kids, or (opField) one terminal condition
// applied to the value at path.
type node struct {
	op   nodeOp
	kids []*node
	path []string
	c    cond
}

type condOp uint8

const (
	cEq condOp = iota
	cNe
	cGt
	cGte
	cLt
	cLte
	cIn
	cNin
	cExists
	cType
	cSize
	cMod
	cRegex
	cAll
	cElemMatch
	cAllMatch
	cKeyMapMatch
)

type cond struct {
	op       condOp
	neg      bool // terminal negation left by the push-down
	val      any
	vals     []any
	b        bool
	n        int
	div, rem int64
	re       *regexp.Regexp
	typ      string
	sub      *node
	// For a long $in/$nin ({"_id": {"$in": [...hundreds of ids]}}): the
	// string arguments as a set, the rest in others. Strings collate equal
	// only to identical strings, so membership stays exact.
	strs   map[string]struct{}
	others []any
}

const setThreshold = 8

// ParseSelector compiles a selector given as JSON (for callers other than
// _find, e.g. a _changes filter). Errors are BadRequest faults.
func ParseSelector(data []byte) (*Selector, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, bad("invalid UTF-8 JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("invalid UTF-8 JSON")
	}
	return compileSelector(v)
}

func compileSelector(v any) (*Selector, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, bad("selector must be a JSON object")
	}
	if err := checkSelectorSize(obj); err != nil {
		return nil, err
	}
	root, err := compileObject(obj, nil, false)
	if err != nil {
		return nil, err
	}
	return &Selector{root: norm(root)}, nil
}

// Match reports whether an already-decoded document matches. The document
// must hold _id and _rev itself if the selector refers to them.
func (s *Selector) Match(doc map[string]any) bool {
	return s.root.match(doc)
}

// Equality returns the string a matching document must hold in field, when
// the selector (through top-level $and only) requires field to $eq a
// string, so a caller can read one klass partition instead of a database.
// Only $eq counts: $in would also match an array holding the value.
func (s *Selector) Equality(field string) (string, bool) {
	path, err := parseField(field)
	if err != nil {
		return "", false
	}
	return s.root.equality(path)
}

// Sole reports whether the selector's only condition is field's $eq of a
// string (alone, or the one kid of a top-level $and): every document
// holding that value matches.
func (s *Selector) Sole(field string) bool {
	path, err := parseField(field)
	if err != nil {
		return false
	}
	n := s.root
	if n.op == opAnd && len(n.kids) == 1 {
		n = n.kids[0]
	}
	if n.op != opField {
		return false
	}
	_, ok := n.equality(path)
	return ok
}

func (n *node) equality(path []string) (string, bool) {
	switch n.op {
	case opAnd:
		for _, k := range n.kids {
			if v, ok := k.equality(path); ok {
				return v, true
			}
		}
	case opField:
		if n.c.op == cEq && !n.c.neg && slices.Equal(n.path, path) {
			s, ok := n.c.val.(string)
			return s, ok
		}
	}
	return "", false
}

func bad(reason string) error { return fault.New(fault.BadRequest, reason) }

func badf(format string, args ...any) error { return fault.Newf(fault.BadRequest, format, args...) }

// compileObject compiles {k1: v1, k2: v2...} found at path prefix; several
// keys are an implicit $and. sub is true inside $elemMatch-like operators,
// where a bare operator applies to the element itself.
func compileObject(obj map[string]any, prefix []string, sub bool) (*node, error) {
	// Sorted so that, of several errors, the same one is always reported.
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	kids := make([]*node, 0, len(keys))
	for _, k := range keys {
		n, err := compileEntry(k, obj[k], prefix, sub)
		if err != nil {
			return nil, err
		}
		kids = append(kids, n)
	}
	if len(kids) == 1 {
		return kids[0], nil
	}
	// An empty object inside a logical operator is an empty conjunction:
	// it matches everything.
	return &node{op: opAnd, kids: kids}, nil
}

var unsupported = map[string]bool{
	"$where": true, "$text": true, "$geoWithin": true, "$geoIntersects": true,
	"$near": true, "$nearSphere": true,
}

func compileEntry(k string, v any, prefix []string, sub bool) (*node, error) {
	if len(k) == 0 || k[0] != '$' {
		segs, err := parseField(k)
		if err != nil {
			return nil, err
		}
		path := append(slices.Clip(prefix), segs...)
		if obj, ok := v.(map[string]any); ok && len(obj) > 0 {
			return compileObject(obj, path, sub)
		}
		// A bare value, {} included, is equality.
		return &node{op: opField, path: path, c: cond{op: cEq, val: normValue(v)}}, nil
	}
	switch k {
	case "$and", "$or", "$nor":
		arr, ok := v.([]any)
		if !ok {
			return nil, badf("%s requires an array", k)
		}
		n := &node{op: map[string]nodeOp{"$and": opAnd, "$or": opOr, "$nor": opNor}[k]}
		for _, e := range arr {
			obj, ok := e.(map[string]any)
			if !ok {
				return nil, badf("%s requires an array of objects", k)
			}
			kid, err := compileObject(obj, prefix, sub)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, kid)
		}
		return n, nil
	case "$not":
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, badf("%s requires an object", k)
		}
		kid, err := compileObject(obj, prefix, sub)
		if err != nil {
			return nil, err
		}
		return &node{op: opNot, kids: []*node{kid}}, nil
	}
	if unsupported[k] {
		return nil, badf("unsupported operator %s in selector", k)
	}
	c, err := compileCond(k, v)
	if err != nil {
		return nil, err
	}
	if len(prefix) == 0 && !sub {
		return nil, bad("one or more conditions is missing a field name")
	}
	return &node{op: opField, path: prefix, c: c}, nil
}

var simpleOps = map[string]condOp{
	"$eq": cEq, "$ne": cNe, "$gt": cGt, "$gte": cGte, "$lt": cLt, "$lte": cLte,
}

var typeNames = map[string]bool{
	"null": true, "boolean": true, "number": true, "string": true, "array": true, "object": true,
}

// compileCond validates one terminal operator's argument.
func compileCond(k string, v any) (cond, error) {
	if op, ok := simpleOps[k]; ok {
		return cond{op: op, val: normValue(v)}, nil
	}
	switch k {
	case "$in", "$nin", "$all":
		arr, ok := v.([]any)
		if !ok {
			return cond{}, badf("%s requires an array", k)
		}
		op := map[string]condOp{"$in": cIn, "$nin": cNin, "$all": cAll}[k]
		c := cond{op: op, vals: normValue(arr).([]any)}
		if op != cAll && len(arr) > setThreshold {
			c.strs = make(map[string]struct{}, len(arr))
			for _, v := range c.vals {
				if s, ok := v.(string); ok {
					c.strs[s] = struct{}{}
				} else {
					c.others = append(c.others, v)
				}
			}
		}
		return c, nil
	case "$exists":
		b, ok := v.(bool)
		if !ok {
			return cond{}, bad("$exists requires a boolean")
		}
		return cond{op: cExists, b: b}, nil
	case "$type":
		s, ok := v.(string)
		if !ok || !typeNames[s] {
			// CouchDB accepts any string and then matches nothing; a typo
			// silently emptying a list is worse than a 400.
			return cond{}, bad("$type requires one of null, boolean, number, string, array, object")
		}
		return cond{op: cType, typ: s}, nil
	case "$size":
		n, ok := integral(normValue(v))
		if !ok || n < 0 || isFloatLiteral(v) {
			return cond{}, bad("$size requires a non-negative integer")
		}
		return cond{op: cSize, n: int(min(n, int64(^uint32(0)>>1)))}, nil
	case "$mod":
		arr, ok := v.([]any)
		if !ok || len(arr) != 2 || isFloatLiteral(arr[0]) || isFloatLiteral(arr[1]) {
			return cond{}, bad("$mod requires an array of two integers [divisor, remainder]")
		}
		d, ok1 := integral(normValue(arr[0]))
		r, ok2 := integral(normValue(arr[1]))
		if !ok1 || !ok2 {
			return cond{}, bad("$mod requires an array of two integers [divisor, remainder]")
		}
		if d == 0 {
			return cond{}, bad("$mod divisor must not be zero")
		}
		return cond{op: cMod, div: d, rem: r}, nil
	case "$regex":
		s, ok := v.(string)
		if !ok {
			return cond{}, bad("$regex requires a string")
		}
		re, err := compileRegex(s)
		if err != nil {
			return cond{}, err
		}
		return cond{op: cRegex, re: re}, nil
	case "$elemMatch", "$allMatch", "$keyMapMatch":
		obj, ok := v.(map[string]any)
		if !ok {
			return cond{}, badf("%s requires an object", k)
		}
		sub, err := compileObject(obj, nil, true)
		if err != nil {
			return cond{}, err
		}
		op := map[string]condOp{"$elemMatch": cElemMatch, "$allMatch": cAllMatch, "$keyMapMatch": cKeyMapMatch}[k]
		return cond{op: op, sub: sub}, nil
	}
	return cond{}, badf("invalid operator %s in selector", k)
}

// isFloatLiteral is true for a number written with a fraction or exponent,
// which CouchDB never takes as an integer argument.
func isFloatLiteral(v any) bool {
	n, ok := v.(json.Number)
	return ok && bytes.ContainsAny([]byte(n), ".eE")
}

// norm pushes $not and $nor down to the leaves (CouchDB norm_negations).
func norm(n *node) *node {
	switch n.op {
	case opNot:
		return negate(n.kids[0])
	case opNor:
		return &node{op: opAnd, kids: mapNodes(n.kids, negate)}
	case opAnd, opOr:
		return &node{op: n.op, kids: mapNodes(n.kids, norm)}
	}
	return n
}

func negate(n *node) *node {
	switch n.op {
	case opNot:
		return norm(n.kids[0])
	case opNor:
		return &node{op: opOr, kids: mapNodes(n.kids, norm)}
	case opAnd:
		return &node{op: opOr, kids: mapNodes(n.kids, negate)}
	case opOr:
		return &node{op: opAnd, kids: mapNodes(n.kids, negate)}
	}
	m := *n
	m.c = negateCond(n.c)
	return &m
}

var inverse = map[condOp]condOp{
	cEq: cNe, cNe: cEq, cGt: cLte, cLte: cGt, cLt: cGte, cGte: cLt, cIn: cNin, cNin: cIn,
}

func negateCond(c cond) cond {
	if inv, ok := inverse[c.op]; ok && !c.neg {
		c.op = inv
		return c
	}
	if c.op == cExists {
		c.b = !c.b
		return c
	}
	c.neg = !c.neg
	return c
}

func mapNodes(ns []*node, f func(*node) *node) []*node {
	out := make([]*node, len(ns))
	for i, n := range ns {
		out[i] = f(n)
	}
	return out
}

func (n *node) match(v any) bool {
	switch n.op {
	case opAnd:
		for _, k := range n.kids {
			if !k.match(v) {
				return false
			}
		}
		return true
	case opOr:
		// CouchDB: an empty $or matches everything.
		if len(n.kids) == 0 {
			return true
		}
		for _, k := range n.kids {
			if k.match(v) {
				return true
			}
		}
		return false
	case opNot:
		return !n.kids[0].match(v)
	case opNor:
		for _, k := range n.kids {
			if k.match(v) {
				return false
			}
		}
		return true
	}
	x, st := lookup(v, n.path)
	switch st {
	case notFound:
		return n.c.op == cExists && !n.c.b && !n.c.neg
	case badPath:
		return false
	}
	return n.c.eval(x) != n.c.neg
}

func (c *cond) eval(x any) bool {
	switch c.op {
	case cEq:
		return Collate(x, c.val) == 0
	case cNe:
		return Collate(x, c.val) != 0
	case cGt:
		return Collate(x, c.val) > 0
	case cGte:
		return Collate(x, c.val) >= 0
	case cLt:
		return Collate(x, c.val) < 0
	case cLte:
		return Collate(x, c.val) <= 0
	case cIn:
		return c.in(x)
	case cNin:
		// For a scalar, "differs from every argument" is "not in"; for an
		// array CouchDB also takes the negation of $in.
		return len(c.vals) == 0 || !c.in(x)
	case cExists:
		return c.b
	case cType:
		return typeName(x) == c.typ
	case cSize:
		arr, ok := x.([]any)
		return ok && len(arr) == c.n
	case cMod:
		i, ok := integral(x)
		return ok && i%c.div == c.rem
	case cRegex:
		s, ok := x.(string)
		return ok && c.re.MatchString(s)
	case cAll:
		arr, ok := x.([]any)
		if !ok || len(c.vals) == 0 {
			return false
		}
		if len(c.vals) == 1 {
			if want, ok := c.vals[0].([]any); ok && Collate(want, arr) == 0 {
				return true
			}
		}
		for _, a := range c.vals {
			if !contains(arr, a) {
				return false
			}
		}
		return true
	case cElemMatch:
		arr, _ := x.([]any)
		for _, e := range arr {
			if c.sub.match(e) {
				return true
			}
		}
		return false
	case cAllMatch:
		arr, _ := x.([]any)
		for _, e := range arr {
			if !c.sub.match(e) {
				return false
			}
		}
		return len(arr) > 0
	case cKeyMapMatch:
		obj, _ := x.(map[string]any)
		for k := range obj {
			if c.sub.match(k) {
				return true
			}
		}
		return false
	}
	return false
}

// in is CouchDB's $in: an array value matches when any of its elements
// equals any argument; a scalar when it equals one.
func (c *cond) in(x any) bool {
	if arr, ok := x.([]any); ok {
		for _, e := range arr {
			if c.has(e) {
				return true
			}
		}
		return false
	}
	return c.has(x)
}

func (c *cond) has(x any) bool {
	if c.strs == nil {
		return contains(c.vals, x)
	}
	if s, ok := x.(string); ok {
		_, hit := c.strs[s]
		return hit
	}
	return contains(c.others, x)
}

func contains(arr []any, v any) bool {
	for _, e := range arr {
		if Collate(e, v) == 0 {
			return true
		}
	}
	return false
}

// topFields adds to set the first path segment of every field the selector
// reads from the document root ($elemMatch sub-selectors read elements, not
// the root, so they add only their own field).
func (n *node) topFields(set map[string]bool) {
	if n.op == opField {
		if len(n.path) > 0 {
			set[n.path[0]] = true
		}
		return
	}
	for _, k := range n.kids {
		k.topFields(set)
	}
}
