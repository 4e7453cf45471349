package mango

import (
	"encoding/json"
	"strings"
	"testing"
)

// matchBoth runs sel against doc through both paths a caller can take:
// Selector.Match on a map decoded by encoding/json (with UseNumber, so big
// integers stay exact), and Run, which scans the raw body. They must agree.
func matchBoth(t *testing.T, sel, doc string) bool {
	t.Helper()
	f, err := ParseFind([]byte(`{"selector":` + sel + `}`))
	if err != nil {
		t.Fatalf("ParseFind(%s): %v", sel, err)
	}
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("bad test doc %s: %v", doc, err)
	}
	m["_id"], m["_rev"] = "doc1", "1-abc"
	viaMap := f.Selector.Match(m)

	res, err := f.Run(oneCandidate(Candidate{ID: "doc1", Rev: "1-abc", Body: []byte(doc)}))
	if err != nil {
		t.Fatalf("Run(%s on %s): %v", sel, doc, err)
	}
	viaRun := len(res.Docs) == 1
	if viaMap != viaRun {
		t.Fatalf("%s on %s: Match=%v but Run=%v", sel, doc, viaMap, viaRun)
	}
	return viaMap
}

func oneCandidate(c Candidate) func() (Candidate, bool) {
	done := false
	return func() (Candidate, bool) {
		if done {
			return Candidate{}, false
		}
		done = true
		return c, true
	}
}

func TestOperators(t *testing.T) {
	tests := []struct {
		name, sel, doc string
		want           bool
	}{
		// implicit $eq: strict equality, no implicit array membership
		{"eq num", `{"a":1}`, `{"a":1}`, true},
		{"eq num float", `{"a":1}`, `{"a":1.0}`, true},
		{"eq num vs string", `{"a":1}`, `{"a":"1"}`, false},
		{"eq missing", `{"a":1}`, `{}`, false},
		{"eq no array membership", `{"a":1}`, `{"a":[1]}`, false},
		{"eq whole array", `{"a":[1,2]}`, `{"a":[1,2]}`, true},
		{"eq array order", `{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{"eq null", `{"a":null}`, `{"a":null}`, true},
		{"eq null missing", `{"a":null}`, `{}`, false},
		{"eq empty object", `{"a":{}}`, `{"a":{}}`, true},
		{"eq empty object vs non-empty", `{"a":{}}`, `{"a":{"x":1}}`, false},
		{"explicit eq", `{"a":{"$eq":"x"}}`, `{"a":"x"}`, true},
		{"explicit eq object is whole", `{"a":{"$eq":{"b":1}}}`, `{"a":{"b":1,"c":2}}`, false},
		{"explicit eq object same", `{"a":{"$eq":{"b":1,"c":2}}}`, `{"a":{"c":2,"b":1}}`, true},
		{"eq bool", `{"a":true}`, `{"a":true}`, true},
		{"eq bool vs 1", `{"a":true}`, `{"a":1}`, false},

		// nested objects are implicit paths, dotted fields, escaping
		{"implicit path", `{"a":{"b":1}}`, `{"a":{"b":1,"c":2}}`, true},
		{"implicit path miss", `{"a":{"b":1}}`, `{"a":{"b":2}}`, false},
		{"implicit path with op", `{"a":{"b":{"$gt":1}}}`, `{"a":{"b":2}}`, true},
		{"implicit path mixed", `{"a":{"$exists":true,"b":1}}`, `{"a":{"b":1}}`, true},
		{"dotted", `{"a.b.c":1}`, `{"a":{"b":{"c":1}}}`, true},
		{"dotted through scalar", `{"a.b":1}`, `{"a":5}`, false},
		{"escaped dot", `{"a\\.b":1}`, `{"a.b":1}`, true},
		{"escaped dot not path", `{"a\\.b":1}`, `{"a":{"b":1}}`, false},
		{"nested key with dot", `{"a":{"b.c":1}}`, `{"a":{"b":{"c":1}}}`, true},
		{"array index", `{"a.1":"y"}`, `{"a":["x","y"]}`, true},
		{"array index deep", `{"a.0.n":"x"}`, `{"a":[{"n":"x"}]}`, true},
		{"array index out of range", `{"a.5":"y"}`, `{"a":["x","y"]}`, false},
		{"array non-index", `{"a.n":"x"}`, `{"a":[{"n":"x"}]}`, false},
		{"_id", `{"_id":"doc1"}`, `{}`, true},
		{"_id miss", `{"_id":{"$gt":"doc2"}}`, `{}`, false},
		{"_rev", `{"_rev":{"$regex":"^1-"}}`, `{}`, true},

		// $ne: a missing field does not match (CouchDB)
		{"ne", `{"a":{"$ne":1}}`, `{"a":2}`, true},
		{"ne equal", `{"a":{"$ne":1}}`, `{"a":1}`, false},
		{"ne missing", `{"a":{"$ne":1}}`, `{}`, false},
		{"ne null value", `{"a":{"$ne":1}}`, `{"a":null}`, true},
		{"ne other type", `{"a":{"$ne":1}}`, `{"a":"1"}`, true},
		{"ne array is whole value", `{"a":{"$ne":1}}`, `{"a":[1]}`, true},

		// ordering operators use collation across types
		{"gt", `{"a":{"$gt":5}}`, `{"a":6}`, true},
		{"gt equal", `{"a":{"$gt":5}}`, `{"a":5}`, false},
		{"gt string above numbers", `{"a":{"$gt":5}}`, `{"a":"x"}`, true},
		{"gt null below numbers", `{"a":{"$gt":5}}`, `{"a":null}`, false},
		{"gt missing", `{"a":{"$gt":5}}`, `{}`, false},
		{"gte", `{"a":{"$gte":5}}`, `{"a":5}`, true},
		{"lt", `{"a":{"$lt":5}}`, `{"a":4.5}`, true},
		{"lt bool below numbers", `{"a":{"$lt":5}}`, `{"a":true}`, true},
		{"lt string", `{"a":{"$lt":"b"}}`, `{"a":"B"}`, true},
		{"lt codepoint not ICU", `{"a":{"$lt":"a"}}`, `{"a":"Z"}`, true},
		{"lte", `{"a":{"$lte":5}}`, `{"a":5}`, true},
		{"lte above", `{"a":{"$lte":5}}`, `{"a":6}`, false},
		{"range", `{"a":{"$gt":1,"$lt":3}}`, `{"a":2}`, true},
		{"range out", `{"a":{"$gt":1,"$lt":3}}`, `{"a":3}`, false},
		{"gt date string", `{"d":{"$gte":"2024-01-01"}}`, `{"d":"2024-03-05T10:00:00Z"}`, true},
		{"gt big ints exact", `{"a":{"$gt":9007199254740992}}`, `{"a":9007199254740993}`, true},

		// $in / $nin
		{"in", `{"a":{"$in":[1,2]}}`, `{"a":2}`, true},
		{"in miss", `{"a":{"$in":[1,2]}}`, `{"a":3}`, false},
		{"in missing", `{"a":{"$in":[1,2]}}`, `{}`, false},
		{"in empty", `{"a":{"$in":[]}}`, `{"a":1}`, false},
		{"in array element", `{"a":{"$in":["x","y"]}}`, `{"a":["q","y"]}`, true},
		{"in array none", `{"a":{"$in":["x"]}}`, `{"a":["q"]}`, false},
		{"in array not whole", `{"a":{"$in":[[1,2]]}}`, `{"a":[1,2]}`, false},
		{"in type strict", `{"a":{"$in":[1]}}`, `{"a":"1"}`, false},
		{"nin", `{"a":{"$nin":[1,2]}}`, `{"a":3}`, true},
		{"nin hit", `{"a":{"$nin":[1,2]}}`, `{"a":1}`, false},
		{"nin missing", `{"a":{"$nin":[1,2]}}`, `{}`, false},
		{"nin empty", `{"a":{"$nin":[]}}`, `{"a":1}`, true},
		{"nin empty missing", `{"a":{"$nin":[]}}`, `{}`, false},
		{"nin array clean", `{"a":{"$nin":["x"]}}`, `{"a":["q","r"]}`, true},
		{"nin array hit", `{"a":{"$nin":["x"]}}`, `{"a":["q","x"]}`, false},
		// long argument lists take the set path
		{"in set string", `{"a":{"$in":["a","b","c","d","e","f","g","h","i",1,null]}}`, `{"a":"i"}`, true},
		{"in set string miss", `{"a":{"$in":["a","b","c","d","e","f","g","h","i",1,null]}}`, `{"a":"z"}`, false},
		{"in set number", `{"a":{"$in":["a","b","c","d","e","f","g","h","i",1,null]}}`, `{"a":1.0}`, true},
		{"in set null", `{"a":{"$in":["a","b","c","d","e","f","g","h","i",1,null]}}`, `{"a":null}`, true},
		{"in set array", `{"a":{"$in":["a","b","c","d","e","f","g","h","i",1,null]}}`, `{"a":["z","c"]}`, true},
		{"nin set", `{"a":{"$nin":["a","b","c","d","e","f","g","h","i",1]}}`, `{"a":"z"}`, true},
		{"nin set hit", `{"a":{"$nin":["a","b","c","d","e","f","g","h","i",1]}}`, `{"a":1}`, false},
		{"nin set array hit", `{"a":{"$nin":["a","b","c","d","e","f","g","h","i",1]}}`, `{"a":["z","b"]}`, false},

		// $exists: only "not found in an object" counts as absent
		{"exists true", `{"a":{"$exists":true}}`, `{"a":null}`, true},
		{"exists true missing", `{"a":{"$exists":true}}`, `{}`, false},
		{"exists false", `{"a":{"$exists":false}}`, `{}`, true},
		{"exists false present", `{"a":{"$exists":false}}`, `{"a":1}`, false},
		{"exists false nested", `{"a.b":{"$exists":false}}`, `{"a":{}}`, true},
		{"exists false nested parent missing", `{"a.b":{"$exists":false}}`, `{}`, true},
		{"exists false bad path", `{"a.b":{"$exists":false}}`, `{"a":5}`, false},
		{"exists false index out of range", `{"a.3":{"$exists":false}}`, `{"a":[1]}`, false},

		// $type
		{"type null", `{"a":{"$type":"null"}}`, `{"a":null}`, true},
		{"type boolean", `{"a":{"$type":"boolean"}}`, `{"a":false}`, true},
		{"type number int", `{"a":{"$type":"number"}}`, `{"a":3}`, true},
		{"type number float", `{"a":{"$type":"number"}}`, `{"a":3.5}`, true},
		{"type string", `{"a":{"$type":"string"}}`, `{"a":""}`, true},
		{"type array", `{"a":{"$type":"array"}}`, `{"a":[]}`, true},
		{"type object", `{"a":{"$type":"object"}}`, `{"a":{}}`, true},
		{"type mismatch", `{"a":{"$type":"string"}}`, `{"a":1}`, false},
		{"type missing", `{"a":{"$type":"null"}}`, `{}`, false},

		// logical operators
		{"implicit and", `{"a":1,"b":2}`, `{"a":1,"b":2}`, true},
		{"implicit and miss", `{"a":1,"b":2}`, `{"a":1,"b":3}`, false},
		{"and", `{"$and":[{"a":1},{"b":2}]}`, `{"a":1,"b":2}`, true},
		{"and miss", `{"$and":[{"a":1},{"b":2}]}`, `{"a":1}`, false},
		{"and empty", `{"$and":[]}`, `{}`, true},
		{"and under field", `{"a":{"$and":[{"$gt":1},{"$lt":3}]}}`, `{"a":2}`, true},
		{"or", `{"$or":[{"a":1},{"b":2}]}`, `{"b":2}`, true},
		{"or miss", `{"$or":[{"a":1},{"b":2}]}`, `{"a":2,"b":1}`, false},
		{"or empty", `{"$or":[]}`, `{}`, true},
		{"or under field", `{"a":{"$or":[{"$eq":1},{"$eq":5}]}}`, `{"a":5}`, true},
		{"nor", `{"$nor":[{"a":1},{"b":2}]}`, `{"a":2,"b":1}`, true},
		{"nor hit", `{"$nor":[{"a":1},{"b":2}]}`, `{"a":1,"b":1}`, false},
		{"nor missing field", `{"$nor":[{"a":1}]}`, `{}`, false},
		{"not", `{"a":{"$not":{"$eq":1}}}`, `{"a":2}`, true},
		{"not hit", `{"a":{"$not":{"$eq":1}}}`, `{"a":1}`, false},
		{"not missing", `{"a":{"$not":{"$eq":1}}}`, `{}`, false},
		{"not top", `{"$not":{"a":{"$gt":5}}}`, `{"a":3}`, true},
		{"not top hit", `{"$not":{"a":{"$gt":5}}}`, `{"a":7}`, false},
		{"not top missing", `{"$not":{"a":{"$gt":5}}}`, `{}`, false},
		{"not de morgan", `{"$not":{"$and":[{"a":1},{"b":1}]}}`, `{"a":1}`, false},
		{"not de morgan hit", `{"$not":{"$and":[{"a":1},{"b":1}]}}`, `{"a":2}`, true},
		{"not not", `{"$not":{"$not":{"a":1}}}`, `{"a":1}`, true},
		{"not exists", `{"a":{"$not":{"$exists":true}}}`, `{}`, true},
		{"not exists present", `{"a":{"$not":{"$exists":true}}}`, `{"a":1}`, false},
		{"not in", `{"a":{"$not":{"$in":[1]}}}`, `{"a":2}`, true},
		{"not regex", `{"a":{"$not":{"$regex":"^x"}}}`, `{"a":"y"}`, true},
		{"not regex hit", `{"a":{"$not":{"$regex":"^x"}}}`, `{"a":"xy"}`, false},
		{"not regex missing", `{"a":{"$not":{"$regex":"^x"}}}`, `{}`, false},
		{"not regex non-string", `{"a":{"$not":{"$regex":"^x"}}}`, `{"a":1}`, true},
		{"not size", `{"a":{"$not":{"$size":1}}}`, `{"a":[1,2]}`, true},
		{"not nor", `{"$not":{"$nor":[{"a":1}]}}`, `{"a":1}`, true},

		// $all
		{"all", `{"a":{"$all":[1,2]}}`, `{"a":[3,2,1]}`, true},
		{"all partial", `{"a":{"$all":[1,2]}}`, `{"a":[1]}`, false},
		{"all scalar", `{"a":{"$all":[1]}}`, `{"a":1}`, false},
		{"all empty", `{"a":{"$all":[]}}`, `{"a":[1]}`, false},
		{"all nested array equal", `{"a":{"$all":[[1,2]]}}`, `{"a":[1,2]}`, true},
		{"all nested array member", `{"a":{"$all":[[1,2]]}}`, `{"a":[[1,2],3]}`, true},
		{"all missing", `{"a":{"$all":[1]}}`, `{}`, false},

		// $elemMatch / $allMatch / $keyMapMatch
		{"elemMatch", `{"a":{"$elemMatch":{"$gt":3}}}`, `{"a":[1,5]}`, true},
		{"elemMatch none", `{"a":{"$elemMatch":{"$gt":3}}}`, `{"a":[1,2]}`, false},
		{"elemMatch scalar", `{"a":{"$elemMatch":{"$gt":3}}}`, `{"a":5}`, false},
		{"elemMatch empty", `{"a":{"$elemMatch":{"$gt":3}}}`, `{"a":[]}`, false},
		{"elemMatch same element", `{"a":{"$elemMatch":{"n":"x","v":{"$gt":1}}}}`, `{"a":[{"n":"x","v":0},{"n":"y","v":2}]}`, false},
		{"elemMatch same element hit", `{"a":{"$elemMatch":{"n":"x","v":{"$gt":1}}}}`, `{"a":[{"n":"y","v":0},{"n":"x","v":2}]}`, true},
		{"elemMatch range", `{"a":{"$elemMatch":{"$gte":80,"$lt":85}}}`, `{"a":[79,85,82]}`, true},
		{"elemMatch plain not", `{"a":{"$elemMatch":{"$not":{"b":1}}}}`, `{"a":[{"c":1}]}`, true},
		{"elemMatch nested", `{"a":{"$elemMatch":{"$elemMatch":{"$eq":1}}}}`, `{"a":[[0],[1]]}`, true},
		{"elemMatch missing", `{"a":{"$elemMatch":{"$gt":3}}}`, `{}`, false},
		{"allMatch", `{"a":{"$allMatch":{"$gt":1}}}`, `{"a":[2,3]}`, true},
		{"allMatch one fails", `{"a":{"$allMatch":{"$gt":1}}}`, `{"a":[2,0]}`, false},
		{"allMatch empty", `{"a":{"$allMatch":{"$gt":1}}}`, `{"a":[]}`, false},
		{"allMatch scalar", `{"a":{"$allMatch":{"$gt":1}}}`, `{"a":5}`, false},
		{"allMatch objects", `{"a":{"$allMatch":{"ok":true}}}`, `{"a":[{"ok":true},{"ok":true}]}`, true},
		{"keyMapMatch", `{"a":{"$keyMapMatch":{"$eq":"k"}}}`, `{"a":{"j":1,"k":2}}`, true},
		{"keyMapMatch miss", `{"a":{"$keyMapMatch":{"$eq":"k"}}}`, `{"a":{"j":1}}`, false},
		{"keyMapMatch regex", `{"a":{"$keyMapMatch":{"$regex":"^x-"}}}`, `{"a":{"x-1":1}}`, true},
		{"keyMapMatch array", `{"a":{"$keyMapMatch":{"$eq":"0"}}}`, `{"a":["k"]}`, false},

		// $regex (RE2, unanchored)
		{"regex", `{"a":{"$regex":"^ab"}}`, `{"a":"abc"}`, true},
		{"regex anchored miss", `{"a":{"$regex":"^ab"}}`, `{"a":"xab"}`, false},
		{"regex unanchored", `{"a":{"$regex":"b"}}`, `{"a":"abc"}`, true},
		{"regex case flag", `{"a":{"$regex":"(?i)^AB"}}`, `{"a":"abc"}`, true},
		{"regex number", `{"a":{"$regex":"1"}}`, `{"a":1}`, false},
		{"regex missing", `{"a":{"$regex":"."}}`, `{}`, false},
		{"regex unicode", `{"a":{"$regex":"^é"}}`, `{"a":"été"}`, true},

		// $size
		{"size", `{"a":{"$size":2}}`, `{"a":[1,2]}`, true},
		{"size miss", `{"a":{"$size":2}}`, `{"a":[1]}`, false},
		{"size zero", `{"a":{"$size":0}}`, `{"a":[]}`, true},
		{"size string", `{"a":{"$size":2}}`, `{"a":"ab"}`, false},
		{"size missing", `{"a":{"$size":0}}`, `{}`, false},

		// $mod
		{"mod", `{"a":{"$mod":[3,1]}}`, `{"a":4}`, true},
		{"mod miss", `{"a":{"$mod":[3,1]}}`, `{"a":5}`, false},
		{"mod negative dividend", `{"a":{"$mod":[3,-1]}}`, `{"a":-4}`, true},
		{"mod fraction", `{"a":{"$mod":[3,1]}}`, `{"a":4.5}`, false},
		{"mod integral float", `{"a":{"$mod":[3,1]}}`, `{"a":4.0}`, true},
		{"mod string", `{"a":{"$mod":[3,1]}}`, `{"a":"4"}`, false},
		{"mod missing", `{"a":{"$mod":[3,1]}}`, `{}`, false},

		{"empty selector", `{}`, `{"a":1}`, true},
		{"escaped key in body", `{"klass":"x"}`, `{"kl\u0061ss":"x"}`, true},
		{"unicode escapes", `{"a":"😀é"}`, `{"a":"\ud83d\ude00\u00e9"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := matchBoth(t, tt.sel, tt.doc); got != tt.want {
				t.Errorf("%s on %s = %v, want %v", tt.sel, tt.doc, got, tt.want)
			}
		})
	}
}

func TestMatchNumberKinds(t *testing.T) {
	s, err := ParseSelector([]byte(`{"a":{"$gte":2},"b":{"$mod":[2,0]},"c":9007199254740993}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []map[string]any{
		{"a": 2, "b": int64(4), "c": int64(9007199254740993)},
		{"a": float64(2), "b": float64(4), "c": json.Number("9007199254740993")},
		{"a": json.Number("2.0"), "b": json.Number("4"), "c": uint64(9007199254740993)},
	} {
		if !s.Match(doc) {
			t.Errorf("no match on %#v", doc)
		}
	}
	if s.Match(map[string]any{"a": 2, "b": 4, "c": int64(9007199254740992)}) {
		t.Error("int64 comparison lost precision")
	}
}

func TestEquality(t *testing.T) {
	tests := []struct {
		sel, field, want string
		ok               bool
	}{
		{`{"klass":"ticket"}`, "klass", "ticket", true},
		{`{"klass":{"$eq":"ticket"},"status":"open"}`, "klass", "ticket", true},
		{`{"$and":[{"status":"open"},{"$and":[{"klass":"ticket"}]}]}`, "klass", "ticket", true},
		{`{"a":{"b":"x"}}`, "a.b", "x", true},
		{`{"klass":{"$in":["ticket"]}}`, "klass", "", false},
		{`{"$or":[{"klass":"ticket"}]}`, "klass", "", false},
		{`{"klass":{"$ne":"ticket"}}`, "klass", "", false},
		{`{"$not":{"klass":{"$ne":"ticket"}}}`, "klass", "ticket", true},
		{`{"klass":1}`, "klass", "", false},
		{`{"status":"open"}`, "klass", "", false},
		{`{"klass.x":"ticket"}`, "klass", "", false},
	}
	for _, tt := range tests {
		f, err := ParseFind([]byte(`{"selector":` + tt.sel + `}`))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := f.Equality(tt.field)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s Equality(%q) = %q,%v want %q,%v", tt.sel, tt.field, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSole(t *testing.T) {
	tests := []struct {
		sel  string
		want bool
	}{
		{`{"klass":"Ticket"}`, true},
		{`{"klass":{"$eq":"Ticket"}}`, true},
		{`{"$and":[{"klass":"Ticket"}]}`, true},
		{`{"$not":{"klass":{"$ne":"Ticket"}}}`, true},
		{`{"klass":"Ticket","status":"open"}`, false},
		{`{"klass":"Ticket","$and":[{"$or":[{"title":"x"}]}]}`, false},
		{`{"klass":"Ticket","number":{"$gt":0}}`, false},
		{`{"klass":{"$in":["Ticket"]}}`, false},
		{`{"$or":[{"klass":"Ticket"}]}`, false},
		{`{"status":"open"}`, false},
		{`{"klass":1}`, false},
		{`{}`, false},
	}
	for _, tt := range tests {
		f, err := ParseFind([]byte(`{"selector":` + tt.sel + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Selector.Sole("klass"); got != tt.want {
			t.Errorf("%s Sole(klass) = %v, want %v", tt.sel, got, tt.want)
		}
	}
}
