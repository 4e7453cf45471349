package wiki

import (
	"html"
	"slices"
	"strings"
	"unicode/utf8"
)

// Search: every term of the query (folded: case and accents ignored) must
// appear in the page's title or text. Pages whose title holds every term
// come first (an exact title, then a title that starts with the query,
// then the rest), then text matches by how often the terms occur, then by
// title. A snippet shows the text around the first match with every term
// in <mark>, the rest escaped.

// SearchRow is one result.
type SearchRow struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Categories []string `json:"categories"`
	UpdatedAt  string   `json:"updated_at"`
	TitleMatch bool     `json:"title_match"`
	// TitleHTML is the title escaped with its matches in <mark>.
	TitleHTML string `json:"title_html"`
	// Snippet is escaped text around the first match in the page's text,
	// the matches in <mark> ("" when only the title matched).
	Snippet string `json:"snippet"`
}

const (
	maxQueryTerms = 10
	maxQueryBytes = 200
	snippetRunes  = 160
)

// queryTerms splits and folds a query.
func queryTerms(q string) []string {
	if len(q) > maxQueryBytes {
		q = q[:maxQueryBytes]
		q = strings.ToValidUTF8(q, "")
	}
	var out []string
	for _, w := range strings.Fields(fold(q)) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
		if len(out) == maxQueryTerms {
			break
		}
	}
	return out
}

func inCategory(e *pageEntry, category string) bool {
	if category == "" {
		return true
	}
	for _, c := range e.Categories {
		if strings.EqualFold(c, category) {
			return true
		}
	}
	return false
}

// search ranks the pages of s for q; total counts every match.
func (s *pageSnap) search(q, category string, limit int) (rows []SearchRow, total int) {
	terms := queryTerms(q)
	type hit struct {
		e     *pageEntry
		rank  int // 0 exact title, 1 title prefix, 2 title has all terms, 3 text
		count int
	}
	var hits []hit
	fq := strings.Join(terms, " ")
	for _, e := range s.sorted {
		if !inCategory(e, category) {
			continue
		}
		if len(terms) == 0 {
			hits = append(hits, hit{e: e, rank: 2})
			continue
		}
		inTitle, all := true, true
		count := 0
		for _, t := range terms {
			tt := strings.Contains(e.FoldTitle, t)
			if !tt {
				inTitle = false
			}
			c := strings.Count(e.Fold, t)
			if !tt && c == 0 {
				all = false
				break
			}
			count += c
		}
		if !all {
			continue
		}
		h := hit{e: e, rank: 3, count: count}
		if inTitle {
			ft := strings.Join(strings.Fields(e.FoldTitle), " ")
			switch {
			case ft == fq:
				h.rank = 0
			case strings.HasPrefix(ft, fq):
				h.rank = 1
			default:
				h.rank = 2
			}
		}
		hits = append(hits, h)
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		if a.rank == 3 && a.count != b.count {
			return b.count - a.count
		}
		return 0 // s.sorted is by title already
	})
	total = len(hits)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	rows = make([]SearchRow, 0, len(hits))
	for _, h := range hits {
		cats := h.e.Categories
		if cats == nil {
			cats = []string{}
		}
		rows = append(rows, SearchRow{
			ID: h.e.ID, Title: h.e.Title, Categories: cats, UpdatedAt: h.e.UpdatedAt,
			TitleMatch: h.rank < 3, TitleHTML: highlight(h.e.Title, terms, 0),
			Snippet: highlight(h.e.Content, terms, snippetRunes),
		})
	}
	return rows, total
}

// highlight escapes text with every term in <mark>. With window > 0 it
// keeps about window runes around the first match ("" when no term is in
// text), with "…" where it cut.
func highlight(text string, terms []string, window int) string {
	if text == "" {
		return ""
	}
	// Fold rune by rune, remembering where each folded byte came from.
	var f strings.Builder
	origin := make([]int, 0, len(text)+1)
	for i, r := range text {
		fr := foldRune(r)
		f.WriteString(fr)
		for range len(fr) {
			origin = append(origin, i)
		}
	}
	origin = append(origin, len(text))
	folded := f.String()
	type span struct{ a, b int } // byte offsets in text
	var spans []span
	for _, t := range terms {
		if t == "" {
			continue
		}
		for off := 0; ; {
			i := strings.Index(folded[off:], t)
			if i < 0 {
				break
			}
			a := origin[off+i]
			end := off + i + len(t)
			b := origin[end]
			if b == a { // a match inside one folded rune
				_, size := utf8.DecodeRuneInString(text[a:])
				b = a + size
			}
			spans = append(spans, span{a, b})
			off = end
		}
	}
	if len(spans) == 0 {
		if window > 0 {
			return ""
		}
		return html.EscapeString(text)
	}
	slices.SortFunc(spans, func(x, y span) int { return x.a - y.a })
	merged := spans[:1]
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if s.a <= last.b {
			last.b = max(last.b, s.b)
		} else {
			merged = append(merged, s)
		}
	}
	from, to := 0, len(text)
	if window > 0 {
		from = backRunes(text, merged[0].a, window/3)
		to = fwdRunes(text, from, window)
		to = max(to, min(merged[0].b, len(text)))
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	pos := from
	for _, s := range merged {
		if s.b <= from {
			continue
		}
		if s.a >= to {
			break
		}
		a, e := max(s.a, from), min(s.b, to)
		b.WriteString(html.EscapeString(collapse(text[pos:a])))
		b.WriteString("<mark>")
		b.WriteString(html.EscapeString(text[a:e]))
		b.WriteString("</mark>")
		pos = e
	}
	b.WriteString(html.EscapeString(collapse(text[pos:to])))
	if to < len(text) {
		b.WriteString("…")
	}
	return b.String()
}

// collapse turns line breaks and runs of white space into one space.
func collapse(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") && !strings.Contains(s, "  ") {
		return s
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

func backRunes(s string, i, n int) int {
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return i
}

func fwdRunes(s string, i, n int) int {
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}
