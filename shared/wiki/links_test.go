package wiki_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
)

// TestLinksRenamesDeletes: [[Title]], [[Title|label]], Markdown links to a
// page's address (absolute path, relative, the product's own host) are
// stored as ids; linked_by follows adds, edits, removals, deletes and
// restores; a rename keeps every link and linked_by, the old title
// redirects; a wanted page is linked once it exists.
func TestLinksRenamesDeletes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newWiki(t, e)
		pump := w.page(t, "Bomba d'água", "Como trocar o selo.")
		valve := w.page(t, "Válvula", "Sem links.")
		zedPage := w.zed.Do("POST", "/api/"+w.other, map[string]any{"klass": "Handbook", "title": "Segredo do Zed"}).Expect(t, http.StatusCreated)["id"].(string)
		guide := w.page(t, "Guia", fmt.Sprintf("Veja [[bomba D'ÁGUA]] e [[Válvula|a válvula]].\n\n[caminho](/account/%s/handbooks/%s) [relativo](handbooks/%s) [host](%s/account/%s/handbooks/%s)\n"+
			"[outro grupo](/account/%s/handbooks/%s) [[Segredo do Zed]] [[Motor]] `[[Código]]`\n\n```\n[[Bloco]]\n```\n",
			w.db, valve, pump, apptest.BaseURL, w.db, valve, w.other, zedPage))
		d := e.Doc(w.db, guide)
		if !sameSet(strList(d["links"]), []string{pump, valve}) {
			t.Fatalf("links %v", d["links"])
		}
		if got := strList(d["wanted"]); !slices.Equal(got, []string{"Segredo do Zed", "Motor"}) {
			t.Fatalf("wanted %v (code is no link; another Group's page is not found here)", got)
		}
		e.Drain()
		if got := refIDs(w.view(t, pump)["linked_by"]); !slices.Equal(got, []string{guide}) {
			t.Fatalf("linked_by of the pump %v", got)
		}
		vr := w.ana.Do("GET", "/api/"+w.db+"/_design/wiki/_view/linked-by?key="+q(`"`+pump+`"`), nil).Expect(t, http.StatusOK)
		if rows := vr["rows"].([]any); len(rows) != 1 || rows[0].(map[string]any)["id"] != guide || rows[0].(map[string]any)["value"] != "Guia" {
			t.Fatalf("linked-by view %v", vr)
		}
		w.ana.Do("GET", "/api/"+w.db+"/_design/wiki/_view/linked-by?key="+pump, nil).ExpectError(t, http.StatusBadRequest, "key")
		if rows := w.ana.Do("GET", "/api/"+w.db+"/_design/wiki/_view/linked-by?key="+q(`"`+zedPage+`"`), nil).Expect(t, http.StatusOK)["rows"].([]any); len(rows) != 0 {
			t.Fatalf("another Group's page in the view: %v", rows)
		}
		v := w.view(t, guide)
		html := v["html"].(string)
		for _, want := range []string{
			fmt.Sprintf(`<a class="wk-link" href="/account/%s/handbooks/%s" rel="nofollow noreferrer">bomba D&#39;ÁGUA</a>`, w.db, pump),
			fmt.Sprintf(`<a class="wk-link" href="/account/%s/handbooks/%s" rel="nofollow noreferrer">a válvula</a>`, w.db, valve),
			fmt.Sprintf(`<a class="wk-link wk-wanted" href="/account/%s/handbooks/new?title=Motor"`, w.db),
			"outro grupo <a", // another Group's page: plain text, then the next link
			"<code>[[Código]]</code>",
		} {
			if !strings.Contains(html, want) {
				t.Errorf("html lacks %s:\n%s", want, html)
			}
		}
		if strings.Contains(html, w.other) || strings.Contains(html, zedPage) {
			t.Fatalf("another Group's link survived: %s", html)
		}
		if got := refIDs(v["links"]); !sameSet(got, []string{pump, valve}) {
			t.Fatalf("links %v", got)
		}

		// Rename: links and linked_by stay, the old title redirects.
		w.edit(t, pump, "title", "Bomba centrífuga").Expect(t, http.StatusCreated)
		e.Drain()
		if got := refIDs(w.view(t, pump)["linked_by"]); !slices.Equal(got, []string{guide}) {
			t.Fatalf("linked_by after the rename %v", got)
		}
		r := w.ana.Do("GET", "/api/"+w.db+"/_wiki/resolve?title="+q("BOMBA D'ÁGUA"), nil).Expect(t, http.StatusOK)
		if r["id"] != pump || r["redirected"] != true || r["title"] != "Bomba centrífuga" {
			t.Fatalf("resolve of the old title %v", r)
		}
		r = w.ana.Do("GET", "/api/"+w.db+"/_wiki/resolve?title="+q("bomba centrífuga"), nil).Expect(t, http.StatusOK)
		if r["id"] != pump || r["redirected"] != false {
			t.Fatalf("resolve %v", r)
		}
		w.ana.Do("GET", "/api/"+w.db+"/_wiki/resolve?title=Nada", nil).ExpectError(t, http.StatusNotFound, "missing")
		if hist := e.Doc(w.db, pump)["title_history"].([]any); len(hist) != 1 || hist[0].(map[string]any)["title"] != "Bomba d'água" {
			t.Fatalf("title history %v", hist)
		}
		// Editing the guide keeps its link to the renamed page ([[old title]] resolves by its stored id).
		w.edit(t, guide, "content", e.Doc(w.db, guide)["content"].(string)+"\nMais.").Expect(t, http.StatusCreated)
		if !slices.Contains(strList(e.Doc(w.db, guide)["links"]), pump) {
			t.Fatal("the edit lost the link to the renamed page")
		}
		// A new page may take the old title; the guide still links the pump.
		other := w.page(t, "Bomba d'água", "Outra bomba.")
		w.edit(t, guide, "content", e.Doc(w.db, guide)["content"].(string)+"\nAinda mais.").Expect(t, http.StatusCreated)
		e.Drain()
		if links := strList(e.Doc(w.db, guide)["links"]); !slices.Contains(links, pump) || slices.Contains(links, other) {
			t.Fatalf("links after the old title was taken %v", links)
		}
		// The title is unique, case-insensitively, on every route.
		w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": "  GUIA "}).ExpectFields(t, "title", "has already been taken")
		w.edit(t, valve, "title", "guia").ExpectFields(t, "title", "has already been taken")
		w.ana.Do("POST", "/api/"+w.db+"/_bulk_docs", map[string]any{"docs": []any{map[string]any{"_id": ids.New("han"), "title": "Guia"}}}).ExpectBulkField(t, "title", "has already been taken")

		// A wanted page is linked when it is created.
		motor := w.page(t, "motor", "")
		e.Drain()
		if d := e.Doc(w.db, guide); !slices.Contains(strList(d["links"]), motor) || slices.ContainsFunc(strList(d["wanted"]), func(s string) bool { return s == "Motor" }) {
			t.Fatalf("the wanted page was not linked: links %v wanted %v", d["links"], d["wanted"])
		}
		if got := refIDs(w.view(t, motor)["linked_by"]); !slices.Equal(got, []string{guide}) {
			t.Fatalf("linked_by of the new page %v", got)
		}

		// Remove a link by editing; delete and restore the linking page.
		w.edit(t, guide, "content", "Só [[Válvula]].").Expect(t, http.StatusCreated)
		e.Drain()
		if got := w.view(t, pump)["linked_by"].([]any); len(got) != 0 {
			t.Fatalf("linked_by after the link went %v", got)
		}
		saved := e.Doc(w.db, guide)
		w.del(t, guide)
		e.Drain()
		if got := w.view(t, valve)["linked_by"].([]any); len(got) != 0 {
			t.Fatalf("linked_by after the delete %v", got)
		}
		delete(saved, "_rev")
		w.ana.Do("PUT", "/api/"+w.db+"/"+guide, saved).Expect(t, http.StatusCreated) // restore
		e.Drain()
		if got := refIDs(w.view(t, valve)["linked_by"]); !slices.Equal(got, []string{guide}) {
			t.Fatalf("linked_by after the restore %v", got)
		}
		// Server fields are the server's.
		w.edit(t, valve, "links", []any{pump}, "linked_by", []any{pump}, "title_history", []any{map[string]any{"title": "x"}}).Expect(t, http.StatusCreated)
		if d := e.Doc(w.db, valve); len(strList(d["links"])) != 0 || d["linked_by"] != nil || d["title_history"] != nil {
			t.Fatalf("client values of server fields were kept: %v", d)
		}
	})
}

// TestLinkedByUnderReplay: random creates, edits of links, renames,
// deletes and restores, the stream drained at random moments; then every
// page's linked_by equals a recount from the stored pages' links, every
// [[title]] either leads to a live page that has (or had) that title or is
// wanted with no page holding it — and the same after a shuffled replay of
// every change.
func TestLinkedByUnderReplay(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newWiki(t, e)
		r := rand.New(rand.NewPCG(14, 41))
		names := []string{"Alfa", "Beta", "Gama", "Delta", "Épsilon", "Zeta", "Eta", "Teta", "Iota", "Capa", "Lambda", "Mi"}
		type pg struct{ id, title string }
		var live []pg
		var dead []map[string]any
		content := func() string {
			var b strings.Builder
			for range r.IntN(5) {
				n := names[r.IntN(len(names))]
				if r.IntN(3) == 0 {
					n = strings.ToUpper(n)
				}
				fmt.Fprintf(&b, "texto [[%s]] ", n)
			}
			if len(live) > 0 && r.IntN(3) == 0 {
				fmt.Fprintf(&b, "[link](handbooks/%s)", live[r.IntN(len(live))].id)
			}
			return b.String()
		}
		freeTitle := func() string {
			for range 50 {
				n := names[r.IntN(len(names))]
				if !slices.ContainsFunc(live, func(p pg) bool { return strings.EqualFold(p.title, n) }) {
					return n
				}
			}
			return ""
		}
		n := 250
		if testing.Short() {
			n = 80
		}
		for range n {
			switch op := r.IntN(10); {
			case len(live) < 3 || op < 3:
				if title := freeTitle(); title != "" {
					res := w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": title, "content": content()})
					if res.Code == http.StatusCreated {
						live = append(live, pg{res.JSON(t)["id"].(string), title})
					}
				}
			case op < 6:
				p := live[r.IntN(len(live))]
				w.edit(t, p.id, "content", content()).Expect(t, http.StatusCreated)
			case op < 7:
				i := r.IntN(len(live))
				if nt := freeTitle(); nt != "" {
					if w.edit(t, live[i].id, "title", nt).Code == http.StatusCreated {
						live[i].title = nt
					}
				}
			case op < 8:
				i := r.IntN(len(live))
				dead = append(dead, e.Doc(w.db, live[i].id))
				w.del(t, live[i].id)
				live = slices.Delete(live, i, i+1)
			case op < 9 && len(dead) > 0:
				i := r.IntN(len(dead))
				d := dead[i]
				if !slices.ContainsFunc(live, func(p pg) bool { return strings.EqualFold(p.title, d["title"].(string)) }) {
					delete(d, "_rev")
					w.ana.Do("PUT", "/api/"+w.db+"/"+d["_id"].(string), d).Expect(t, http.StatusCreated)
					live = append(live, pg{d["_id"].(string), d["title"].(string)})
					dead = slices.Delete(dead, i, i+1)
				}
			default:
				e.Drain()
			}
		}
		check := func(when string) {
			t.Helper()
			e.Drain()
			want := map[string][]string{}
			byTitle := map[string]string{}
			for _, p := range live {
				byTitle[strings.ToLower(p.title)] = p.id
			}
			for _, p := range live {
				d := e.Doc(w.db, p.id)
				for _, l := range strList(d["links"]) {
					want[l] = append(want[l], p.id)
				}
				for _, wt := range strList(d["wanted"]) {
					if id := byTitle[strings.ToLower(wt)]; id != "" && id != p.id {
						t.Errorf("%s: %s wants %q, which %s holds", when, p.id, wt, id)
					}
				}
				if targets, ok := d["link_targets"].(map[string]any); ok {
					for title, id := range targets {
						td := e.Doc(w.db, id.(string))
						if td == nil {
							t.Errorf("%s: %s links [[%s]] to a page that is gone", when, p.id, title)
							continue
						}
						had := strings.EqualFold(td["title"].(string), title)
						hist, _ := td["title_history"].([]any)
						for _, h := range hist {
							had = had || strings.EqualFold(h.(map[string]any)["title"].(string), title)
						}
						if !had {
							t.Errorf("%s: [[%s]] of %s leads to %q", when, title, p.id, td["title"])
						}
					}
				}
			}
			for _, p := range live {
				got := refIDs(w.view(t, p.id)["linked_by"])
				if !sameSet(got, want[p.id]) {
					t.Errorf("%s: linked_by of %s (%s) is %v, a recount says %v", when, p.title, p.id, got, want[p.id])
				}
			}
		}
		check("after the operations")
		e.Replay(9)
		check("after a replay")
		t.Logf("%d live pages, %d deleted", len(live), len(dead))
	})
}
