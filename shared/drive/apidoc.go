package drive

import (
	"net/http"

	"github.com/oficina/oficina/shared/module"
)

// APIDocs implements module.Documented.
func (m *Module) APIDocs() module.Docs {
	file, dir := module.ExampleID("fle"), "fle-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d"
	rev := []module.Param{{Name: "rev", About: "the entry's current revision (409 when it changed meanwhile)"}}
	entry := map[string]any{"_id": file, "_rev": "4-…", "klass": Klass, "kind": "file", "name": "manual.pdf", "dir_id": dir, "size": 482133}
	version := Version{ID: "v3", Size: 482133, SHA256: "9f86d081…", ContentType: "application/pdf", Modified: "2026-05-28T13:02:11.000Z", By: Who{ID: module.ExampleID("usr"), Label: "Ana"}}
	saved := func(extra map[string]any) map[string]any { return module.UpdateAnswer(file, extra) }
	upload := map[string]any{"upload_id": "up-5d41402abc4b2a76", "mode": ModeServer, "size": 734003200, "received": 0, "chunk_size": ChunkBytes,
		"file_id": "", "dir_id": dir, "name": "video.mp4", "expires_at": "2026-05-29T13:02:11Z"}
	versionParam := []module.Param{{Name: "version", About: "a version's id (from …/versions)", Example: "v2"}}
	uploadParam := []module.Param{{Name: "upload", About: "the upload_id POST …/uploads answered", Example: "up-5d41402abc4b2a76"}}
	deleted := map[string]any{"ok": true, "deleted": 3, "bytes": 1048576}
	return module.Docs{
		"GET /api/{db}/_drive/usage": {
			Summary: "The drive's usage: bytes of every version (trash included) against the plan's limit, files, folders, trash",
			Answer:  Usage{Bytes: 73400320, Limit: 1 << 30, Plan: "pro", Files: 120, Dirs: 14, TrashBytes: 1048576, TrashEntries: 3},
		},
		"GET /api/{db}/_drive/dirs/{id}": {
			Summary: "A folder's entries, a page at a time, with its path from the root (id: a folder's, or root)",
			Query:   []module.Param{{Name: "limit", About: "entries per page", Example: "100"}, {Name: "after", About: "next from the previous page"}},
			Answer:  map[string]any{"dir": map[string]any{"_id": dir, "kind": "dir", "name": "Manuals"}, "path": []Crumb{{ID: dir, Name: "Manuals"}}, "next": "", "entries": []map[string]any{entry}},
		},
		"GET /api/{db}/_drive/files/{id}/content": {
			Summary: "A file's bytes (Range, ETag, Content-Disposition), or a 302 to a presigned S3 URL",
			Query:   []module.Param{{Name: "version", About: "an earlier version's id"}, {Name: "inline", About: "true: shown in the browser, not downloaded"}},
			Answer:  module.File{Type: "application/octet-stream", About: "the file's bytes, with its own content type", Name: "manual.pdf"},
		},
		"PUT /api/{db}/_drive/files/{id}/content": {
			Summary: "Writes a file's bytes in one request (up to the server's body limit; larger files go through uploads): a new version",
			Query:   rev, Body: module.File{Type: "application/octet-stream", About: "the bytes", Name: "manual.pdf"},
			Answer: saved(map[string]any{"version": version}), Status: http.StatusCreated,
		},
		"GET /api/{db}/_drive/files/{id}/versions": {
			Summary: "A file's kept versions, newest first",
			Answer:  map[string]any{"id": file, "rev": "4-…", "name": "manual.pdf", "max_versions": 10, "versions": []Version{version}},
		},
		"POST /api/{db}/_drive/files/{id}/versions/{version}/restore": {
			Summary: "Makes an earlier version the current one (as a new version, a copy)",
			Path:    versionParam, Query: rev, Answer: saved(map[string]any{"version": version}), Status: http.StatusCreated,
		},
		"DELETE /api/{db}/_drive/files/{id}/versions/{version}": {
			Summary: "Deletes an earlier version and its bytes",
			Path:    versionParam, Query: rev, Answer: saved(nil),
		},
		"POST /api/{db}/_drive/files/{id}/trash": {
			Summary: "Moves a file or a folder (with what it holds) to the trash",
			Query:   rev, Answer: saved(map[string]any{"trashed": 4}),
		},
		"POST /api/{db}/_drive/files/{id}/restore": {
			Summary: "Restores an entry from the trash (into its folder, or the root when that is gone)",
			Answer:  saved(map[string]any{"restored": 4, "dir_id": dir}),
		},
		"GET /api/{db}/_drive/trash": {
			Summary: "The trashed entries, latest first",
			Answer:  map[string]any{"entries": []map[string]any{entry}},
		},
		"DELETE /api/{db}/_drive/trash": {
			Summary: "Empties the trash: its entries and every version's bytes are deleted",
			Answer:  deleted,
		},
		"DELETE /api/{db}/_drive/trash/{id}": {
			Summary: "Deletes one trashed entry for good",
			Answer:  deleted,
		},
		"POST /api/{db}/_drive/uploads": {
			Summary: "Starts a resumable upload: of a new version of file_id, or of a new file name in dir_id",
			Notes:   "On S3 the answer may be mode presigned, with part_size and parts: the bytes go straight to S3 (POST …/parts).",
			Body:    map[string]any{"dir_id": dir, "name": "video.mp4", "size": 734003200, "content_type": "video/mp4"},
			Answer:  upload, Status: http.StatusCreated,
		},
		"GET /api/{db}/_drive/uploads/{upload}": {
			Summary: "An upload's state: how many bytes arrived (to resume after a break)",
			Path:    uploadParam,
			Answer:  upload,
		},
		"PUT /api/{db}/_drive/uploads/{upload}": {
			Summary: "Sends the next chunk of an upload at offset (a wrong offset is a 409 with the right one)",
			Path:    uploadParam,
			Query:   []module.Param{{Name: "offset", About: "the bytes received so far", Example: "0", Required: true}},
			Body:    module.File{Type: "application/octet-stream", About: "a chunk of at most chunk_size bytes", Name: "chunk.bin"},
			Answer:  upload,
		},
		"POST /api/{db}/_drive/uploads/{upload}/parts": {
			Summary: "Presigns S3 URLs for parts of a presigned upload",
			Path:    uploadParam,
			Body:    map[string]any{"parts": []int{1, 2, 3}},
			Answer: map[string]any{"upload_id": "up-5d41402abc4b2a76", "part_size": 16 << 20, "expires_at": "2026-05-28T14:02:11Z",
				"parts": []map[string]any{{"number": 1, "url": "https://bucket.s3.amazonaws.com/…"}}},
		},
		"POST /api/{db}/_drive/uploads/{upload}/commit": {
			Summary: "Finishes an upload: the bytes become the file's new version (presigned: with each part's ETag)",
			Path:    uploadParam,
			Body:    map[string]any{"rev": "3-…", "parts": []map[string]any{{"number": 1, "etag": `"9b2cf535f27731c974343645a3985328"`}}},
			Answer:  saved(map[string]any{"version": version, "doc": entry}), Status: http.StatusCreated,
		},
		"DELETE /api/{db}/_drive/uploads/{upload}": {
			Summary: "Cancels an upload and drops what arrived",
			Path:    uploadParam,
			Answer:  map[string]any{"ok": true},
		},
		"GET /api/{db}/_drive/records/{id}": {
			Summary: "The files of a record's folder (a ticket's, customer's or equipment's)",
			Answer:  map[string]any{"record_id": module.ExampleID("tik"), "folder": map[string]any{"_id": dir, "kind": "dir", "name": "Ticket 1042"}, "entries": []map[string]any{entry}},
		},
		"POST /api/{db}/_drive/records/{id}": {
			Summary: "Makes a record's folder (201; 200 with it when it exists), named after the record unless name is given",
			Body:    map[string]any{"name": "Ticket 1042", "dir_id": dir},
			Answer:  map[string]any{"ok": true, "id": dir, "rev": "1-…", "folder": map[string]any{"_id": dir, "kind": "dir", "name": "Ticket 1042", "record_id": module.ExampleID("tik")}},
			Status:  http.StatusCreated,
		},
	}
}
