package mango

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/fault"
)

func TestParseFindErrors(t *testing.T) {
	tests := []struct{ body, reason string }{
		{``, "invalid UTF-8 JSON"},
		{`{"selector":{}`, "invalid UTF-8 JSON"},
		{`{"selector":{}} {}`, "invalid UTF-8 JSON"},
		{`[]`, "request body must be a JSON object"},
		{`{}`, "missing required key: selector"},
		{`{"selector":{},"foo":1}`, "invalid key foo for this request"},
		{`{"selector":{},"partition":"x"}`, "invalid key partition for this request"},
		{`{"selector":[]}`, "selector must be a JSON object"},
		{`{"selector":null}`, "selector must be a JSON object"},
		{`{"selector":{"a":{"$foo":1}}}`, "invalid operator $foo in selector"},
		{`{"selector":{"$foo":1}}`, "invalid operator $foo in selector"},
		{`{"selector":{"a":{"$where":"x"}}}`, "unsupported operator $where in selector"},
		{`{"selector":{"$text":"x"}}`, "unsupported operator $text in selector"},
		{`{"selector":{"a":{"$in":1}}}`, "$in requires an array"},
		{`{"selector":{"a":{"$nin":{}}}}`, "$nin requires an array"},
		{`{"selector":{"a":{"$all":"x"}}}`, "$all requires an array"},
		{`{"selector":{"$and":{}}}`, "$and requires an array"},
		{`{"selector":{"$or":1}}`, "$or requires an array"},
		{`{"selector":{"$nor":null}}`, "$nor requires an array"},
		{`{"selector":{"$and":[1]}}`, "$and requires an array of objects"},
		{`{"selector":{"$or":[{"a":1},"b"]}}`, "$or requires an array of objects"},
		{`{"selector":{"$not":[]}}`, "$not requires an object"},
		{`{"selector":{"a":{"$not":1}}}`, "$not requires an object"},
		{`{"selector":{"a":{"$elemMatch":[]}}}`, "$elemMatch requires an object"},
		{`{"selector":{"a":{"$allMatch":1}}}`, "$allMatch requires an object"},
		{`{"selector":{"a":{"$keyMapMatch":"k"}}}`, "$keyMapMatch requires an object"},
		{`{"selector":{"a":{"$elemMatch":{"$foo":1}}}}`, "invalid operator $foo in selector"},
		{`{"selector":{"a":{"$exists":"yes"}}}`, "$exists requires a boolean"},
		{`{"selector":{"a":{"$type":1}}}`, "$type requires one of null, boolean, number, string, array, object"},
		{`{"selector":{"a":{"$type":"int"}}}`, "$type requires one of null, boolean, number, string, array, object"},
		{`{"selector":{"a":{"$size":-1}}}`, "$size requires a non-negative integer"},
		{`{"selector":{"a":{"$size":1.5}}}`, "$size requires a non-negative integer"},
		{`{"selector":{"a":{"$size":"1"}}}`, "$size requires a non-negative integer"},
		{`{"selector":{"a":{"$mod":3}}}`, "$mod requires an array of two integers [divisor, remainder]"},
		{`{"selector":{"a":{"$mod":[3]}}}`, "$mod requires an array of two integers [divisor, remainder]"},
		{`{"selector":{"a":{"$mod":[3.5,1]}}}`, "$mod requires an array of two integers [divisor, remainder]"},
		{`{"selector":{"a":{"$mod":["3",1]}}}`, "$mod requires an array of two integers [divisor, remainder]"},
		{`{"selector":{"a":{"$mod":[0,1]}}}`, "$mod divisor must not be zero"},
		{`{"selector":{"a":{"$regex":1}}}`, "$regex requires a string"},
		// The regexp package's error code, without the pattern (issue 8, item 6).
		{`{"selector":{"a":{"$regex":"x(?=y)"}}}`, `invalid $regex: invalid or unsupported Perl syntax`},
		{`{"selector":{"a":{"$regex":"("}}}`, `invalid $regex: missing closing )`},
		{`{"selector":{"$gt":1}}`, "one or more conditions is missing a field name"},
		{`{"selector":{"$and":[{"$eq":1}]}}`, "one or more conditions is missing a field name"},
		{`{"selector":{"$not":{"$eq":1}}}`, "one or more conditions is missing a field name"},
		{`{"selector":{"a..b":1}}`, `invalid field name "a..b"`},
		{`{"selector":{"":1}}`, `invalid field name ""`},
		{`{"selector":{"a":{".b":1}}}`, `invalid field name ".b"`},
		{`{"selector":{},"fields":"a"}`, "fields must be an array of strings"},
		{`{"selector":{},"fields":["a",1]}`, "fields must be an array of strings"},
		{`{"selector":{},"fields":["a."]}`, `invalid field name "a."`},
		{`{"selector":{},"sort":{"a":"asc"}}`, "sort must be an array"},
		{`{"selector":{},"sort":"a"}`, "sort must be an array"},
		{`{"selector":{},"sort":[1]}`, "invalid sort field: 1"},
		{`{"selector":{},"sort":[""]}`, `invalid sort field: ""`},
		{`{"selector":{},"sort":[{"a":"asc","b":"asc"}]}`, `invalid sort field: {"a":"asc","b":"asc"}`},
		{`{"selector":{},"sort":[{}]}`, `invalid sort field: {}`},
		{`{"selector":{},"sort":[{"":"asc"}]}`, `invalid sort field: {"":"asc"}`},
		{`{"selector":{},"sort":[{"a":"up"}]}`, `invalid sort direction: "up"`},
		{`{"selector":{},"sort":[{"a":1}]}`, `invalid sort direction: 1`},
		{`{"selector":{},"sort":["a..b"]}`, `invalid field name "a..b"`},
		{`{"selector":{},"limit":-1}`, "limit must be a non-negative integer"},
		{`{"selector":{},"limit":1.5}`, "limit must be a non-negative integer"},
		{`{"selector":{},"limit":1e2}`, "limit must be a non-negative integer"},
		{`{"selector":{},"limit":"10"}`, "limit must be a non-negative integer"},
		{`{"selector":{},"limit":null}`, "limit must be a non-negative integer"},
		{`{"selector":{},"skip":-3}`, "skip must be a non-negative integer"},
		{`{"selector":{},"skip":true}`, "skip must be a non-negative integer"},
		{`{"selector":{},"bookmark":1}`, "invalid bookmark value"},
		{`{"selector":{},"bookmark":"%%%"}`, "invalid bookmark value"},
		{`{"selector":{},"bookmark":"e30"}`, "invalid bookmark value"}, // base64url of {}
		{`{"selector":{},"bookmark":"g2wAAAACaAJkAAhzdGFydGtleQ"}`, "invalid bookmark value"},
	}
	for _, tt := range tests {
		f, err := ParseFind([]byte(tt.body))
		if err == nil {
			t.Errorf("%s: no error, got %+v", tt.body, f)
			continue
		}
		fe, ok := fault.As(err)
		if !ok || fe.Kind != fault.BadRequest {
			t.Errorf("%s: error %v is not a BadRequest fault", tt.body, err)
			continue
		}
		if want, prefix := strings.CutSuffix(tt.reason, "*"); prefix && strings.HasPrefix(fe.Reason, want) {
			continue
		}
		if fe.Reason != tt.reason {
			t.Errorf("%s:\n got reason %q\nwant reason %q", tt.body, fe.Reason, tt.reason)
		}
	}
}

func TestParseFindAccepts(t *testing.T) {
	f, err := ParseFind([]byte(`{
		"selector": {"klass": "ticket"},
		"fields": ["_id", "title"],
		"sort": ["a", {"b": "desc"}, {"c": "asc"}],
		"limit": 99999999999999999999,
		"skip": 3,
		"bookmark": "nil",
		"use_index": ["ddoc", "idx"], "r": 1, "conflicts": false,
		"execution_stats": true, "update": true, "stable": false, "allow_fallback": true
	}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []SortField{{Field: "a"}, {Field: "b", Desc: true}, {Field: "c"}}
	for i := range want {
		if f.Sort[i].Field != want[i].Field || f.Sort[i].Desc != want[i].Desc {
			t.Errorf("sort[%d] = %+v, want %+v", i, f.Sort[i], want[i])
		}
	}
	if f.Limit != MaxLimit || f.Skip != 3 || f.Bookmark != "" || !slices.Equal(f.Fields, []string{"_id", "title"}) {
		t.Errorf("got %+v", f)
	}

	f, err = ParseFind([]byte(`{"selector":{},"fields":[],"sort":[],"bookmark":""}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Limit != DefaultLimit || f.Skip != 0 || f.Fields != nil || f.Sort != nil {
		t.Errorf("defaults: got %+v", f)
	}
	if f, err = ParseFind([]byte(`{"selector":{},"limit":0}`)); err != nil || f.Limit != 0 {
		t.Errorf("limit 0: %v %+v", err, f)
	}
}

// testDocs are candidates; ids are unique, sort fields have ties and gaps.
func testDocs() []Candidate {
	bodies := []string{
		`{"n":2,"s":"b","k":"x","nested":{"v":3}}`,
		`{"n":1,"s":"a","k":"x","nested":{"v":1}}`,
		`{"n":2,"s":"a","k":"y"}`,
		`{"n":1,"s":"b","k":"x","nested":{"v":2}}`,
		`{"s":"c","k":"x"}`,
		`{"n":null,"s":"a","k":"x"}`,
		`{"n":"2","s":"z","k":"x"}`,
		`{"n":2,"s":"b","k":"x"}`,
	}
	var out []Candidate
	for i, b := range bodies {
		out = append(out, Candidate{ID: fmt.Sprintf("d%d", i), Rev: fmt.Sprintf("1-%d", i), Body: []byte(b)})
	}
	return out
}

func iter(cs []Candidate) func() (Candidate, bool) {
	i := 0
	return func() (Candidate, bool) {
		if i == len(cs) {
			return Candidate{}, false
		}
		i++
		return cs[i-1], true
	}
}

func run(t *testing.T, body string, cs []Candidate) Result {
	t.Helper()
	f, err := ParseFind([]byte(body))
	if err != nil {
		t.Fatalf("ParseFind(%s): %v", body, err)
	}
	res, err := f.Run(iter(cs))
	if err != nil {
		t.Fatalf("Run(%s): %v", body, err)
	}
	return res
}

func ids(res Result) []string {
	var out []string
	for _, d := range res.Docs {
		out = append(out, d["_id"].(string))
	}
	return out
}

func TestSort(t *testing.T) {
	tests := []struct {
		body string
		want []string
	}{
		// no sort: _id order
		{`{"selector":{}}`, []string{"d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"}},
		// missing < null < numbers < strings; ties by _id
		{`{"selector":{},"sort":["n"]}`, []string{"d4", "d5", "d1", "d3", "d0", "d2", "d7", "d6"}},
		// descending: ties by _id descending too (CouchDB's reversed index)
		{`{"selector":{},"sort":[{"n":"desc"}]}`, []string{"d6", "d7", "d2", "d0", "d3", "d1", "d5", "d4"}},
		// mixed directions: n asc, s desc, then _id in the last field's direction
		{`{"selector":{"k":"x"},"sort":["n",{"s":"desc"}]}`, []string{"d4", "d5", "d3", "d1", "d7", "d0", "d6"}},
		{`{"selector":{"k":"x"},"sort":[{"s":"asc"},{"n":"desc"}]}`, []string{"d1", "d5", "d7", "d0", "d3", "d4", "d6"}},
		// nested and explicit _id sorts
		{`{"selector":{"nested.v":{"$gt":0}},"sort":[{"nested.v":"desc"}]}`, []string{"d0", "d3", "d1"}},
		{`{"selector":{},"sort":[{"_id":"desc"}],"limit":3}`, []string{"d7", "d6", "d5"}},
		// limit and skip
		{`{"selector":{},"sort":["n"],"limit":3,"skip":2}`, []string{"d1", "d3", "d0"}},
		{`{"selector":{},"sort":["n"],"skip":100}`, nil},
		{`{"selector":{},"limit":0}`, nil},
	}
	for _, tt := range tests {
		got := ids(run(t, tt.body, testDocs()))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got %v\nwant %v", tt.body, got, tt.want)
		}
	}
}

func TestFieldsProjection(t *testing.T) {
	res := run(t, `{"selector":{"_id":"d0"},"fields":["n","nested.v","missing","nested.nope"]}`, testDocs())
	want := []map[string]any{{"n": json.Number("2"), "nested": map[string]any{"v": json.Number("3")}}}
	if !reflect.DeepEqual(res.Docs, want) {
		t.Errorf("got %#v", res.Docs)
	}
	res = run(t, `{"selector":{"_id":"d0"},"fields":["_id","_rev","s"]}`, testDocs())
	want = []map[string]any{{"_id": "d0", "_rev": "1-0", "s": "b"}}
	if !reflect.DeepEqual(res.Docs, want) {
		t.Errorf("got %#v", res.Docs)
	}
	res = run(t, `{"selector":{"_id":"d1"}}`, testDocs())
	want = []map[string]any{{"_id": "d1", "_rev": "1-1", "n": json.Number("1"), "s": "a", "k": "x", "nested": map[string]any{"v": json.Number("1")}}}
	if !reflect.DeepEqual(res.Docs, want) {
		t.Errorf("whole doc: got %#v", res.Docs)
	}
}

func TestProject(t *testing.T) {
	var doc map[string]any
	json.Unmarshal([]byte(`{"_id":"x","a":{"b":1,"c":{"d":2,"e":3}},"f.g":4,"arr":[{"s":1},{"s":2}],"z":null}`), &doc)
	tests := []struct {
		fields []string
		want   string
	}{
		{nil, `{"_id":"x","a":{"b":1,"c":{"d":2,"e":3}},"arr":[{"s":1},{"s":2}],"f.g":4,"z":null}`},
		{[]string{"a.b"}, `{"a":{"b":1}}`},
		{[]string{"a.c.d", "a.b"}, `{"a":{"b":1,"c":{"d":2}}}`},
		{[]string{"a", "a.b"}, `{"a":{"b":1,"c":{"d":2,"e":3}}}`},
		{[]string{"a.b", "a"}, `{"a":{"b":1,"c":{"d":2,"e":3}}}`},
		{[]string{`f\.g`, "z"}, `{"f.g":4,"z":null}`},
		{[]string{"arr.1.s"}, `{"arr":{"1":{"s":2}}}`},
		{[]string{"a.b.x", "nope", "arr.9"}, `{}`},
		{[]string{"_id"}, `{"_id":"x"}`},
		{[]string{"a..b", "z"}, `{"z":null}`},
	}
	for _, tt := range tests {
		got, _ := json.Marshal(Project(doc, tt.fields))
		if string(got) != tt.want {
			t.Errorf("Project(%q) = %s, want %s", tt.fields, got, tt.want)
		}
	}
	// The source document is never modified.
	after, _ := json.Marshal(doc)
	if string(after) != tests[0].want {
		t.Errorf("source modified: %s", after)
	}
}

// walk pages through body with bookmarks and returns every id seen.
func walk(t *testing.T, body string, cs []Candidate) []string {
	t.Helper()
	var all []string
	bookmark := ""
	for page := 0; ; page++ {
		if page > len(cs)+2 {
			t.Fatal("paging does not terminate")
		}
		b := body
		if bookmark != "" {
			b = strings.TrimSuffix(body, "}") + `,"bookmark":"` + bookmark + `"}`
		}
		res := run(t, b, cs)
		if len(res.Docs) == 0 {
			if res.Bookmark != bookmark && !(bookmark == "" && res.Bookmark == "nil") {
				t.Errorf("empty page changed bookmark %q -> %q", bookmark, res.Bookmark)
			}
			return all
		}
		all = append(all, ids(res)...)
		bookmark = res.Bookmark
	}
}

func randomDocs(n int, seed uint64) []Candidate {
	r := rand.New(rand.NewPCG(seed, 1))
	cs := make([]Candidate, n)
	for i := range cs {
		body := map[string]any{"k": []string{"x", "y"}[r.IntN(2)], "p": r.IntN(5)}
		if r.IntN(10) > 0 {
			body["d"] = fmt.Sprintf("2024-0%d", r.IntN(3)+1)
		}
		b, _ := json.Marshal(body)
		cs[i] = Candidate{ID: fmt.Sprintf("id-%04d", r.IntN(1_000_000)*10+i%10), Rev: "1-a", Body: b}
	}
	// ids must be unique
	slices.SortFunc(cs, func(a, b Candidate) int { return strings.Compare(a.ID, b.ID) })
	cs = slices.CompactFunc(cs, func(a, b Candidate) bool { return a.ID == b.ID })
	r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	return cs
}

func TestBookmarkWalk(t *testing.T) {
	cs := randomDocs(257, 42)
	for _, q := range []string{
		`{"selector":{"k":"x"},"limit":10}`,
		`{"selector":{"k":"x"},"sort":["p"],"limit":7}`,
		`{"selector":{"p":{"$gte":1}},"sort":[{"p":"desc"},"d"],"limit":13}`,
		`{"selector":{},"sort":[{"d":"desc"}],"limit":1}`,
		`{"selector":{},"sort":["k",{"d":"desc"},"p"],"limit":25}`,
	} {
		full := ids(run(t, fullQuery(q), cs))
		got := walk(t, q, cs)
		if !slices.Equal(got, full) {
			t.Errorf("%s: walked %d rows, want %d in the same order", q, len(got), len(full))
		}
	}
}

// fullQuery is q with its limit raised to return everything at once.
func fullQuery(q string) string {
	var m map[string]any
	json.Unmarshal([]byte(q), &m)
	m["limit"] = MaxLimit
	b, _ := json.Marshal(m)
	return string(b)
}

func TestBookmarkSkipsInsertedRows(t *testing.T) {
	cs := randomDocs(50, 7)
	q := `{"selector":{},"sort":["p"],"limit":10}`
	first := run(t, q, cs)
	full := ids(run(t, fullQuery(q), cs))
	// A document that sorts before the bookmark appears after page 1 was read.
	cs = append(cs, Candidate{ID: "new", Rev: "1-a", Body: []byte(`{"p":-1}`)})
	second := run(t, `{"selector":{},"sort":["p"],"limit":10,"bookmark":"`+first.Bookmark+`"}`, cs)
	if !slices.Equal(ids(second), full[10:20]) {
		t.Errorf("page 2 shifted: got %v want %v", ids(second), full[10:20])
	}
	// CouchDB applies skip after the bookmark too.
	third := run(t, `{"selector":{},"sort":["p"],"limit":5,"skip":3,"bookmark":"`+first.Bookmark+`"}`, cs)
	if !slices.Equal(ids(third), full[13:18]) {
		t.Errorf("skip after bookmark: got %v want %v", ids(third), full[13:18])
	}
}

func TestBookmarkBoundToSort(t *testing.T) {
	cs := randomDocs(30, 3)
	res := run(t, `{"selector":{},"sort":["p"],"limit":5}`, cs)
	for _, body := range []string{
		`{"selector":{},"sort":[{"p":"desc"}],"bookmark":"` + res.Bookmark + `"}`,
		`{"selector":{},"sort":["d"],"bookmark":"` + res.Bookmark + `"}`,
		`{"selector":{},"bookmark":"` + res.Bookmark + `"}`,
		`{"selector":{},"sort":["p"],"bookmark":"` + res.Bookmark[:len(res.Bookmark)-2] + `"}`,
		`{"selector":{},"sort":["p"],"bookmark":"` + res.Bookmark + `="}`,
	} {
		_, err := ParseFind([]byte(body))
		if fe, ok := fault.As(err); !ok || fe.Reason != "invalid bookmark value" {
			t.Errorf("%s: got %v", body, err)
		}
	}
	// The same sort with another selector or limit is fine.
	if _, err := ParseFind([]byte(`{"selector":{"k":"y"},"sort":["p"],"limit":3,"bookmark":"` + res.Bookmark + `"}`)); err != nil {
		t.Error(err)
	}
}

func TestRunCopiesBodies(t *testing.T) {
	// The caller may reuse its buffer between candidates.
	buf := make([]byte, 0, 64)
	i := 0
	next := func() (Candidate, bool) {
		if i == 3 {
			return Candidate{}, false
		}
		i++
		buf = append(buf[:0], fmt.Sprintf(`{"n":%d}`, i)...)
		return Candidate{ID: fmt.Sprint(i), Body: buf}, true
	}
	f, _ := ParseFind([]byte(`{"selector":{},"sort":[{"n":"desc"}]}`))
	res, err := f.Run(next)
	if err != nil {
		t.Fatal(err)
	}
	for j, d := range res.Docs {
		if d["n"] != json.Number(fmt.Sprint(3-j)) {
			t.Errorf("doc %d = %v", j, d)
		}
	}
}

func TestRunMalformedBody(t *testing.T) {
	f, _ := ParseFind([]byte(`{"selector":{"a":1}}`))
	for _, body := range []string{`[1]`, `{"a":`, `{"a" 1}`, `{"a":1,}`, `{"b":"unterminated}`, `{"b":tru}`} {
		if _, err := f.Run(oneCandidate(Candidate{ID: "x", Body: []byte(body)})); err == nil {
			t.Errorf("%s: no error", body)
		}
	}
	// An empty body is an empty object.
	if res, err := f.Run(oneCandidate(Candidate{ID: "x"})); err != nil || len(res.Docs) != 0 {
		t.Errorf("empty body: %v %v", res, err)
	}
}

func FuzzParseFind(f *testing.F) {
	for _, s := range []string{
		`{"selector":{"a":{"$gt":1}},"sort":["a"],"limit":2}`,
		`{"selector":{"$not":{"$or":[{"a":{"$elemMatch":{"$nor":[{"b":1}]}}},{"c.0":{"$in":[1,"x",null,[]]}}]}}}`,
		`{"selector":{"a":{"$all":[[1]],"$size":1,"$mod":[2,1],"$type":"array"}},"fields":["a.0","b"]}`,
		`{"selector":{"n":{"$keyMapMatch":{"$regex":"^x"}},"m":{"$allMatch":{"$exists":true}}},"sort":[{"n":"desc"}],"skip":1}`,
	} {
		f.Add([]byte(s))
	}
	docs := testDocs()
	docs = append(docs,
		Candidate{ID: "e1", Body: []byte(`{"a":[1,[1],{"b":1}],"c":[1],"n":{"x1":1},"m":[1,2]}`)},
		Candidate{ID: "e2", Body: []byte(`{"a":{"0":1},"b":"x","c":{"0":"x"}}`)},
	)
	f.Fuzz(func(t *testing.T, body []byte) {
		q, err := ParseFind(body)
		if err != nil {
			if fe, ok := fault.As(err); !ok || fe.Kind != fault.BadRequest {
				t.Fatalf("error is not a BadRequest fault: %v", err)
			}
			return
		}
		res, err := q.Run(iter(docs))
		if err != nil {
			t.Fatal(err)
		}
		// Run's scanner path and Match on decoded documents agree.
		for _, c := range docs {
			var m map[string]any
			dec := json.NewDecoder(strings.NewReader(string(c.Body)))
			dec.UseNumber()
			dec.Decode(&m)
			m["_id"], m["_rev"] = c.ID, c.Rev
			one, err := q.Run(oneCandidate(c))
			if err != nil {
				t.Fatal(err)
			}
			if got := q.Selector.Match(m); got != (len(one.Docs) == 1) && q.Limit > 0 && q.Skip == 0 {
				t.Fatalf("%s on %s: Match=%v Run=%d docs", body, c.Body, got, len(one.Docs))
			}
		}
		_ = res
	})
}

// TestRunParallelMatchesRun: matching in parallel workers over batches
// gives the page, order and bookmark Run gives, with skip, limit, sorts,
// bookmarks and an empty page.
func TestRunParallelMatchesRun(t *testing.T) {
	cs := randomDocs(1000, 7)
	first := run(t, `{"selector":{"k":"x"},"sort":[{"p":"desc"},"d"],"limit":10}`, cs)
	for _, q := range []string{
		`{"selector":{"k":"x"},"limit":10}`,
		`{"selector":{"k":"x"},"sort":["p"],"limit":7,"skip":30}`,
		`{"selector":{"p":{"$gte":1}},"sort":[{"p":"desc"},"d"],"limit":13}`,
		`{"selector":{},"sort":[{"d":"desc"}],"limit":1}`,
		`{"selector":{},"sort":["k",{"d":"desc"},"p"],"limit":25,"skip":5}`,
		`{"selector":{"k":"x"},"sort":[{"p":"desc"},"d"],"limit":10,"bookmark":"` + first.Bookmark + `"}`,
		`{"selector":{"k":"z"},"limit":10}`,
		`{"selector":{},"limit":0}`,
		`{"selector":{},"limit":50,"skip":5000}`,
	} {
		want := run(t, q, cs)
		for _, workers := range []int{1, 2, 4} {
			f, err := ParseFind([]byte(q))
			if err != nil {
				t.Fatal(err)
			}
			batches := make(chan []Candidate)
			go func() {
				defer close(batches)
				for start := 0; start < len(cs); start += 37 {
					batches <- cs[start:min(start+37, len(cs))]
				}
			}()
			got, err := f.RunParallel(workers, batches)
			for range batches {
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s with %d workers:\n got  %v %q\n want %v %q", q, workers, ids(got), got.Bookmark, ids(want), want.Bookmark)
			}
		}
	}
}
