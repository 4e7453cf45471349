package backup

import (
	"net/http"
	"time"

	"github.com/oficina/oficina/shared/module"
)

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	info := Info{ID: "20260528T130211Z-4f2a", CreatedAt: time.Date(2026, 5, 28, 13, 2, 11, 0, time.UTC), Size: 5242880, Files: 120, Docs: 3400, WithContents: true, Trigger: "request"}
	id := []module.Param{{Name: "id", About: "a backup's id (from the list)", Example: info.ID}}
	return module.Docs{
		"GET /api/{db}/_backups": {
			Summary: "The Group's backups, newest first",
			Answer:  map[string]any{"backups": []Info{info}},
		},
		"POST /api/{db}/_backups": {
			Summary: "Makes a backup now (as the plan allows): every document, and the drive's contents when the plan keeps them",
			Answer:  info, Status: http.StatusAccepted,
		},
		"GET /api/{db}/_backups/{id}": {
			Summary: "Downloads a backup's archive (on S3: a 302 to a presigned URL)",
			Path:    id,
			Answer:  module.File{Type: "application/gzip", About: "the documents as gzipped NDJSON", Name: "backup.ndjson.gz"},
		},
		"POST /api/{db}/_backups/{id}/restore": {
			Summary: "Restores a backup into a new Group named name (the caller becomes its administrator)",
			Path:    id,
			Body:    map[string]any{"name": "Oficina da Ana (restored)"},
			Answer:  map[string]any{"ok": true, "db": "acc-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b"}, Status: http.StatusCreated,
		},
	}
}
