package module

import (
	"slices"
	"testing"
)

func TestLabelsMergeAndRefuseMistakes(t *testing.T) {
	r := &Registry{}
	r.Labels(Labels{Klass: "Ticket", Name: L("Ticket", "Chamado"), Fields: map[string]Label{"status": L("Status", "Situação")}, Internal: []string{"title"}})
	// Another module adds its own fields to the klass.
	r.Labels(Labels{Klass: "Ticket", Internal: []string{"status_token"}})
	r.Actor(Actor{ID: "_reader", Name: L("Feed reader", "Leitor de feeds")})
	v := r.Vocabulary()
	if w := v.Klasses["Ticket"]; w.Name.PtBR != "Chamado" || w.Fields["status"].PtBR != "Situação" || !slices.Equal(w.Internal, []string{"status_token", "title"}) {
		t.Fatalf("Ticket = %+v", w)
	}
	if v.Actors["_reader"].En != "Feed reader" {
		t.Fatalf("actors = %+v", v.Actors)
	}
	for name, declare := range map[string]func(){
		"a field declared twice": func() { r.Labels(Labels{Klass: "Ticket", Internal: []string{"status"}}) },
		"labelled and internal": func() {
			r.Labels(Labels{Klass: "X", Name: L("X", "X"), Fields: map[string]Label{"a": L("A", "A")}, Internal: []string{"a"}})
		},
		"a label missing pt-BR":          func() { r.Labels(Labels{Klass: "Y", Name: L("Y", "Y"), Fields: map[string]Label{"a": {En: "A"}}}) },
		"the klass named twice":          func() { r.Labels(Labels{Klass: "Ticket", Name: L("Job", "Serviço")}) },
		"an actor that is not a process": func() { r.Actor(Actor{ID: "usr-1", Name: L("Ana", "Ana")}) },
		"an actor named twice":           func() { r.Actor(Actor{ID: "_reader", Name: L("Reader", "Leitor")}) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			declare()
		})
	}
}
