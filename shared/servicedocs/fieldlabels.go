package servicedocs

import "github.com/oficina/oficina/shared/module"

// fieldLabels are how the timeline and History name the service documents'
// records and fields (issue 22 item 9), and the fields this module keeps
// on the desk's tickets (the status page's token and history).
var fieldLabels = []module.Labels{
	{Klass: KlassEstimate, Name: module.L("Estimate", "Orçamento"),
		Fields: map[string]module.Label{
			"number":          module.L("Number", "Número"),
			"description":     module.L("Description", "Descrição"),
			"customer_id":     module.L("Customer", "Cliente"),
			"ticket_id":       module.L("Ticket", "Chamado"),
			"observation":     module.L("Notes", "Observações"),
			"valid_until":     module.L("Valid until", "Válido até"),
			"state":           module.L("Status", "Situação"),
			"items":           module.L("Items", "Itens"),
			"total":           module.L("Total", "Total"),
			"decided_by_name": module.L("Answered by", "Respondido por"),
			"decision_note":   module.L("Customer's note", "Observação do cliente"),
		},
		Internal: []string{"decided_at", "approval_token"}},
	{Klass: KlassContract, Name: module.L("Contract", "Contrato"),
		Fields: map[string]module.Label{
			"description":  module.L("Description", "Descrição"),
			"customer_id":  module.L("Customer", "Cliente"),
			"payment_kind": module.L("Payment", "Pagamento"),
			"active":       module.L("Active", "Ativo"),
			"items":        module.L("Clauses", "Cláusulas"),
		}},
	{Klass: KlassMaintenance, Name: module.L("Maintenance", "Manutenção"),
		Fields: map[string]module.Label{
			"date":             module.L("Date", "Data"),
			"next_maintenance": module.L("Next maintenance", "Próxima manutenção"),
			"category_id":      module.L("Category", "Categoria"),
			"equipment_id":     module.L("Equipment", "Equipamento"),
			"warranty":         module.L("Warranty (days)", "Garantia (dias)"),
			"ticket_id":        module.L("Ticket", "Chamado"),
		},
		Internal: []string{"warranty_until"}},
	{Klass: KlassTicket, Internal: []string{"status_token", "status_history"}},
}
