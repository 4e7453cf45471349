package accounts

import (
	"net/http"

	"github.com/oficina/oficina/shared/module"
)

// APIDocs implements module.Documented.
func (s *Service) APIDocs() module.Docs {
	mem := module.ExampleID("mem")
	own := []module.Param{{Name: "db", About: "the caller's own database, usr-<32 hex>", Example: module.ExampleUserDB}}
	docs := module.Docs{
		"GET /api/_public/invitations/{db}/{id}": {
			Summary: "The invitation page's facts before sign-in: the Group's name, the inviter's and the invited address of a pending invitation",
			Notes:   "Both ids travel only in the invitation mail to the invited address; 404 for anything else (an accepted invitation included); 30 lookups a minute per client address.",
			Answer:  Invitation{Group: "Oficina da Ana", Inviter: "Ana Lima", Email: "bruno@example.com"},
		},
		"GET /api/{db}/_members": {
			Summary: "The Group's people by name, for assigning tickets: its members, and those who left marked left (tickets may still name them)",
			Answer: map[string]any{"people": []Person{
				{UserID: module.ExampleID("usr"), Name: "Ana Lima", Email: "ana@example.com", Admin: true},
				{UserID: module.ExampleID("usr"), Name: "Bruno Costa", Left: true}}},
		},
		"PUT /api/{db}/_design/status/_update/accept/{docid}": {
			Summary: "Accepts an invitation to the Group {db} (the invitee, signed in with the invited email, confirmed)",
			Notes:   "404 unless the signed-in user is the invitee; 403 until the email is confirmed or past the free Groups limit.",
			Answer:  module.UpdateAnswer(mem, nil),
		},
		"POST /api/{db}/_design/token/_update/create": {
			Summary: "Creates an API token in the caller's own database usr-<id>; the secret is in this answer only",
			Path:    own,
			Notes:   "Not with an API token (tokens cannot make tokens).",
			Body:    TokenInput{Description: "Invoices script", Permissions: "read", DBs: []string{module.ExampleDB}},
			Answer:  module.UpdateAnswer(module.ExampleID("tok"), map[string]any{"token": "oft_…"}),
			Status:  http.StatusCreated,
		},
		"PUT /api/{db}/_design/token/_update/revoke/{docid}": {
			Summary: "Revokes an API token at once (in the caller's own database usr-<id>)",
			Path:    own,
			Answer:  module.UpdateAnswer(module.ExampleID("tok"), nil),
		},
	}
	for _, on := range []string{"true", "false"} {
		docs["PUT /api/{db}/_design/bookmark/_update/"+on+"/{docid}"] = module.Doc{
			Summary: "Bookmarks (true) or unbookmarks (false) a Group: the membership's mirror in the caller's usr-<id>",
			Path:    own,
			Answer:  module.UpdateAnswer(mem, nil),
		}
	}
	return docs
}
