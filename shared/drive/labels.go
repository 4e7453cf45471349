package drive

import "github.com/oficina/oficina/shared/module"

// labels are how the timeline and History name the drive's files (issue
// 22 item 9). Where the bytes are kept and how an upload is going are
// internal; a new version reads as the content having changed.
var labels = module.Labels{Klass: Klass, Name: module.L("File", "Arquivo"),
	Fields: map[string]module.Label{
		"name":         module.L("Name", "Nome"),
		"dir_id":       module.L("Folder", "Pasta"),
		"description":  module.L("Description", "Descrição"),
		"color":        module.L("Colour", "Cor"),
		"starred":      module.L("Starred", "Favorito"),
		"max_versions": module.L("Versions kept", "Versões guardadas"),
		"versions":     module.L("Content", "Conteúdo"),
		"size":         module.L("Size", "Tamanho"),
	},
	Internal: []string{"kind", "stage", "move_destination", "attachment_key", "external_key", "fullpath", "bytes",
		"content_type", "record_id", "trashed_at", "trashed_with", "webdav_link"}}
