package finance

import (
	"maps"

	"github.com/oficina/oficina/shared/module"
)

// moneyLabels are what incomes, expenses, transfers and exchanges share.
func moneyLabels(klass string, name module.Label, extra map[string]module.Label) module.Labels {
	fields := map[string]module.Label{
		"description": module.L("Description", "Descrição"),
		"posted_at":   module.L("Date", "Data"),
		"confirmed":   module.L("Confirmed", "Confirmado"),
		"imported":    module.L("Imported", "Importado"),
		"categories":  module.L("Categories", "Categorias"),
	}
	maps.Copy(fields, extra)
	// Where an import came from, and the wallet's currency the server copies.
	return module.Labels{Klass: klass, Name: name, Fields: fields, Internal: []string{"import_file", "import_line", "currency"}}
}

// labels are how the timeline and History name the books' records and
// fields (issue 22 item 9).
var labels = []module.Labels{
	{Klass: KlassWallet, Name: module.L("Wallet", "Carteira"),
		Fields: map[string]module.Label{
			"name":          module.L("Name", "Nome"),
			"active":        module.L("Active", "Ativa"),
			"card":          module.L("Credit card", "Cartão de crédito"),
			"currency":      module.L("Currency", "Moeda"),
			"precision":     module.L("Decimal digits", "Casas decimais"),
			"start_balance": module.L("Opening balance", "Saldo inicial"),
			"card_limit":    module.L("Card limit", "Limite do cartão"),
		},
		Internal: []string{"label"}},
	moneyLabels(KlassIncome, module.L("Revenue", "Receita"), map[string]module.Label{
		"value":     module.L("Amount", "Valor"),
		"paid_by":   module.L("Paid by", "Pago por"),
		"wallet_id": module.L("Wallet", "Carteira"),
	}),
	moneyLabels(KlassOutgo, module.L("Expense", "Despesa"), map[string]module.Label{
		"value":     module.L("Amount", "Valor"),
		"paid_to":   module.L("Paid to", "Pago a"),
		"wallet_id": module.L("Wallet", "Carteira"),
	}),
	moneyLabels(KlassTransfer, module.L("Transfer", "Transferência"), map[string]module.Label{
		"value":                 module.L("Amount", "Valor"),
		"fee":                   module.L("Fee", "Tarifa"),
		"fee_kind":              module.L("Fee charged on", "Tarifa cobrada na"),
		"source_wallet_id":      module.L("From wallet", "Carteira de origem"),
		"destination_wallet_id": module.L("To wallet", "Carteira de destino"),
	}),
	moneyLabels(KlassExchange, module.L("Exchange", "Câmbio"), map[string]module.Label{
		"value_in":              module.L("Amount received", "Valor recebido"),
		"value_out":             module.L("Amount sent", "Valor enviado"),
		"fee":                   module.L("Fee", "Tarifa"),
		"fee_kind":              module.L("Fee charged on", "Tarifa cobrada na"),
		"paid_to":               module.L("Paid to", "Pago a"),
		"source_wallet_id":      module.L("From wallet", "Carteira de origem"),
		"destination_wallet_id": module.L("To wallet", "Carteira de destino"),
	}),
	{Klass: KlassMapping, Name: module.L("Mapping rule", "Regra de mapeamento"),
		Fields: map[string]module.Label{
			"description":     module.L("Description", "Descrição"),
			"active":          module.L("Active", "Ativa"),
			"order":           module.L("Order", "Ordem"),
			"number":          module.L("Number", "Número"),
			"target":          module.L("Applies to", "Aplica-se a"),
			"field_to_watch":  module.L("Field to watch", "Campo a observar"),
			"kind_of_watch":   module.L("Match", "Comparação"),
			"text_to_match":   module.L("Text to match", "Texto a comparar"),
			"kind_of_change":  module.L("Change", "Alteração"),
			"field_to_change": module.L("Field to change", "Campo a alterar"),
			"text_to_change":  module.L("New text", "Novo texto"),
		}},
	{Klass: KlassCSV, Name: module.L("Import settings", "Configuração de importação"),
		Fields: map[string]module.Label{
			"wallet":               module.L("Wallet", "Carteira"),
			"encoding":             module.L("Character set", "Codificação"),
			"decimal":              module.L("Decimal separator", "Separador decimal"),
			"delimiter":            module.L("Column separator", "Separador de colunas"),
			"date_format":          module.L("Date format", "Formato da data"),
			"most_items_are":       module.L("Most lines are", "A maioria das linhas é"),
			"first_line_is_header": module.L("First line names the columns", "A primeira linha nomeia as colunas"),
			"ignore_line_one":      module.L("Skip the first line", "Ignorar a primeira linha"),
			"skip":                 module.L("Lines skipped", "Linhas ignoradas"),
			"columns":              module.L("Columns", "Colunas"),
		},
		Internal: []string{"headers"}},
}
