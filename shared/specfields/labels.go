package specfields

import "github.com/oficina/oficina/shared/module"

// Labels name the klasses kept here in the timeline and History.
var Labels = []module.Labels{
	{Klass: "ContractItem", Name: module.L("Contract clause", "Cláusula de contrato"),
		Fields: map[string]module.Label{
			"content": module.L("Text", "Texto"),
			"number":  module.L("Number", "Número"),
		}},
}
