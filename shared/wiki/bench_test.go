package wiki_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
)

var words = strings.Fields("bomba selo válvula motor compressor manutenção preventiva corretiva peça troca óleo filtro correia rolamento " +
	"pressão vazamento ruído temperatura elétrica painel disjuntor cabo tensão corrente cliente garantia prazo orçamento técnico " +
	"limpeza inspeção ajuste calibração lubrificação medição teste relatório procedimento segurança equipamento instalação")

func text(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

// bulk writes docs through _bulk_docs in chunks.
func bulk(b testing.TB, c *apptest.Client, db string, docs []any) {
	for i := 0; i < len(docs); i += 250 {
		c.Do("POST", "/api/"+db+"/_bulk_docs", map[string]any{"docs": docs[i:min(i+250, len(docs))]}).Expect(b, http.StatusCreated)
	}
}

// BenchmarkWikiSave: saving a page that links to 100 others and is linked
// by 100, through the API on the embedded store (the write path parses and
// resolves the links; the index is the stream's work, after the answer).
func BenchmarkWikiSave(b *testing.B) {
	e := apptest.New(b, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	r := rand.New(rand.NewPCG(1, 2))
	var docs []any
	var links strings.Builder
	for i := range 100 {
		docs = append(docs, map[string]any{"_id": ids.New("han"), "klass": "Handbook", "title": fmt.Sprintf("Alvo %d", i), "content": text(r, 200)})
		fmt.Fprintf(&links, "Veja [[Alvo %d]] e %s.\n", i, text(r, 10))
	}
	for i := range 100 {
		docs = append(docs, map[string]any{"_id": ids.New("han"), "klass": "Handbook", "title": fmt.Sprintf("Fonte %d", i), "content": "Ver [[Central]]. " + text(r, 200)})
	}
	bulk(b, ana, db, docs)
	res := ana.Do("POST", "/api/"+db, map[string]any{"klass": "Handbook", "title": "Central", "content": links.String()}).Expect(b, http.StatusCreated)
	id, rev := res["id"].(string), res["rev"].(string)
	e.Drain()
	if n := len(e.Doc(db, id)["links"].([]any)); n != 100 {
		b.Fatalf("%d links", n)
	}
	page := ana.Do("GET", "/api/"+db+"/_wiki/pages/"+id+"/html", nil).Expect(b, http.StatusOK)
	if n := len(page["linked_by"].([]any)); n != 100 {
		b.Fatalf("linked by %d", n)
	}
	content := links.String()
	i := 0
	e.Measure(b, func() apptest.Response {
		i++
		r := ana.Do("PUT", "/api/"+db+"/"+id, map[string]any{"_rev": rev, "klass": "Handbook", "title": "Central", "content": content + fmt.Sprintf("\nEdição %d", i)})
		if r.Code == http.StatusCreated {
			rev = r.JSON(b)["rev"].(string)
			r.Code = http.StatusOK
		}
		return r
	})
}

// BenchmarkWikiSearch: a search over 5,000 pages (about 1.3 KB of text
// each) through the API on the embedded store, the page index warm (one
// update-sequence read per search); the cold build is reported once.
func BenchmarkWikiSearch(b *testing.B) {
	e := apptest.New(b, apptest.Bolt)
	ana := e.SignUp("ana@example.com")
	db := e.Group(ana, "Oficina da Ana")
	r := rand.New(rand.NewPCG(3, 4))
	var docs []any
	for i := range 5000 {
		docs = append(docs, map[string]any{"_id": ids.New("han"), "klass": "Handbook", "title": fmt.Sprintf("%s %s %d", words[r.IntN(len(words))], words[r.IntN(len(words))], i),
			"content": text(r, 150), "categories": []any{words[r.IntN(8)]}})
	}
	bulk(b, ana, db, docs)
	t0 := time.Now()
	first := ana.Do("GET", "/api/"+db+"/_wiki/search?q=bomba", nil).Expect(b, http.StatusOK)
	b.Logf("first search (builds the index of 5,000 pages): %v, %v matches", time.Since(t0), first["total"])
	queries := []string{"bomba+selo", "manutenção+preventiva", "compressor", "vazamento+ruído+painel", "bomba&category=selo", "xyzzy"}
	i := 0
	e.Measure(b, func() apptest.Response {
		i++
		return ana.Do("GET", "/api/"+db+"/_wiki/search?q="+queries[i%len(queries)], nil)
	})
}
