package module

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/oficina/oficina/shared/schema"
)

// Label is a text a person reads, in each language of the product.
type Label struct {
	En   string `json:"en"`
	PtBR string `json:"pt-BR"`
}

// L is a Label: L("Title", "Título").
func L(en, ptBR string) Label { return Label{En: en, PtBR: ptBR} }

// Labels is how people read a klass's records where the product speaks of
// them in general — the timeline's change cards and a record's History:
// the klass's name, the label of each field a person may read about, and
// the fields kept for the server's or the screens' own use, which are never
// named. A field in neither list is never named either, so a new internal
// field cannot leak into a change card; the declaration test asks for every
// schema field to be in one of the two.
type Labels struct {
	Klass    string
	Name     Label
	Fields   map[string]Label
	Internal []string
}

// Actor names a process that writes records (the feed reader, the wiki's
// link keeper…) by the id its writes are stamped with ("_reader"), so a card
// says "by Feed reader" instead of the module's code.
type Actor struct {
	ID   string
	Name Label
}

// Labels declares how people read a klass's records. A module that adds
// fields to another module's klass (the service documents' status page
// token on a Ticket) declares them in a Labels of its own without a Name; a
// field is declared once. Fields both labelled and internal, or labels
// missing a language, are wiring mistakes and panic.
func (r *Registry) Labels(ls ...Labels) {
	for _, l := range ls {
		r.addLabels(l)
	}
}

func (r *Registry) addLabels(l Labels) {
	if l.Klass == "" || (l.Name != Label{} && (l.Name.En == "" || l.Name.PtBR == "")) {
		panic("module: labels need a klass, and a name in every language")
	}
	if r.labels == nil {
		r.labels = map[string]Labels{}
	}
	have := r.labels[l.Klass]
	if have.Klass == "" {
		have = Labels{Klass: l.Klass, Fields: map[string]Label{}}
	}
	if l.Name != (Label{}) {
		if have.Name != (Label{}) {
			panic("module: the name of " + l.Klass + " declared twice")
		}
		have.Name = l.Name
	}
	declared := func(f string) bool { _, ok := have.Fields[f]; return ok || slices.Contains(have.Internal, f) }
	for f, lb := range l.Fields {
		if lb.En == "" || lb.PtBR == "" {
			panic(fmt.Sprintf("module: label of %s.%s needs every language", l.Klass, f))
		}
		if slices.Contains(l.Internal, f) || declared(f) {
			panic(fmt.Sprintf("module: %s.%s declared twice", l.Klass, f))
		}
		have.Fields[f] = lb
	}
	for _, f := range l.Internal {
		if declared(f) {
			panic(fmt.Sprintf("module: %s.%s declared twice", l.Klass, f))
		}
		have.Internal = append(have.Internal, f)
	}
	r.labels[l.Klass] = have
}

// Actor names a process that writes records.
func (r *Registry) Actor(a Actor) {
	if !strings.HasPrefix(a.ID, "_") || a.Name.En == "" || a.Name.PtBR == "" {
		panic("module: an actor needs an id starting with _ and its name in every language")
	}
	if r.actors == nil {
		r.actors = map[string]Label{}
	}
	if _, dup := r.actors[a.ID]; dup {
		panic("module: actor " + a.ID + " declared twice")
	}
	r.actors[a.ID] = a.Name
}

// KlassWords is one klass in the Vocabulary.
type KlassWords struct {
	Name     Label            `json:"name"`
	Fields   map[string]Label `json:"fields"`
	Internal []string         `json:"internal"`
}

// Vocabulary is every declaration, as GET /api/_labels serves it.
type Vocabulary struct {
	Klasses map[string]KlassWords `json:"klasses"`
	Actors  map[string]Label      `json:"actors"`
}

// Vocabulary returns what the modules declared.
func (r *Registry) Vocabulary() Vocabulary {
	v := Vocabulary{Klasses: map[string]KlassWords{}, Actors: maps.Clone(r.actors)}
	if v.Actors == nil {
		v.Actors = map[string]Label{}
	}
	for k, l := range r.labels {
		internal := slices.Clone(l.Internal)
		slices.Sort(internal)
		if internal == nil {
			internal = []string{}
		}
		fields := maps.Clone(l.Fields)
		if fields == nil {
			fields = map[string]Label{}
		}
		v.Klasses[k] = KlassWords{Name: l.Name, Fields: fields, Internal: internal}
	}
	return v
}

// Schemas lists the registered field schemas (the declaration and
// write-path tests walk them).
func (r *Registry) Schemas() []schema.Klass { return slices.Clone(r.schemas) }

// SchemaFields lists the fields of each klass's registered schema, for the
// declaration test (every field labelled or internal).
func (r *Registry) SchemaFields() map[string][]string {
	out := map[string][]string{}
	for _, k := range r.schemas {
		for _, f := range k.Fields {
			if !slices.Contains(out[k.Name], f.Name) {
				out[k.Name] = append(out[k.Name], f.Name)
			}
		}
	}
	return out
}
