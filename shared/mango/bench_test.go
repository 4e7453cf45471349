package mango

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/httpload"
)

// benchDocs builds n ticket-like documents of about 500 bytes. The fields
// the benchmark query reads sit in the middle and at the end of the body,
// so the scanner must skip most of each document.
func benchDocs(n int) []Candidate {
	r := rand.New(rand.NewPCG(1, 2))
	klasses := []string{"ticket", "contact", "invoice", "task", "note"}
	statuses := []string{"open", "pending", "closed"}
	words := strings.Fields("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua")
	cs := make([]Candidate, n)
	for i := range cs {
		desc := make([]string, 28)
		for j := range desc {
			desc[j] = words[r.IntN(len(words))]
		}
		body := fmt.Sprintf(`{"title":"Ticket %d about %s","description":"%s","klass":"%s","priority":%d,`+
			`"tags":["%s","%s"],"assignee":{"_id":"usr-%032x","label":"Someone Person"},`+
			`"updated_at":"2024-%02d-%02dT10:%02d:00Z","created_by":{"_id":"usr-%032x","label":"Creator"},`+
			`"status":"%s","created_at":"2024-%02d-%02dT%02d:%02d:%02dZ"}`,
			i, words[r.IntN(len(words))], strings.Join(desc, " "), klasses[r.IntN(len(klasses))], r.IntN(5),
			words[r.IntN(len(words))], words[r.IntN(len(words))], r.Uint64(),
			r.IntN(12)+1, r.IntN(28)+1, r.IntN(60), r.Uint64(),
			statuses[r.IntN(len(statuses))], r.IntN(12)+1, r.IntN(28)+1, r.IntN(24), r.IntN(60), r.IntN(60))
		cs[i] = Candidate{ID: fmt.Sprintf("tkt-%032x", r.Uint64()), Rev: "1-0123456789abcdef0123456789abcdef", Body: []byte(body)}
	}
	return cs
}

const benchQuery = `{"selector":{"klass":"ticket","status":{"$in":["open","pending"]}},"sort":[{"created_at":"desc"}],"limit":25}`

func BenchmarkFind10k(b *testing.B) {
	cs := benchDocs(10000)
	size := 0
	for _, c := range cs {
		size += len(c.Body)
	}
	b.ReportAllocs()
	var laps []time.Duration
	cpu0 := httpload.ProcessCPU()
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		// Parsing is part of every request, so it is timed too.
		f, err := ParseFind([]byte(benchQuery))
		if err != nil {
			b.Fatal(err)
		}
		res, err := f.Run(iter(cs))
		if err != nil || len(res.Docs) != 25 {
			b.Fatalf("%v %d", err, len(res.Docs))
		}
		laps = append(laps, time.Since(t0))
	}
	slices.Sort(laps)
	b.ReportMetric(float64(laps[len(laps)/2].Nanoseconds()), "p50-ns")
	// CPU time of the process (GC included) per op, which a shared,
	// overloaded machine distorts less than wall time.
	if cpu := httpload.ProcessCPU(); cpu > 0 {
		b.ReportMetric(float64(cpu-cpu0)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(size)/float64(len(cs)), "B/doc")
}

// BenchmarkExtractTop and BenchmarkSkipOnly isolate the scanner.
func BenchmarkExtractTop(b *testing.B) {
	cs := benchDocs(10000)
	size := 0
	for _, c := range cs {
		size += len(c.Body)
	}
	b.SetBytes(int64(size))
	m := map[string]any{}
	names := []string{"created_at", "klass", "status"}
	dec := newDecoder(len(names))
	for b.Loop() {
		for _, c := range cs {
			clear(m)
			if err := dec.extractTop(c.Body, names, m); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkSkipOnly(b *testing.B) {
	cs := benchDocs(10000)
	size := 0
	for _, c := range cs {
		size += len(c.Body)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, c := range cs {
			if _, err := skipValue(c.Body, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkFind10kDecodeAll is the naive approach the scanner replaces:
// json.Unmarshal every candidate, then Match.
func BenchmarkFind10kDecodeAll(b *testing.B) {
	cs := benchDocs(10000)
	f, _ := ParseFind([]byte(benchQuery))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, c := range cs {
			var m map[string]any
			if err := json.Unmarshal(c.Body, &m); err != nil {
				b.Fatal(err)
			}
			if f.Selector.Match(m) {
				n++
			}
		}
		if n == 0 {
			b.Fatal("no match")
		}
	}
}

// TestBenchQuery checks the benchmark query returns what a full decode and
// sort would.
func TestBenchQuery(t *testing.T) {
	cs := benchDocs(2000)
	f, _ := ParseFind([]byte(benchQuery))
	res, err := f.Run(iter(cs))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range cs {
		var m map[string]any
		json.Unmarshal(c.Body, &m)
		if (m["klass"] == "ticket") && (m["status"] == "open" || m["status"] == "pending") {
			want = append(want, m["created_at"].(string)+"\x00"+c.ID)
		}
	}
	sortDesc(want)
	for i, d := range res.Docs {
		got := d["created_at"].(string) + "\x00" + d["_id"].(string)
		if got != want[i] {
			t.Fatalf("row %d = %q, want %q", i, got, want[i])
		}
	}
}

func sortDesc(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] > s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// BenchmarkLargestAllowedFind is the dearest request the bounds allow
// (issue 8): MaxFields projected fields, MaxSortFields sort keys and a
// selector of MaxSelectorTerms terms, over 1,000 documents. Before the
// bounds, a 0.84 MB body of distinct fields alone cost ~15–27 s.
func BenchmarkLargestAllowedFind(b *testing.B) {
	cs := benchDocs(1000)
	fields := make([]string, MaxFields)
	for i := range fields {
		fields[i] = fmt.Sprintf("f%d.g%d", i, i)
	}
	sort := make([]map[string]string, MaxSortFields)
	for i := range sort {
		sort[i] = map[string]string{fmt.Sprintf("s%d", i): "asc"}
	}
	in := make([]string, MaxSelectorTerms-10)
	for i := range in {
		in[i] = fmt.Sprintf("x%d", i)
	}
	body, err := json.Marshal(map[string]any{
		"selector": map[string]any{"klass": "ticket", "title": map[string]any{"$nin": in}},
		"fields":   fields, "sort": sort, "limit": 200,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		f, err := ParseFind(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Run(iter(cs)); err != nil {
			b.Fatal(err)
		}
	}
}
