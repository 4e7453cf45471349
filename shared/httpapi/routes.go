package httpapi

// routes is the whole API surface, in one list (Miniflux style), so that a
// newcomer finds the handler of any call here.
func (s *Server) routes() {
	s.handle("GET /api/{$}", s.getRoot)
	s.handle("GET /api/_openapi.json", s.openAPI) // apidoc.go
	s.handle("GET /api/_labels", s.getLabels)     // what the modules declared: klass and field labels, system actors (db.go)
	s.handle("GET /api/_schema", s.getSchema)     // each klass's field rules, read-only, for the SPA's form checks (db.go)

	s.userRoutes()    // _session, _users (session.go, users.go)
	s.accountRoutes() // POST /api/accounts (accounts.go)

	s.handle("GET "+LivePath, s.live)    // the live-updates WebSocket (live.go)
	s.handle("POST "+BatchPath, s.batch) // several reads in one request (batch.go)

	s.handle("GET /api/{db}", s.getDB)
	s.handle("PUT /api/{db}", s.putDB)
	s.handle("POST /api/{db}", s.postDoc)
	s.handle("GET /api/{db}/_security", s.getSecurity)
	s.handle("PUT /api/{db}/_security", s.putSecurity)
	s.handle("POST /api/{db}/_bulk_docs", s.bulkDocs)
	s.handle("GET /api/{db}/_all_docs", s.allDocs)
	s.handle("POST /api/{db}/_all_docs", s.allDocs)
	s.handle("POST /api/{db}/_find", s.find)
	s.handle("GET /api/{db}/_changes", s.changes)
	s.handle("PUT /api/{db}/_design/{ddoc}", s.designDocWrite)
	s.handle("DELETE /api/{db}/_design/{ddoc}", s.designDocWrite)
	s.handle("GET /api/{db}/_design/{ddoc}/_view/{view}", s.view)           // views.go
	s.handle("POST /api/{db}/_design/{ddoc}/_update/{fn}", s.update)        // update.go
	s.handle("PUT /api/{db}/_design/{ddoc}/_update/{fn}/{docid}", s.update) // update.go
	s.handle("GET /api/{db}/{docid}", s.getDoc)
	s.handle("PUT /api/{db}/{docid}", s.putDoc)
	s.handle("DELETE /api/{db}/{docid}", s.deleteDoc)

	for _, rt := range s.modules.Routes() { // the modules' own routes (PDFs, public pages, webhooks)
		s.handle(rt.Pattern, s.moduleRoute(rt))
	}

	s.handle("/api/", s.notFound)
}
