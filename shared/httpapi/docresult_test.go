package httpapi

import (
	"net/http/httptest"
	"testing"

	"github.com/oficina/oficina/shared/httpjson"
	"github.com/oficina/oficina/shared/store"
)

// TestDocResultBytes: a write's answer is byte for byte what the map it
// replaced encoded to, headers included.
func TestDocResultBytes(t *testing.T) {
	for _, d := range []store.Doc{
		{ID: "cus-0123456789abcdef0123456789abcdef", Rev: "2-0123456789abcdef0123456789abcdef"},
		{ID: `a"<&>`, Rev: "1-\u2028é"},
		{},
	} {
		got, want := httptest.NewRecorder(), httptest.NewRecorder()
		if err := writeDocResult(got, 201, d); err != nil {
			t.Fatal(err)
		}
		want.Header().Set("ETag", `"`+d.Rev+`"`)
		httpjson.Write(want, 201, map[string]any{"ok": true, "id": d.ID, "rev": d.Rev})
		if got.Body.String() != want.Body.String() || got.Code != want.Code {
			t.Errorf("%+v: %d %s, want %d %s", d, got.Code, got.Body, want.Code, want.Body)
		}
		for _, h := range []string{"ETag", "Content-Type", "Cache-Control"} {
			if got.Header().Get(h) != want.Header().Get(h) {
				t.Errorf("%s: %q, want %q", h, got.Header().Get(h), want.Header().Get(h))
			}
		}
	}
}
