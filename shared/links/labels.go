package links

import "github.com/oficina/oficina/shared/module"

// labels are how the timeline and History name the links app's bookmarks
// (issue 22 item 9).
var labels = module.Labels{Klass: KlassBookmark, Name: module.L("Link", "Link"),
	Fields: map[string]module.Label{
		"url":         module.L("Address", "Endereço"),
		"title":       module.L("Title", "Título"),
		"description": module.L("Description", "Descrição"),
		"tags":        module.L("Tags", "Etiquetas"),
		"starred":     module.L("Starred", "Favorito"),
	},
	Internal: []string{"label", "added_at"}}
