package ticket

import "github.com/oficina/oficina/shared/module"

// labels are how the timeline and History name the desk's records and
// fields (issue 22 item 9); fields kept for the server's own use are
// internal and never named.
var labels = []module.Labels{
	{Klass: KlassTicket, Name: module.L("Ticket", "Chamado"),
		Fields: map[string]module.Label{
			"number":                module.L("Number", "Número"),
			"content":               module.L("Problem reported", "Defeito relatado"),
			"problem":               module.L("Problem found", "Defeito constatado"),
			"status":                module.L("Status", "Situação"),
			"priority":              module.L("Priority", "Prioridade"),
			"ticket_kind":           module.L("Kind", "Tipo"),
			"category_id":           module.L("Category", "Categoria"),
			"customer_id":           module.L("Customer", "Cliente"),
			"equipment_id":          module.L("Equipment", "Equipamento"),
			"contract_id":           module.L("Contract", "Contrato"),
			"technical_id":          module.L("Technician", "Técnico"),
			"reviewer_id":           module.L("Reviewer", "Revisor"),
			"equipment_observation": module.L("Equipment notes", "Observações do equipamento"),
			"estimation":            module.L("Expected by", "Previsão de entrega"),
		},
		// The title is the problem's first line; the rest is kept by the server.
		Internal: []string{"title", "checklist", "status_at", "relate_equipment_to_customer"}},
	{Klass: KlassCategory, Name: module.L("Category", "Categoria"),
		Fields: map[string]module.Label{
			"name":      module.L("Name", "Nome"),
			"color":     module.L("Colour", "Cor"),
			"active":    module.L("Active", "Ativa"),
			"checklist": module.L("Checklist", "Checklist"),
		},
		Internal: []string{"label"}},
	{Klass: KlassCustomer, Name: module.L("Customer", "Cliente"),
		Fields: map[string]module.Label{
			"name":                   module.L("Name", "Nome"),
			"short_name":             module.L("Short name", "Nome curto"),
			"email":                  module.L("E-mail", "E-mail"),
			"site":                   module.L("Website", "Site"),
			"company_name":           module.L("Company", "Empresa"),
			"job_title":              module.L("Job title", "Cargo"),
			"born_at":                module.L("Date of birth", "Data de nascimento"),
			"gender":                 module.L("Gender", "Gênero"),
			"ocupation":              module.L("Occupation", "Profissão"),
			"cnpj":                   module.L("CNPJ", "CNPJ"),
			"cpf":                    module.L("CPF", "CPF"),
			"document":               module.L("ID document", "RG"),
			"document_at":            module.L("ID issued on", "RG emitido em"),
			"document_local":         module.L("ID issued in", "RG emitido em (local)"),
			"document_service":       module.L("ID issued by", "Órgão emissor do RG"),
			"state_registration":     module.L("State registration", "Inscrição estadual"),
			"municipal_registration": module.L("Municipal registration", "Inscrição municipal"),
			"notes":                  module.L("Notes", "Observações"),
			"phones":                 module.L("Phones", "Telefones"),
			"addresses":              module.L("Addresses", "Endereços"),
		},
		Internal: []string{"label", "search"}},
	{Klass: KlassEquipment, Name: module.L("Equipment", "Equipamento"),
		Fields: map[string]module.Label{
			"identifier":          module.L("Identifier", "Identificador"),
			"description":         module.L("Description", "Descrição"),
			"maker":               module.L("Maker", "Fabricante"),
			"customer_id":         module.L("Customer", "Cliente"),
			"customer_identifier": module.L("Customer's reference", "Referência do cliente"),
			"location":            module.L("Location", "Localização"),
		},
		Internal: []string{"label", "search"}},
	{Klass: KlassChecklist, Name: module.L("Checklist", "Checklist"),
		Fields: map[string]module.Label{
			"payload":     module.L("Items", "Itens"),
			"category_id": module.L("Category", "Categoria"),
		},
		Internal: []string{"ticket"}},
	{Klass: KlassComment, Name: module.L("Comment", "Comentário"),
		Fields:   map[string]module.Label{"content": module.L("Text", "Texto")},
		Internal: []string{"item_id", "item_type", "date", "user"}},
}
