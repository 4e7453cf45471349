// Package specfields holds the SPEC.md §3 field rules of the klasses whose
// module has not landed yet (finance, wiki; ContractItem records, which
// the service documents keep inside their Contract), so the
// record kit's generic screens and every write route refuse a blank name,
// an unknown enum value, a negative amount, an unknown currency or a
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
func (Module) Register(r *module.Registry) error {
	for _, k := range Klasses {
		r.Schema(k)
	}
	return nil
}

var (
	zero        = schema.Int64(0)
	maxMoney    = schema.Int64(1_000_000_000_000_00) // a trillion in cents: beyond any shop's books, inside float64's exact range
	feeKinds    = []string{"source", "destination"}
	mapTargets  = []string{"exchange", "income", "outgo", "transfer"}
	mapFields   = []string{"description", "third_party", "categories"}
	mapWatches  = []string{"contains", "ends_with", "equals", "starts_with"}
	mapChanges  = []string{"replace", "append", "prepend"}
	contentType = []string{"text", "html", "markdown"}
)

func money(name string) schema.Field {
	return schema.Field{Name: name, Type: schema.Money, Min: zero, MaxValue: maxMoney}
}

// moneyRecord is what incomes, expenses, transfers and exchanges share.
func moneyRecord(extra ...schema.Field) []schema.Field {
	return append([]schema.Field{
		{Name: "description", Type: schema.String, Required: true},
		{Name: "posted_at", Type: schema.Date},
		{Name: "confirmed", Type: schema.Bool, Default: false},
		{Name: "imported", Type: schema.Bool},
		{Name: "categories", Type: schema.Tags},
	}, extra...)
}

// Klasses are the rules, one per klass (SPEC.md §3 fields, §5 rules).
var Klasses = []schema.Klass{
	{Name: "Wallet", Fields: []schema.Field{
		{Name: "name", Type: schema.String, Required: true, Max: 100},
		{Name: "label", Type: schema.String, Max: 100},
		{Name: "active", Type: schema.Bool, Default: true},
		{Name: "card", Type: schema.Bool, Default: false},
		{Name: "currency", Type: schema.Currency, Required: true},
		{Name: "precision", Type: schema.Int, Min: zero, MaxValue: schema.Int64(4), Default: 2},
		{Name: "start_balance", Type: schema.Money}, // may be negative: an account opened overdrawn
		money("card_limit"),
	}},
	{Name: "Income", Fields: moneyRecord(
		money("value"),
		schema.Field{Name: "paid_by", Type: schema.String},
		schema.Field{Name: "wallet_id", Type: schema.Ref, Ref: "Wallet", Required: true},
	)},
	{Name: "Outgo", Fields: moneyRecord(
		money("value"),
		schema.Field{Name: "paid_to", Type: schema.String},
		schema.Field{Name: "wallet_id", Type: schema.Ref, Ref: "Wallet", Required: true},
	)},
	{Name: "Transfer", Fields: moneyRecord(
		money("value"),
		money("fee"),
		schema.Field{Name: "fee_kind", Type: schema.Enum, Enum: feeKinds},
		schema.Field{Name: "source_wallet_id", Type: schema.Ref, Ref: "Wallet", Required: true},
		schema.Field{Name: "destination_wallet_id", Type: schema.Ref, Ref: "Wallet", Required: true},
	)},
	{Name: "Exchange", Fields: moneyRecord(
		money("value_in"),
		money("value_out"),
		money("fee"),
		schema.Field{Name: "fee_kind", Type: schema.Enum, Enum: feeKinds},
		schema.Field{Name: "paid_to", Type: schema.String},
		schema.Field{Name: "source_wallet_id", Type: schema.Ref, Ref: "Wallet", Required: true},
		schema.Field{Name: "destination_wallet_id", Type: schema.Ref, Ref: "Wallet", Required: true},
	)},
	{Name: "Mapping", Fields: []schema.Field{
		{Name: "description", Type: schema.String, Required: true},
		{Name: "active", Type: schema.Bool, Default: true},
		{Name: "order", Type: schema.Int, Min: zero},
		{Name: "number", Type: schema.Int, Min: zero},
		{Name: "target", Type: schema.Enum, Enum: mapTargets, Required: true},
		{Name: "field_to_watch", Type: schema.Enum, Enum: mapFields, Required: true},
		{Name: "kind_of_watch", Type: schema.Enum, Enum: mapWatches, Required: true},
		{Name: "text_to_match", Type: schema.String, Required: true},
		{Name: "kind_of_change", Type: schema.Enum, Enum: mapChanges, Required: true},
		{Name: "field_to_change", Type: schema.Enum, Enum: mapFields, Required: true},
		{Name: "text_to_change", Type: schema.String},
	}},
	{Name: "Handbook", Fields: []schema.Field{
		{Name: "title", Type: schema.String, Required: true},
		{Name: "content", Type: schema.Text},
		{Name: "content_type", Type: schema.Enum, Enum: contentType, Default: "markdown"},
		{Name: "categories", Type: schema.Tags},
		{Name: "uri", Type: schema.URL},
	}},
	{Name: "ContractItem", Fields: []schema.Field{
		{Name: "content", Type: schema.Text, Required: true, Max: 10_000},
		{Name: "number", Type: schema.Int, Min: schema.Int64(1)},
	}},
}

// Name implements module.Module.
func (Module) Name() string { return "specfields" }
