package reader

import "github.com/oficina/oficina/shared/module"

// labels are how the timeline and History name the feed reader's records
// (issue 22 item 9). What the fetcher keeps to read a feed again is internal.
var labels = []module.Labels{
	{Klass: KlassItem, Name: module.L("Feed item", "Item do feed"),
		Fields: map[string]module.Label{
			"url":        module.L("Address", "Endereço"),
			"title":      module.L("Title", "Título"),
			"content":    module.L("Content", "Conteúdo"),
			"summary":    module.L("Summary", "Resumo"),
			"author":     module.L("Author", "Autor"),
			"read":       module.L("Read", "Lido"),
			"starred":    module.L("Starred", "Favorito"),
			"posted_at":  module.L("Published", "Publicado em"),
			"enclosures": module.L("Episode files", "Arquivos do episódio"),
		},
		Internal: []string{"content_type", "reader_subscription_id", "reader_subscription", "reader_label_ids", "content_loaded", "has_content"}},
	{Klass: KlassLabel, Name: module.L("Feed label", "Marcador de feed"),
		Fields: map[string]module.Label{
			"name": module.L("Name", "Nome"),
			"kind": module.L("Kind", "Tipo"),
		},
		Internal: []string{"label"}},
	{Klass: KlassSubscription, Name: module.L("Feed", "Feed"),
		Fields: map[string]module.Label{
			"url":              module.L("Feed address", "Endereço do feed"),
			"website_url":      module.L("Website", "Site"),
			"title":            module.L("Title", "Título"),
			"customize_title":  module.L("Own title", "Título próprio"),
			"active":           module.L("Active", "Ativo"),
			"reader_label_ids": module.L("Labels", "Marcadores"),
			"refresh_interval": module.L("Read every", "Ler a cada"),
		},
		Internal: []string{"label", "reader_label_id", "fetch_status", "fetch_error"}},
}
