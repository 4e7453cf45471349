package app_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/app/standalone"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/module"
)

// TestEveryFieldIsLabelledOrInternal holds the modules to their word on the
// seam (issue 22 item 9): the timeline and History name only declared
// fields, so every field of every schema, and every klass a person's change
// card shows, is declared — labelled in both languages, or internal.
// openApp wires the product on a temporary embedded store.
func openApp(t *testing.T) *app.App {
	t.Helper()
	cfg, err := config.Load([]string{"--data", t.TempDir()}, func(string) string { return "" }, config.Local)
	if err != nil {
		t.Fatal(err)
	}
	a, err := standalone.Open(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func TestEveryFieldIsLabelledOrInternal(t *testing.T) {
	a := openApp(t)
	v := a.Modules.Vocabulary()
	klasses := a.Modules.SchemaFields()
	// Klasses without a schema whose records still change in front of people.
	for _, k := range []string{"Membership"} {
		if _, ok := klasses[k]; !ok {
			klasses[k] = nil
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range klasses {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range names {
		w, ok := v.Klasses[k]
		if !ok {
			t.Errorf("klass %s: no labels declared (module.Registry.Labels)", k)
			continue
		}
		if w.Name.En == "" || w.Name.PtBR == "" {
			t.Errorf("klass %s: fields declared, but no module named the klass", k)
		}
		for _, f := range klasses[k] {
			if _, labelled := w.Fields[f]; !labelled && !slices.Contains(w.Internal, f) {
				t.Errorf("%s.%s: neither labelled nor internal", k, f)
			}
		}
	}
	for _, actor := range []string{"_reader", "_wiki", "_drive", "_limits", "_billing"} {
		if _, ok := v.Actors[actor]; !ok {
			t.Errorf("actor %s: not named", actor)
		}
	}
}

// TestLabelsAreServed: GET /api/_labels answers the declarations to anyone
// (they are the product's words, not a Group's data).
func TestLabelsAreServed(t *testing.T) {
	srv := httptest.NewServer(openApp(t).API)
	t.Cleanup(srv.Close)
	res, err := http.Get(srv.URL + "/api/_labels")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v module.Vocabulary
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/_labels: %d %v", res.StatusCode, err)
	}
	for _, c := range []struct{ klass, field, en, pt string }{
		{"Ticket", "content", "Problem reported", "Defeito relatado"},
		{"CloudFile", "max_versions", "Versions kept", "Versões guardadas"},
		{"CSV", "date_format", "Date format", "Formato da data"},
		{"TicketChecklist", "payload", "Items", "Itens"},
	} {
		if got := v.Klasses[c.klass].Fields[c.field]; got.En != c.en || got.PtBR != c.pt {
			t.Errorf("%s.%s = %+v, want %q / %q", c.klass, c.field, got, c.en, c.pt)
		}
	}
	for _, c := range []struct{ klass, field string }{
		{"Comment", "item_id"}, {"Comment", "item_type"}, {"CloudFile", "attachment_key"}, {"CloudFile", "fullpath"},
		{"CloudFile", "stage"}, {"CloudFile", "bytes"}, {"Handbook", "link_targets"}, {"Handbook", "wanted"},
		{"Handbook", "title_history"}, {"Income", "import_file"}, {"Income", "import_line"},
	} {
		if !slices.Contains(v.Klasses[c.klass].Internal, c.field) {
			t.Errorf("%s.%s is not internal", c.klass, c.field)
		}
	}
	if got := v.Actors["_reader"]; got.En != "Feed reader" || got.PtBR == "" {
		t.Errorf("the feed reader is named %+v", got)
	}
	if got := v.Klasses["Bookmark"].Name.PtBR; got == "" || got == "Bookmark" {
		t.Errorf("Bookmark in pt-BR is %q", got)
	}
}
