package mango

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/fault"
)

// Issue 8, item 3: a request's size is bounded in what it can make the
// server do, not only in bytes. A 0.84 MB body of distinct fields cost
// ~27 s of CPU (the projection trie was built by linear scans).

func findBody(t *testing.T, q map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func manyFields(n int, prefix string) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

func TestFindLimits(t *testing.T) {
	long := strings.Repeat("f", MaxFieldLen+1)
	inValues := make([]any, MaxSelectorTerms+1)
	for i := range inValues {
		inValues[i] = i
	}
	deep := map[string]any{"a": 1}
	for range MaxSelectorDepth + 1 {
		deep = map[string]any{"$and": []any{deep}}
	}
	wide := map[string]any{}
	for i := range MaxSelectorTerms + 1 {
		wide[fmt.Sprintf("f%d", i)] = i
	}
	tests := []struct {
		name   string
		q      map[string]any
		reason string
	}{
		{"too many fields", map[string]any{"selector": map[string]any{}, "fields": manyFields(MaxFields+1, "f")},
			fmt.Sprintf("fields: at most %d may be requested", MaxFields)},
		{"a 0.84 MB body of fields", map[string]any{"selector": map[string]any{}, "fields": manyFields(95000, "f")},
			fmt.Sprintf("fields: at most %d may be requested", MaxFields)},
		{"long field", map[string]any{"selector": map[string]any{}, "fields": []any{long}},
			fmt.Sprintf("field name is too long (maximum is %d characters)", MaxFieldLen)},
		{"long selector field", map[string]any{"selector": map[string]any{long: 1}},
			fmt.Sprintf("field name is too long (maximum is %d characters)", MaxFieldLen)},
		{"long sort field", map[string]any{"selector": map[string]any{}, "sort": []any{long}},
			fmt.Sprintf("field name is too long (maximum is %d characters)", MaxFieldLen)},
		{"too many sort fields", map[string]any{"selector": map[string]any{}, "sort": manyFields(MaxSortFields+1, "s")},
			fmt.Sprintf("sort: at most %d fields", MaxSortFields)},
		{"wide selector", map[string]any{"selector": wide},
			fmt.Sprintf("selector is too large (maximum is %d conditions and values)", MaxSelectorTerms)},
		{"long $in", map[string]any{"selector": map[string]any{"_id": map[string]any{"$in": inValues}}},
			fmt.Sprintf("selector is too large (maximum is %d conditions and values)", MaxSelectorTerms)},
		{"deep selector", map[string]any{"selector": deep},
			fmt.Sprintf("selector is nested too deeply (maximum is %d levels)", MaxSelectorDepth)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFind(findBody(t, tt.q))
			fe, ok := fault.As(err)
			if !ok || fe.Kind != fault.BadRequest || fe.Reason != tt.reason {
				t.Fatalf("got %v, want 400 %q", err, tt.reason)
			}
		})
	}
}

// TestFindAtTheLimits: requests right at every bound are served, and the
// projection of many fields is exact.
func TestFindAtTheLimits(t *testing.T) {
	fields := manyFields(MaxFields, "f")
	fields[0] = "a.b"
	fields[1] = "a.c"
	fields[2] = "a" // a whole object wins over its parts
	inValues := make([]any, MaxSelectorTerms-10)
	for i := range inValues {
		inValues[i] = fmt.Sprintf("doc-%d", i)
	}
	q := map[string]any{
		"selector": map[string]any{"klass": "Price", "_id": map[string]any{"$in": inValues}},
		"fields":   fields,
		"sort":     manyFields(MaxSortFields, "s"),
	}
	f, err := ParseFind(findBody(t, q))
	if err != nil {
		t.Fatal(err)
	}
	docs := []Candidate{{ID: "doc-1", Body: []byte(`{"klass":"Price","a":{"b":1,"c":2,"d":3},"f7":7,"x":0}`)}}
	res, err := f.Run(iter(docs))
	if err != nil || len(res.Docs) != 1 {
		t.Fatalf("%v %v", res, err)
	}
	got, _ := json.Marshal(res.Docs[0])
	if string(got) != `{"a":{"b":1,"c":2,"d":3},"f7":7}` {
		t.Errorf("projection %s", got)
	}
}

func TestParseFieldList(t *testing.T) {
	got, err := ParseFieldList("name,v7_plan,a\\.b")
	if err != nil || strings.Join(got, "|") != `name|v7_plan|a\.b` {
		t.Fatalf("%v %v", got, err)
	}
	for list, reason := range map[string]string{
		strings.Repeat("f,", MaxFields) + "g": fmt.Sprintf("fields: at most %d may be requested", MaxFields),
		strings.Repeat("f", MaxFieldLen+1):    fmt.Sprintf("field name is too long (maximum is %d characters)", MaxFieldLen),
		"a,,b":                                `invalid field name ""`,
	} {
		_, err := ParseFieldList(list)
		if fe, ok := fault.As(err); !ok || fe.Kind != fault.BadRequest || fe.Reason != reason {
			t.Errorf("%.30q: %v, want %q", list, err, reason)
		}
	}
}
