package wiki_test

import (
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// wk is one product with two Groups: Ana's (db) and Zed's (other).
type wk struct {
	e         *apptest.Env
	ana, zed  *apptest.Client
	db, other string
}

func newWiki(t *testing.T, e *apptest.Env) *wk {
	w := &wk{e: e}
	w.ana, w.zed = e.SignUp("ana@example.com"), e.SignUp("zed@example.com")
	w.db, w.other = e.Group(w.ana, "Oficina da Ana"), e.Group(w.zed, "Zed Reparos")
	return w
}

// page creates a page in Ana's Group.
func (w *wk) page(t *testing.T, title, content string, extra ...any) string {
	t.Helper()
	body := map[string]any{"klass": "Handbook", "title": title, "content": content}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	return w.ana.Do("POST", "/api/"+w.db, body).Expect(t, http.StatusCreated)["id"].(string)
}

// edit changes fields of a page (read, change, PUT).
func (w *wk) edit(t *testing.T, id string, kv ...any) apptest.Response {
	t.Helper()
	d := w.e.Doc(w.db, id)
	if d == nil {
		t.Fatalf("page %s is gone", id)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		d[kv[i].(string)] = kv[i+1]
	}
	return w.ana.Do("PUT", "/api/"+w.db+"/"+id, d)
}

func (w *wk) del(t *testing.T, id string) {
	t.Helper()
	d := w.e.Doc(w.db, id)
	w.ana.Do("DELETE", "/api/"+w.db+"/"+id+"?rev="+d["_rev"].(string), nil).Expect(t, http.StatusOK)
}

// view reads a page's rendering route.
func (w *wk) view(t *testing.T, id string) map[string]any {
	t.Helper()
	return w.ana.Do("GET", "/api/"+w.db+"/_wiki/pages/"+id+"/html", nil).Expect(t, http.StatusOK)
}

// refIDs are the ids of a [{id,title}] list, sorted.
func refIDs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	sort.Strings(out)
	return out
}

func strList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

func q(s string) string { return url.QueryEscape(s) }
