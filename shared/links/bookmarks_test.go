package links_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

const firefoxExport = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<!-- This is an automatically generated file. -->
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks Menu</H1>
<DL><p>
    <DT><H3 ADD_DATE="1700000000" PERSONAL_TOOLBAR_FOLDER="true">Bookmarks Toolbar</H3>
    <DL><p>
        <DT><A HREF="https://go.dev/doc/" ADD_DATE="1700000001" TAGS="go,docs">Go &amp; docs</A>
        <DD>The Go documentation
        <DT><H3>Fornecedores</H3>
        <DL><p>
            <DT><A HREF="https://pecas.example/bombas?id=1" ADD_DATE="1700000002">Peças <b>bold</b></A>
            <DT><A HREF="javascript:alert(1)">evil</A>
            <DT><A HREF="place:sort=8&maxResults=10">Recent</A>
        </DL><p>
    </DL><p>
    <DT><A HREF="HTTPS://Example.COM/a" ADD_DATE="bad">Example "quoted" &lt;tag&gt;</A>
</DL><p>
`

// TestBookmarks: the rules on every route, the Netscape import (tags,
// folders as tags except the toolbar, descriptions, dates; non-http links
// reported, not written), re-import writing nothing new, export and
// round trip, hostile files.
func TestBookmarks(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newGroups(e)
		e.Unchanged(w.db, func() {
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Bookmark", "url": "javascript:alert(1)"}).ExpectFields(t, "url", "is invalid")
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Bookmark"}).ExpectFields(t, "url", "can't be blank")
			w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Bookmark", "url": "https://x.example", "starred": "yes"}).ExpectFields(t, "starred", "is invalid")
			w.ana.Do("POST", "/api/"+w.db+"/_bulk_docs", map[string]any{"docs": []any{map[string]any{"klass": "Bookmark", "url": "ftp://x.example/"}}}).ExpectBulkField(t, "url", "is invalid")
		})
		id := w.ana.Do("POST", "/api/"+w.db, map[string]any{"klass": "Bookmark", "url": "https://go.dev/doc/", "tags": "go"}).Expect(t, http.StatusCreated)["id"].(string)
		if d := e.Doc(w.db, id); d["title"] != "go.dev" || d["label"] != "go.dev" || d["starred"] != false || !strings.HasPrefix(id, "bkm-") {
			t.Fatalf("bookmark %v", d)
		}
		// PUT runs the same rules: a blank title becomes the host again.
		d := e.Doc(w.db, id)
		d["title"] = " "
		e.Unchanged(w.db, func() {
			d["url"] = "javascript:alert(1)"
			w.ana.Do("PUT", "/api/"+w.db+"/"+id, d).ExpectFields(t, "url", "is invalid")
		})
		d["url"] = "https://go.dev/doc/"
		w.ana.Do("PUT", "/api/"+w.db+"/"+id, d).Expect(t, http.StatusCreated)
		if d := e.Doc(w.db, id); d["title"] != "go.dev" {
			t.Fatalf("bookmark after PUT %v", d)
		}
		imp := func(body string, headers ...string) apptest.Response {
			return w.ana.Do("POST", "/api/"+w.db+"/_links/import", body, append([]string{"Content-Type", "text/html"}, headers...)...)
		}
		r := imp(firefoxExport).Expect(t, http.StatusOK)
		if r["created"] != float64(2) || r["updated"] != float64(1) || r["unchanged"] != float64(0) || len(r["failed"].([]any)) != 2 {
			t.Fatalf("import %v", r)
		}
		if d := e.Doc(w.db, id); fmt.Sprint(d["tags"]) != "[go docs]" {
			t.Fatalf("tags added to the existing bookmark: %v", d["tags"])
		}
		var pecas map[string]any
		ex := w.ana.Do("GET", "/api/"+w.db+"/_links/export.html", nil)
		if ex.Code != http.StatusOK || !strings.HasPrefix(string(ex.Body), "<!DOCTYPE NETSCAPE-Bookmark-file-1>") {
			t.Fatalf("export %d %s", ex.Code, ex.Body)
		}
		for _, want := range []string{`HREF="https://pecas.example/bombas?id=1" ADD_DATE="1700000002" TAGS="Fornecedores">Peças bold</A>`, `Example &#34;quoted&#34; &lt;tag&gt;</A>`} {
			if !strings.Contains(string(ex.Body), want) {
				t.Errorf("export lacks %s:\n%s", want, ex.Body)
			}
		}
		if strings.Contains(string(ex.Body), "javascript") || strings.Contains(string(ex.Body), "Toolbar") {
			t.Fatalf("export %s", ex.Body)
		}
		_ = pecas
		// Importing the same file, or our export, writes nothing.
		e.Unchanged(w.db, func() {
			if r := imp(firefoxExport).Expect(t, http.StatusOK); r["created"] != float64(0) || r["updated"] != float64(0) || r["unchanged"] != float64(3) {
				t.Fatalf("re-import %v", r)
			}
			if r := imp(string(ex.Body)).Expect(t, http.StatusOK); r["created"] != float64(0) || r["unchanged"] != float64(3) {
				t.Fatalf("export re-imported %v", r)
			}
		})
		// Into another Group, the export recreates the same bookmarks.
		r2 := w.zed.Do("POST", "/api/"+w.other+"/_links/import", ex.Body, "Content-Type", "text/html").Expect(t, http.StatusOK)
		if r2["created"] != float64(3) {
			t.Fatalf("import of the export %v", r2)
		}
		ex2 := w.zed.Do("GET", "/api/"+w.other+"/_links/export.html", nil)
		lines := func(b []byte) []string {
			var out []string
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Contains(l, "<DT>") {
					out = append(out, l[strings.Index(l, "HREF"):strings.Index(l, "ADD_DATE")])
				}
			}
			slices.Sort(out)
			return out
		}
		if !slices.Equal(lines(ex.Body), lines(ex2.Body)) {
			t.Fatalf("round trip:\n%s\n%s", ex.Body, ex2.Body)
		}
		// Hostile files.
		e.Unchanged(w.db, func() {
			imp("not a bookmark file").ExpectError(t, http.StatusBadRequest, "This is not a bookmark file")
			imp("\xff\xfe<DT>").ExpectError(t, http.StatusBadRequest, "UTF-8")
			imp("<!DOCTYPE NETSCAPE-Bookmark-file-1>"+strings.Repeat("<DL><p>", 100)).ExpectError(t, http.StatusBadRequest, "nests folders too deeply")
			imp(strings.Repeat("x", 6<<20)).ExpectError(t, http.StatusRequestEntityTooLarge, "")
			var many strings.Builder
			many.WriteString("<!DOCTYPE NETSCAPE-Bookmark-file-1><DL>")
			for i := range 10_001 {
				fmt.Fprintf(&many, "<DT><A HREF=\"https://x.example/%d\">%d</A>\n", i, i)
			}
			imp(many.String()).ExpectError(t, http.StatusRequestEntityTooLarge, "more than 10000 links")
		})
		// Oversized fields are reported per link, the rest imported.
		long := "<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><DT><A HREF=\"https://x.example/" + strings.Repeat("a", 3000) + "\">long</A><DT><A HREF=\"https://ok.example/\" TAGS=\"" + strings.Repeat("t,", 200) + "\">" + strings.Repeat("T", 900) + "</A></DL>"
		r = imp(long).Expect(t, http.StatusOK)
		if r["created"] != float64(1) || len(r["failed"].([]any)) != 1 || !strings.Contains(fmt.Sprint(r["failed"]), "url: is too long") {
			t.Fatalf("import of long fields %v", r)
		}
	})
}
