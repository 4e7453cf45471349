// Package specfields holds the SPEC.md §3 field rules of the klasses whose
// module has not landed yet (ContractItem records, which the service
// documents keep inside their Contract; the wiki, shared/wiki, has taken
// Handbook over), so the record kit's generic screens and every write route
// refuse a blank name, an unknown enum value, a negative amount or a
// reference to another Group's record with the same 422 field errors a
// module gives. A module that takes a klass over removes it from Klasses
// and declares its own schema.
package specfields

import (
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/schema"
)

// Module registers the field rules; it has no handlers, views or jobs.
type Module struct{}

// Register implements module.Module.
func (m Module) Register(r *module.Registry) error {
	m.RegisterWrites(r)
	return nil
}

// RegisterWrites implements module.WritePath: the schemas.
func (Module) RegisterWrites(r *module.Registry) {
	r.Schema(Klasses...)
	r.Labels(Labels...)
}

// Klasses are the rules, one per klass (SPEC.md §3 fields, §5 rules).
var Klasses = []schema.Klass{
	{Name: "ContractItem", Fields: []schema.Field{
		{Name: "content", Type: schema.Text, Required: true, Max: 10_000},
		{Name: "number", Type: schema.Int, Min: schema.Int64(1)},
	}},
}

// Name implements module.Module.
func (Module) Name() string { return "specfields" }
