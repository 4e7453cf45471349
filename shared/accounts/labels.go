package accounts

import "github.com/oficina/oficina/shared/module"

// labels are how the timeline and History name memberships and settings
// (issue 22 item 9). A membership's mirror and bookkeeping are internal.
var labels = []module.Labels{
	{Klass: KlassMembership, Name: module.L("Member", "Membro"),
		Fields: map[string]module.Label{
			"email":       module.L("E-mail", "E-mail"),
			"editor":      module.L("Administrator", "Administrador"),
			"report_view": module.L("Sees reports", "Vê relatórios"),
			"status":      module.L("Invitation", "Convite"),
			"bookmark":    module.L("Bookmarked", "Favorito"),
		},
		Internal: []string{"admin", "user_id", "user", "db_name", "name", "created_by_id", "membership_id", "pending", "confirmed-plan", "label"}},
	{Klass: KlassAdjustment, Name: module.L("Setting", "Configuração"),
		Fields:   map[string]module.Label{"value": module.L("Value", "Valor")},
		Internal: []string{"key", "label"}},
}
