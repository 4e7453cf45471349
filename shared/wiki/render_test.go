package wiki_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/htmlsafe"
	"github.com/oficina/oficina/shared/htmlsafe/xsstest"
	"github.com/oficina/oficina/shared/ids"
)

// wikiAllow is what wiki HTML may carry beyond the reader's: its classes,
// disabled checkboxes, and links to the Group's own pages and drive files.
func wikiAllow(db string) xsstest.Allow {
	return xsstest.Allow{
		Class:       htmlsafe.WikiClass(),
		Checkbox:    true,
		RelativeURL: regexp.MustCompile(`^/(account/` + db + `/handbooks/(han-[0-9a-f]{32}|new\?title=[A-Za-z0-9%._~+-]+)|api/` + db + `/_drive/files/fle-[0-9a-f]{32}/content(\?[a-z]+=[A-Za-z0-9._-]+(&[a-z]+=[A-Za-z0-9._-]+)?)?)$`),
	}
}

// TestXSSCorpusRendersInert: every payload of the shared corpus, as a
// page's Markdown (bare, inside a [[link]], a link label, a table cell, a
// task item, a code block's language), as html and as text content, comes
// out of the preview and of a saved page's rendering inert.
func TestXSSCorpusRendersInert(t *testing.T) {
	e := apptest.New(t, apptest.Bolt)
	w := newWiki(t, e)
	allow := wikiAllow(w.db)
	payloads := xsstest.Payloads()
	wraps := []string{"%s", "[[%s]]", "[[Página|%s]]", "[%s](handbooks/x)", "| a | b |\n|---|---|\n| %s | x |", "- [ ] %s\n- [x] done", "```%s\nx\n```", "> %s", "<details>%s</details>"}
	n := 0
	for _, p := range payloads {
		for _, wrap := range wraps {
			for _, ct := range []string{"markdown", "html", "text"} {
				if ct != "markdown" && wrap != "%s" {
					continue
				}
				r := w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", map[string]any{"content": fmt.Sprintf(wrap, p), "content_type": ct}).Expect(t, http.StatusOK)
				out := r["html"].(string)
				if err := xsstest.CheckInertAllowing(out, allow); err != nil {
					t.Errorf("%s %q as %q\n  gave %q\n  %v", ct, p, wrap, out, err)
				}
				n++
			}
		}
	}
	// Saved pages: the payload in the content and in the title.
	for i, p := range payloads {
		if i%5 != 0 {
			continue
		}
		res := w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": fmt.Sprintf("P%d %s", i, strings.ReplaceAll(p, "\n", " ")), "content": p + "\n\n[[P0]]"})
		if res.Code != http.StatusCreated {
			continue // a title the schema refuses (too long, control characters)
		}
		out := w.view(t, res.JSON(t)["id"].(string))["html"].(string)
		if err := xsstest.CheckInertAllowing(out, allow); err != nil {
			t.Errorf("saved %q gave %q: %v", p, out, err)
		}
	}
	t.Logf("%d renderings checked", n)
}

// TestRenderFeatures: GFM tables, task lists (disabled), strikethrough,
// autolinks, highlighted code as classes, images from the Group's drive
// (and not another's), raw HTML sanitised.
func TestRenderFeatures(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newWiki(t, e)
		file, otherFile := ids.New("fle"), ids.New("fle")
		src := "# Título\n\n| Peça | Preço |\n|:---|---:|\n| Selo | 10 |\n\n- [x] feito\n- [ ] falta\n\n~~velho~~ https://example.com/x\n\n" +
			"```go\nfunc main() { fmt.Println(\"oi\") }\n```\n\n" +
			fmt.Sprintf("![foto](/api/%s/_drive/files/%s/content) ![versão](/api/%[1]s/_drive/files/%[2]s/content?version=v1.2&inline=true) ![x](/api/%[1]s/_drive/files/%[2]s/content?inline=<script>) ![alheia](/api/%s/_drive/files/%s/content) ![rel](foto.png)\n\n", w.db, file, w.other, otherFile) +
			"<kbd>Ctrl</kbd> <span style=\"color:red\" class=\"btn wk-x\" onclick=\"x()\">s</span> <input type=\"text\" value=\"x\"> <input type=checkbox checked>"
		r := w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", map[string]any{"content": src}).Expect(t, http.StatusOK)
		out := r["html"].(string)
		for _, want := range []string{
			"<table>", `<th align="left">Peça</th>`, `<td align="right">10</td>`,
			`<input type="checkbox" disabled="" checked=""/> feito`, `<input type="checkbox" disabled=""/> falta`,
			"<del>velho</del>", `<a href="https://example.com/x" rel="nofollow noreferrer noopener" target="_blank">https://example.com/x</a>`,
			`<pre class="wk-chroma">`, `<span class="wk-kd">func</span>`,
			fmt.Sprintf(`<img src="/api/%s/_drive/files/%s/content" alt="foto"`, w.db, file),
			fmt.Sprintf(`<img src="/api/%s/_drive/files/%s/content?version=v1.2&amp;inline=true" alt="versão"`, w.db, file),
			`<img alt="x"`,
			"<kbd>Ctrl</kbd>",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("the rendering lacks %s:\n%s", want, out)
			}
		}
		for _, bad := range []string{otherFile, "foto.png", "style=", "onclick", "btn", `type="text"`, "<h1 id"} {
			if strings.Contains(out, bad) {
				t.Errorf("the rendering kept %q:\n%s", bad, out)
			}
		}
		if err := xsstest.CheckInertAllowing(out, wikiAllow(w.db)); err != nil {
			t.Fatal(err)
		}
		css := w.ana.Do("GET", "/api/"+w.db+"/_wiki/highlight.css?style=github-dark", nil)
		if css.Code != http.StatusOK || !strings.Contains(string(css.Body), ".wk-kd") || !strings.HasPrefix(css.Header.Get("Content-Type"), "text/css") {
			t.Fatalf("highlight.css: %d %s", css.Code, css.Body)
		}
		// Preview resolves [[links]] against the Group's pages.
		id := w.page(t, "Selo", "x")
		r = w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", map[string]any{"content": "[[selo]] [[Nova]]"}).Expect(t, http.StatusOK)
		if got := refIDs(r["links"]); len(got) != 1 || got[0] != id || strList(r["wanted"])[0] != "Nova" {
			t.Fatalf("preview links %v wanted %v", r["links"], r["wanted"])
		}
		// Bad input.
		w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", `{"content": `).ExpectError(t, http.StatusBadRequest, "")
		w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", `[]`).ExpectError(t, http.StatusBadRequest, "")
		w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", map[string]any{"content": 7}).ExpectError(t, http.StatusBadRequest, "")
		w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", map[string]any{"content": "x", "content_type": "pdf"}).ExpectFields(t, "content_type", "not in allowed list")
		w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", map[string]any{"content": strings.Repeat("a", 2<<20)}).ExpectError(t, http.StatusRequestEntityTooLarge, "")
		w.ana.Do("POST", "/api/"+w.db+"/_wiki/preview", "content=x", "Content-Type", "text/plain").ExpectError(t, http.StatusUnsupportedMediaType, "")
	})
}

// TestHandbookRules: the schema on every route, bad bodies, too many
// links, huge and hostile contents.
func TestHandbookRules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newWiki(t, e)
		e.Unchanged(w.db, func() {
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "content": "x"}).ExpectFields(t, "title", "can't be blank")
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": strings.Repeat("t", 201)}).ExpectFields(t, "title", "is too long (maximum is 200 characters)")
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": "a\x00b"}).ExpectFields(t, "title", "is invalid")
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": "T", "content_type": "pdf"}).ExpectFields(t, "content_type", "not in allowed list")
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": "T", "fields": []any{map[string]any{"field_value": "x"}}}).ExpectFields(t, "fields[0].field_name", "can't be blank")
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": "T", "content": strings.Repeat("[[x]] ", 1) + manyLinks(501)}).ExpectFields(t, "content", "has too many links (maximum is 500)")
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Handbook", "title": "T", "content": strings.Repeat("a", 200_001)}).ExpectFields(t, "content", "is too long (maximum is 200000 characters)")
			w.ana.Do("POST", "/api/"+w.db, `{"klass": "Handbook", "title": `).ExpectError(t, http.StatusBadRequest, "")
		})
		// Hostile but valid: nested brackets, unclosed links, deep lists.
		for i, c := range []string{strings.Repeat("[", 10000), strings.Repeat("[[", 5000) + "x" + strings.Repeat("]]", 5000), strings.Repeat("> ", 3000) + "x", strings.Repeat("- ", 3000) + "x", "[[" + strings.Repeat("a", 300) + "]]", "[[|]] [[ ]] [[a|]]"} {
			id := w.page(t, fmt.Sprintf("Hostil %d", i), c)
			if v := w.view(t, id); v["html"] == nil {
				t.Fatal("no html")
			}
		}
		id := w.page(t, "Campos", "", "fields", []any{map[string]any{"field_name": "Voltagem", "field_value": "220"}}, "value_for", "Voltagem", "categories", "manuais, elétrica")
		d := e.Doc(w.db, id)
		if d["content_type"] != "markdown" || fmt.Sprint(d["categories"]) != "[manuais elétrica]" || d["label"] != "Campos" {
			t.Fatalf("normalised page %v", d)
		}
	})
}

func manyLinks(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[[Página %d]] ", i)
	}
	return b.String()
}
