package ticket

import "github.com/oficina/oficina/shared/schema"

// Klasses of the desk.
const (
	KlassCategory  = "Category"
	KlassCustomer  = "Customer"
	KlassEquipment = "Equipment"
	KlassChecklist = "TicketChecklist"
	KlassComment   = "Comment"
	KlassContract  = "Contract"
)

// Ticket enums (SPEC.md §4).
var (
	Statuses   = []string{"open", "block", "doing", "review", "done", "cancel"}
	Priorities = []string{"low", "medium", "high"}
	Kinds      = []string{"chore", "bug", "story"}
)

// Limits of the desk's lists.
const (
	maxChecklistItems = 100
	maxChecklistText  = 200
	maxCommentText    = 10_000
	titleRunes        = 60
)

var phoneFields = []schema.Field{
	{Name: "number", Type: schema.String, Required: true, Max: 40},
	{Name: "description", Type: schema.String, Max: 100},
	{Name: "main", Type: schema.Bool},
}

var addressFields = []schema.Field{
	{Name: "description", Type: schema.String, Max: 100},
	{Name: "zip_code", Type: schema.String, Max: 20},
	{Name: "street", Type: schema.String, Max: 200},
	{Name: "number", Type: schema.String, Max: 20},
	{Name: "neighborhood", Type: schema.String, Max: 100},
	{Name: "complement", Type: schema.String, Max: 100},
	{Name: "city", Type: schema.String, Max: 100},
	{Name: "state", Type: schema.String, Max: 100},
	{Name: "main", Type: schema.Bool},
}

// schemas are the field rules of the desk's klasses (SPEC.md §3), checked
// on every write route before the klass rules in rules.go.
var schemas = []schema.Klass{
	{Name: KlassTicket, Fields: []schema.Field{
		{Name: "number", Type: schema.Int, ReadOnly: true},
		{Name: "title", Type: schema.String, ReadOnly: true},
		{Name: "content", Type: schema.Text, Required: true, Max: 20_000},
		{Name: "problem", Type: schema.Text, Max: 20_000},
		{Name: "status", Type: schema.Enum, Enum: Statuses, Default: "open"},
		{Name: "priority", Type: schema.Enum, Enum: Priorities, Default: "medium"},
		{Name: "ticket_kind", Type: schema.Enum, Enum: Kinds, Default: "bug"},
		{Name: "category_id", Type: schema.Ref, Ref: KlassCategory},
		{Name: "customer_id", Type: schema.Ref, Ref: KlassCustomer},
		{Name: "equipment_id", Type: schema.Ref, Ref: KlassEquipment},
		{Name: "contract_id", Type: schema.Ref, Ref: KlassContract},
		{Name: "technical_id", Type: schema.Member},
		{Name: "reviewer_id", Type: schema.Member},
		{Name: "equipment_observation", Type: schema.Text, Max: 20_000},
		// The date the shop expects to deliver (the status page shows it).
		{Name: "estimation", Type: schema.Date},
		{Name: "relate_equipment_to_customer", Type: schema.Bool},
		// Checklist progress, kept by the server from the ticket's checklist.
		{Name: "checklist", Type: schema.Object, ReadOnly: true},
		// When status last changed, kept by the server (board card age, status page).
		{Name: "status_at", Type: schema.DateTime, ReadOnly: true},
	}},
	{Name: KlassCategory, Fields: []schema.Field{
		{Name: "name", Type: schema.String, Required: true, Max: 100},
		{Name: "label", Type: schema.String, Max: 100},
		{Name: "color", Type: schema.Color, Default: "#64748b"},
		{Name: "active", Type: schema.Bool, Default: true},
		// One checklist item per line.
		{Name: "checklist", Type: schema.Text, Max: maxChecklistItems * (maxChecklistText + 1)},
	}},
	{Name: KlassCustomer, Fields: []schema.Field{
		{Name: "name", Type: schema.String, Required: true},
		{Name: "short_name", Type: schema.String, Max: 60},
		{Name: "email", Type: schema.Email},
		{Name: "site", Type: schema.URL},
		{Name: "company_name", Type: schema.String},
		{Name: "job_title", Type: schema.String, Max: 100},
		// The individual-document fields SPEC §3 marks deprecated stay optional.
		{Name: "born_at", Type: schema.Date},
		{Name: "gender", Type: schema.String, Max: 40},
		{Name: "ocupation", Type: schema.String, Max: 100},
		{Name: "cnpj", Type: schema.String, Max: 40},
		{Name: "cpf", Type: schema.String, Max: 40},
		{Name: "document", Type: schema.String, Max: 40},
		{Name: "document_at", Type: schema.Date},
		{Name: "document_local", Type: schema.String, Max: 100},
		{Name: "document_service", Type: schema.String, Max: 100},
		{Name: "state_registration", Type: schema.String, Max: 40},
		{Name: "municipal_registration", Type: schema.String, Max: 40},
		{Name: "notes", Type: schema.Text},
		{Name: "phones", Type: schema.Items, Max: 20, Items: phoneFields},
		{Name: "addresses", Type: schema.Items, Max: 20, Items: addressFields},
	}},
	{Name: KlassEquipment, Fields: []schema.Field{
		{Name: "identifier", Type: schema.String, Required: true, Max: 100},
		{Name: "description", Type: schema.Text, Max: 10_000},
		{Name: "maker", Type: schema.String, Max: 100},
		{Name: "customer_id", Type: schema.Ref, Ref: KlassCustomer},
		{Name: "customer_identifier", Type: schema.String, Max: 100},
		{Name: "location", Type: schema.String, Max: 200},
		// Lower-case words of the fields above, kept by the server for lookup.
		{Name: "search", Type: schema.Text, ReadOnly: true},
	}},
	{Name: KlassChecklist, Fields: []schema.Field{
		{Name: "ticket", Type: schema.Ref, Ref: KlassTicket, Required: true},
		{Name: "category_id", Type: schema.Ref, Ref: KlassCategory},
		{Name: "payload", Type: schema.Items, Max: maxChecklistItems, Items: []schema.Field{
			{Name: "text", Type: schema.String, Required: true, Max: maxChecklistText},
			{Name: "done", Type: schema.Bool, Default: false},
		}},
	}},
	{Name: KlassComment, Fields: []schema.Field{
		{Name: "content", Type: schema.Text, Required: true, Max: maxCommentText},
		{Name: "item_id", Type: schema.String, Required: true, Max: 40},
		{Name: "item_type", Type: schema.String, ReadOnly: true},
		{Name: "date", Type: schema.DateTime, ReadOnly: true},
		{Name: "user", Type: schema.Object, ReadOnly: true},
	}},
}
