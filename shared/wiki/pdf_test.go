package wiki_test

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

// pdfText extracts a PDF's text with poppler's pdftotext (as the receipts' tests do).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	in := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", in, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// TestExportPDF: a page, a category and the wiki as PDF, laid out from the
// Markdown (headings, lists, tasks, code, quotes, tables, [[links]], images
// by alt text); HTML pages print their text without scripts; glyphs the
// fonts lack print as "?"; unknown and foreign ids are 404.
func TestExportPDF(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newWiki(t, e)
		w.page(t, "Safety", "Gloves on.", "categories", []any{"bench"})
		rich := w.page(t, "Screen replacement", strings.Join([]string{
			"# Steps", "",
			"1. Check [[Safety|the safety page]] first.",
			"2. Heat the edge to 80 °C.", "",
			"- [x] battery out",
			"- [ ] adhesive ready", "",
			"> Never pry near the flex cable.", "",
			"```go", "func main() { println(\"hi\") }", "```", "",
			"| Part | Torque |", "|---|---|", "| M1.4 screw | 0.1 Nm |", "",
			"![exploded view](/api/x/_drive/files/fle-00000000000000000000000000000000/content)", "",
			"---", "",
			"Ação em 日本語 <script>alert(1)</script>",
		}, "\n"), "categories", []any{"bench", "screens"})
		w.page(t, "Raw page", "<h1>Old manual</h1><script>alert('x')</script><p>Keep dry.</p>", "content_type", "html")
		get := func(c *apptest.Client, path string) []byte {
			r := c.Do("GET", path, nil)
			if r.Code != http.StatusOK || r.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(r.Body, []byte("%PDF-")) {
				t.Fatalf("%s: %d %s %.200s", path, r.Code, r.Header.Get("Content-Type"), r.Body)
			}
			return r.Body
		}
		one := pdfText(t, get(w.ana, "/api/"+w.db+"/_wiki/export.pdf?id="+rich))
		for _, want := range []string{"Screen replacement", "bench · screens", "Steps", "1. Check the safety page first.", "Heat the edge to 80 °C.",
			"[x] battery out", "[ ] adhesive ready", "Never pry near the flex cable.", `func main() { println("hi") }`,
			"Part | Torque", "M1.4 screw | 0.1 Nm", "[image: exploded view]", "Ação em ???"} {
			if !strings.Contains(one, want) {
				t.Errorf("page PDF lacks %q:\n%s", want, one)
			}
		}
		if strings.Contains(one, "Gloves on.") || strings.Contains(one, "alert") {
			t.Errorf("page PDF has more than the page: %s", one)
		}
		cat := pdfText(t, get(w.ana, "/api/"+w.db+"/_wiki/export.pdf?category=BENCH"))
		if !strings.Contains(cat, "Gloves on.") || !strings.Contains(cat, "Steps") || strings.Contains(cat, "Old manual") {
			t.Errorf("category PDF: %s", cat)
		}
		all := pdfText(t, get(w.ana, "/api/"+w.db+"/_wiki/export.pdf"))
		if !strings.Contains(all, "Old manual") || !strings.Contains(all, "Keep dry.") || strings.Contains(all, "alert") {
			t.Errorf("wiki PDF: %s", all)
		}
		if r := w.ana.Do("GET", "/api/"+w.db+"/_wiki/export.pdf?id=han-00000000000000000000000000000000", nil); r.Code != http.StatusNotFound {
			t.Errorf("unknown page: %d", r.Code)
		}
		if r := w.ana.Do("GET", "/api/"+w.db+"/_wiki/export.pdf?id=../etc", nil); r.Code != http.StatusNotFound {
			t.Errorf("bad id: %d", r.Code)
		}
		// Zed's own Group does not have Ana's page.
		if r := w.zed.Do("GET", "/api/"+w.other+"/_wiki/export.pdf?id="+rich, nil); r.Code != http.StatusNotFound {
			t.Errorf("another Group's page: %d", r.Code)
		}
		if r := w.zed.Do("GET", "/api/"+w.db+"/_wiki/export.pdf?id="+rich, nil); r.Code != http.StatusForbidden && r.Code != http.StatusNotFound {
			t.Errorf("outsider: %d", r.Code)
		}
	})
}
