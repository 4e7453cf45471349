package wiki_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
	"github.com/oficina/oficina/shared/ids"
)

// TestConflictAndVersions: two members edit one page; the stale save gets
// CouchDB's 409, the conflict route gives the current version and the
// common ancestor; versions list the earlier contents with rev, time and
// author; restoring is a PUT of an old version; at most 50 are kept.
func TestConflictAndVersions(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newWiki(t, e)
		bia := e.SignUp("bia@example.com")
		e.Join(w.ana, bia, w.db, false)
		id := w.page(t, "Procedimento", "passo 1\npasso 2\n")
		base := e.Doc(w.db, id)
		e.Drain()
		// Bia saves first.
		bd := e.Doc(w.db, id)
		bd["content"] = "passo 1\npasso 2 (Bia)\n"
		bia.Do("PUT", "/api/"+w.db+"/"+id, bd).Expect(t, http.StatusCreated)
		// Ana saves from the same base: 409, nothing written.
		ad := map[string]any{}
		for k, v := range base {
			ad[k] = v
		}
		ad["content"] = "passo 0\npasso 1\npasso 2\n"
		e.Unchanged(w.db, func() {
			w.ana.Do("PUT", "/api/"+w.db+"/"+id, ad).ExpectError(t, http.StatusConflict, "Document update conflict.")
		})
		e.Drain()
		c := w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+id+"/conflict?rev="+base["_rev"].(string), nil).Expect(t, http.StatusOK)
		cur, anc := c["current"].(map[string]any), c["ancestor"].(map[string]any)
		if c["conflict"] != true || cur["content"] != "passo 1\npasso 2 (Bia)\n" || cur["_rev"] != e.Doc(w.db, id)["_rev"] || cur["_id"] != id || cur["klass"] != "Handbook" || cur["title"] != base["title"] ||
			anc["content"] != "passo 1\npasso 2\n" || anc["rev"] != base["_rev"] || c["current_by"].(map[string]any)["_id"] != bia.ID {
			t.Fatalf("conflict answer %v", c)
		}
		if ch := c["changes"].([]any); len(ch) != 1 || ch[0].(map[string]any)["by"].(map[string]any)["_id"] != bia.ID {
			t.Fatalf("changes since the ancestor %v", c["changes"])
		}
		// The merge is saved as the SPA does: the current document with the merged text.
		cur["content"] = "passo 0\npasso 1\npasso 2 (Bia)\n"
		w.ana.Do("PUT", "/api/"+w.db+"/"+id, cur).Expect(t, http.StatusCreated)
		e.Drain()
		if got := e.Doc(w.db, id); got["content"] != cur["content"] || got["title"] != "Procedimento" || got["by"] != nil || got["at"] != nil {
			t.Fatalf("merged page %v", got)
		}
		c = w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+id+"/conflict?rev="+e.Doc(w.db, id)["_rev"].(string), nil).Expect(t, http.StatusOK)
		if c["conflict"] != false || c["ancestor"] != nil {
			t.Fatalf("no conflict at the current rev: %v", c)
		}

		v := w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+id+"/versions", nil).Expect(t, http.StatusOK)
		rows := v["versions"].([]any)
		if len(rows) != 3 || rows[0].(map[string]any)["current"] != true || rows[2].(map[string]any)["rev"] != base["_rev"] {
			t.Fatalf("versions %v", rows)
		}
		first := w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+id+"/versions/"+base["_rev"].(string), nil).Expect(t, http.StatusOK)
		if first["content"] != "passo 1\npasso 2\n" || first["by"].(map[string]any)["_id"] != w.ana.ID || first["at"] == "" {
			t.Fatalf("version %v", first)
		}
		// Restore = a normal PUT of that content.
		w.edit(t, id, "content", first["content"]).Expect(t, http.StatusCreated)
		if e.Doc(w.db, id)["content"] != "passo 1\npasso 2\n" {
			t.Fatal("not restored")
		}
		// Bounded: 55 more saves keep the newest 50.
		for i := range 55 {
			w.edit(t, id, "content", fmt.Sprintf("v%d", i)).Expect(t, http.StatusCreated)
		}
		e.Replay(3) // replays and reordering keep the list as it is
		v = w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+id+"/versions", nil).Expect(t, http.StatusOK)
		rows = v["versions"].([]any)
		if len(rows) != 50 || rows[0].(map[string]any)["rev"] != e.Doc(w.db, id)["_rev"] {
			t.Fatalf("%d versions kept, newest %v", len(rows), rows[0])
		}
		w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+id+"/versions/"+base["_rev"].(string), nil).ExpectError(t, http.StatusNotFound, "This version is not kept")
		// A deleted page keeps its versions for restoring.
		w.del(t, id)
		e.Drain()
		v = w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+id+"/versions", nil).Expect(t, http.StatusOK)
		if v["deleted"] != true || len(v["versions"].([]any)) != 50 {
			t.Fatalf("versions of a deleted page %v", v["deleted"])
		}
		// Bad input.
		for _, path := range []string{"/conflict", "/conflict?rev=abc", "/conflict?rev=1-xyz", "/versions/1-nothex"} {
			w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+w.page(t, "Outra "+path, "")+path, nil).ExpectError(t, http.StatusBadRequest, "Invalid rev format")
		}
	})
}

// TestSearchRecentExport: title matches first, accents and case folded,
// snippets marked and escaped, categories, recents (changed and viewed),
// titles for completion, export as a zip of Markdown files.
func TestSearchRecentExport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newWiki(t, e)
		a := w.page(t, "Manutenção preventiva", "Checar a bomba todo mês.", "categories", "manuais")
		b := w.page(t, "Bomba d'água", "Trocar o selo <script>alert(1)</script> da bomba e da BOMBA reserva.", "categories", "manuais, peças")
		c := w.page(t, "Compressor", "Sem relação.", "categories", "peças")
		d := w.page(t, "../../etc/passwd", "x", "categories", "peças")
		s := w.ana.Do("GET", "/api/"+w.db+"/_wiki/search?q=BOMBA", nil).Expect(t, http.StatusOK)
		rows := s["rows"].([]any)
		if s["total"] != float64(2) || rows[0].(map[string]any)["id"] != b || rows[1].(map[string]any)["id"] != a {
			t.Fatalf("search %v", s)
		}
		r0 := rows[0].(map[string]any)
		if r0["title_match"] != true || r0["title_html"] != "<mark>Bomba</mark> d&#39;água" ||
			!strings.Contains(r0["snippet"].(string), "&lt;script&gt;") || strings.Count(r0["snippet"].(string), "<mark>") != 2 {
			t.Fatalf("row %v", r0)
		}
		s = w.ana.Do("GET", "/api/"+w.db+"/_wiki/search?q=manutencao+PREVENTIVA", nil).Expect(t, http.StatusOK)
		if s["total"] != float64(1) || s["rows"].([]any)[0].(map[string]any)["title_html"] != "<mark>Manutenção</mark> <mark>preventiva</mark>" {
			t.Fatalf("accent-folded search %v", s)
		}
		s = w.ana.Do("GET", "/api/"+w.db+"/_wiki/search?q=&category=pe%C3%A7as", nil).Expect(t, http.StatusOK)
		if s["total"] != float64(3) {
			t.Fatalf("category %v", s)
		}
		for _, bad := range []string{"limit=0", "limit=101", "limit=x", "q=" + strings.Repeat("a", 1001)} {
			w.ana.Do("GET", "/api/"+w.db+"/_wiki/search?"+bad, nil).ExpectError(t, http.StatusBadRequest, "")
		}
		tl := w.ana.Do("GET", "/api/"+w.db+"/_wiki/titles?q=b", nil).Expect(t, http.StatusOK)
		if got := refIDs(tl["rows"]); !slices.Contains(got, b) || slices.Contains(got, c) {
			t.Fatalf("titles %v", got)
		}
		cats := w.ana.Do("GET", "/api/"+w.db+"/_wiki/categories", nil).Expect(t, http.StatusOK)
		if fmt.Sprint(cats["rows"]) != "[map[category:manuais count:2] map[category:peças count:3]]" {
			t.Fatalf("categories %v", cats)
		}
		w.view(t, a)
		w.edit(t, c, "content", "Mudou.").Expect(t, http.StatusCreated)
		rc := w.ana.Do("GET", "/api/"+w.db+"/_wiki/recent?limit=2", nil).Expect(t, http.StatusOK)
		if ch := refIDs(rc["changed"]); len(ch) != 2 || !slices.Contains(ch, c) {
			t.Fatalf("recently changed %v", rc["changed"])
		}
		if vw := refIDs(rc["viewed"]); len(vw) != 1 || vw[0] != a {
			t.Fatalf("recently viewed %v", rc["viewed"])
		}
		if vw := w.zed.Do("GET", "/api/"+w.other+"/_wiki/recent", nil).Expect(t, http.StatusOK)["viewed"].([]any); len(vw) != 0 {
			t.Fatalf("another user's recents %v", vw)
		}
		// Export.
		z := w.ana.Do("GET", "/api/"+w.db+"/_wiki/export.zip?category=pe%C3%A7as", nil)
		if z.Code != http.StatusOK || z.Header.Get("Content-Type") != "application/zip" {
			t.Fatalf("export %d %s", z.Code, z.Body)
		}
		zr, err := zip.NewReader(bytes.NewReader(z.Body), int64(len(z.Body)))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
			rc, _ := f.Open()
			body, _ := io.ReadAll(rc)
			if f.Name == "Bomba d_água.md" && (!strings.Contains(string(body), "title: \"Bomba d'água\"") || !strings.Contains(string(body), "Trocar o selo")) {
				t.Fatalf("file %s:\n%s", f.Name, body)
			}
		}
		slices.Sort(names)
		if fmt.Sprint(names) != "[Bomba d_água.md Compressor.md _.._etc_passwd.md]" {
			t.Fatalf("zip names %q", names)
		}
		_ = d
		w.ana.Do("GET", "/api/"+w.db+"/_wiki/export.zip?id="+ids.New("han"), nil).ExpectError(t, http.StatusNotFound, "")
	})
}

// TestOtherGroupsIDs: every route, called on Ana's Group with Zed's page
// id, answers 404 and shows nothing of Zed's.
func TestOtherGroupsIDs(t *testing.T) {
	apptest.Each(t, func(t *testing.T, e *apptest.Env) {
		w := newWiki(t, e)
		zp := w.zed.Do("POST", "/api/"+w.other, map[string]any{"klass": "Handbook", "title": "Segredo do Zed", "content": "senha 1234"}).Expect(t, http.StatusCreated)
		zid, zrev := zp["id"].(string), zp["rev"].(string)
		e.Drain()
		for _, path := range []string{"/html", "/versions", "/versions/" + zrev, "/conflict?rev=" + zrev} {
			r := w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+zid+path, nil)
			if r.Code != http.StatusNotFound || strings.Contains(string(r.Body), "Segredo") {
				t.Errorf("%s: %d %s", path, r.Code, r.Body)
			}
		}
		for _, path := range []string{"/_wiki/resolve?title=" + q("Segredo do Zed"), "/_wiki/export.zip?id=" + zid} {
			r := w.ana.Do("GET", "/api/"+w.db+path, nil)
			if r.Code != http.StatusNotFound || strings.Contains(string(r.Body), "Segredo") {
				t.Errorf("%s: %d %s", path, r.Code, r.Body)
			}
		}
		for _, path := range []string{"/_wiki/search?q=segredo", "/_wiki/titles?q=seg", "/_wiki/recent", "/_wiki/categories", "/_links/export.html"} {
			r := w.ana.Do("GET", "/api/"+w.db+path, nil)
			if r.Code != http.StatusOK || strings.Contains(string(r.Body), "Segredo") || strings.Contains(string(r.Body), zid) {
				t.Errorf("%s: %d %s", path, r.Code, r.Body)
			}
		}
		// A link to Zed's page from Ana's is no link.
		id := w.page(t, "Curiosa", fmt.Sprintf("[x](handbooks/%s) [[Segredo do Zed]]", zid))
		if d := e.Doc(w.db, id); len(strList(d["links"])) != 0 {
			t.Fatalf("links to another Group: %v", d["links"])
		}
	})
}
