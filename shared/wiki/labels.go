package wiki

import "github.com/oficina/oficina/shared/module"

// labels are how the timeline and History name the wiki's pages (issue
// 22 item 9). What the server keeps about
// links between pages is internal.
var labels = []module.Labels{
	{Klass: KlassHandbook, Name: module.L("Wiki page", "Página do wiki"),
		Fields: map[string]module.Label{
			"title":        module.L("Title", "Título"),
			"content":      module.L("Text", "Texto"),
			"content_type": module.L("Format", "Formato"),
			"categories":   module.L("Categories", "Categorias"),
			"uri":          module.L("Link", "Link"),
			"fields":       module.L("Fields", "Campos"),
		},
		Internal: []string{"label", "value_for", "links", "link_targets", "wanted", "title_history", "linked_by"}},
}
