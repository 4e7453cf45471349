package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/oficina/oficina/shared/access"
	"github.com/oficina/oficina/shared/accounts"
	"github.com/oficina/oficina/shared/blob"
	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// Klasses a restore leaves out: the new Group has its own record,
// memberships (the restorer is its administrator) and no API tokens.
var notRestored = map[string]bool{"Account": true, "Membership": true, "UserToken": true}

// groupKeys are the adjustments that describe the new Group itself (its
// name, the plan its admins asked for, its billing e-mail): the new Group
// keeps its own. Server-only keys (creator, plan, the switch lock, the
// Stripe customer, price, subscription and invoice: accounts.IsServerKey)
// are never restored either: a copy would lock the new Group or let it
// cancel the original's subscription.
var groupKeys = map[string]bool{
	"name": true, accounts.KeyUnconfirmedPlan: true, "billing-email": true, "billing_email": true,
}

// restorable tells whether a restore may write a Group adjustment's key.
func restorable(key string) bool { return !groupKeys[key] && !accounts.IsServerKey(key) }

// line is one line of an archive.
type line struct {
	Backup *int            `json:"oficina_backup"`
	Doc    json.RawMessage `json:"doc"`
	Sort   string          `json:"sort"`
	File   *fileVersion    `json:"file"`
	End    *struct {
		Docs  int `json:"docs"`
		Files int `json:"files"`
	} `json:"end"`
}

// scan reads an archive line by line.
func (m *Module) scan(ctx context.Context, db, id string, fn func(line) error) error {
	rc, err := m.open(ctx, db, id, PartArchive)
	if err != nil {
		return fmt.Errorf("backup: open %s: %w", id, err)
	}
	defer rc.Close()
	gz, err := gzip.NewReader(rc)
	if err != nil {
		return fault.Wrap(fault.Conflict, MsgIncomplete, err)
	}
	sc := bufio.NewScanner(gz)
	sc.Buffer(make([]byte, 64<<10), 2*store.MaxDocBytes)
	first, ended := true, false
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return fault.Wrap(fault.Conflict, MsgIncomplete, err)
		}
		if first && (l.Backup == nil || *l.Backup != formatTar && *l.Backup != formatShared) {
			return fault.New(fault.Conflict, MsgIncomplete)
		}
		first = false
		if l.End != nil {
			ended = true
		}
		if err := fn(l); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fault.Wrap(fault.Conflict, MsgIncomplete, err)
	}
	if !ended {
		return fault.New(fault.Conflict, MsgIncomplete)
	}
	return nil
}

// Restore makes a new Group named name for p from backup info of db and
// returns its db. The archive is checked whole before anything is made.
func (m *Module) Restore(ctx context.Context, p *access.Principal, db string, info Info, name string) (string, error) {
	if m.blobs == nil {
		return "", fault.New(fault.BadRequest, MsgNoBlobs)
	}
	format := formatTar
	var files []fileVersion // the manifest, in its order
	err := m.scan(ctx, db, info.ID, func(l line) error {
		if l.Backup != nil {
			format = *l.Backup
		}
		if l.File != nil {
			files = append(files, *l.File)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	acct, err := m.groups.CreateGroup(ctx, p, accounts.NewGroup{Name: name})
	if err != nil {
		return "", err
	}
	newDB := acct.ID
	versions := map[string]string{} // file id / old version (hex) → new version id
	switch {
	case !info.WithContents || len(files) == 0:
	case format == formatShared:
		versions, err = m.restoreShared(ctx, db, newDB, files)
	default:
		versions, err = m.restoreContents(ctx, db, info.ID, newDB)
	}
	if err != nil {
		return newDB, err
	}
	own, err := m.adjustments(ctx, newDB)
	if err != nil {
		return newDB, err
	}
	err = m.restoreDocs(ctx, db, info.ID, func(ctx context.Context, l line) error {
		return m.restoreDoc(ctx, newDB, l, versions, own)
	})
	if err != nil {
		return newDB, err
	}
	m.log.InfoContext(ctx, "backup restored", "from", db, "backup", info.ID, "into", newDB, "user", p.UserID)
	return newDB, nil
}

// restoreWorkers write documents concurrently: the embedded store folds
// concurrent writes into one commit and one fsync (bbolt's Batch) and
// DynamoDB takes them in parallel; one at a time, 5,000 documents took 32 s
// (BenchmarkBackup).
const restoreWorkers = 64

// restoreDocs reads archive id of db and hands each document line to write
// on restoreWorkers goroutines; the first error stops the rest.
func (m *Module) restoreDocs(ctx context.Context, db, id string, write func(context.Context, line) error) error {
	return inParallel(ctx, restoreWorkers, func(ctx context.Context, send func(line) error) error {
		return m.scan(ctx, db, id, func(l line) error {
			if l.Doc == nil {
				return nil
			}
			return send(l)
		})
	}, write)
}

// inParallel runs do on workers goroutines for each item feed sends; the
// first error (of do or feed) stops the rest and is returned.
func inParallel[T any](ctx context.Context, workers int, feed func(ctx context.Context, send func(T) error) error, do func(context.Context, T) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	work := make(chan T, workers*4)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for item := range work {
				if ctx.Err() != nil {
					continue // drain: an earlier item failed
				}
				if err := do(ctx, item); err != nil {
					cancel(err)
				}
			}
		}()
	}
	err := feed(ctx, func(item T) error {
		select {
		case work <- item:
			return nil
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	})
	close(work)
	wg.Wait()
	if err != nil {
		return err
	}
	return context.Cause(ctx)
}

// adjustments maps the new Group's adjustment keys to their documents.
func (m *Module) adjustments(ctx context.Context, db string) (map[string]store.Doc, error) {
	out := map[string]store.Doc{}
	q := store.ListQuery{Klass: "Adjustment", Limit: 200}
	for {
		page, err := m.st.List(ctx, db, q)
		if err != nil {
			return nil, err
		}
		for _, d := range page.Docs {
			var b struct {
				Key string `json:"key"`
			}
			if json.Unmarshal(d.Body, &b) == nil && b.Key != "" {
				out[b.Key] = d
			}
		}
		if page.Next == "" {
			return out, nil
		}
		q.After = page.Next
	}
}

// restoreDoc writes one archived document into db as it was (straight to
// the store: the body was checked when it was first written, and keeping
// it byte for byte keeps every reference and stamp).
func (m *Module) restoreDoc(ctx context.Context, db string, l line, versions map[string]string, own map[string]store.Doc) error {
	body, err := docs.Decode(l.Doc)
	if err != nil {
		return fault.Wrap(fault.Conflict, MsgIncomplete, err)
	}
	id, _ := body["_id"].(string)
	delete(body, "_id")
	delete(body, "_rev")
	klass, _ := body["klass"].(string)
	if id == "" || notRestored[klass] {
		return nil
	}
	rev := ""
	if klass == "Adjustment" {
		key, _ := body["key"].(string)
		if !restorable(key) {
			return nil
		}
		if d, ok := own[key]; ok {
			// The new Group has this setting already: take the backup's value.
			cur, err := docs.Decode(d.Body)
			if err != nil {
				return err
			}
			cur["value"] = body["value"]
			body, id, rev = cur, d.ID, d.Rev
		}
	}
	if klass == drive.Klass {
		if vs, ok := body["versions"].([]any); ok {
			for _, v := range vs {
				vm, ok := v.(map[string]any)
				if !ok {
					continue
				}
				old, _ := vm["id"].(string)
				if nv, ok := versions[versionName(id, old)]; ok {
					vm["id"] = nv
				}
			}
		}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	// The key the write path gives the body now: a klass keyed otherwise
	// since the backup (docs.Service.IndexBy) comes back keyed as today.
	sortKey := l.Sort
	if m.deps.Docs != nil {
		sortKey = m.deps.Docs.SortKey(klass, body)
	}
	_, err = m.st.Put(ctx, db, store.Doc{ID: id, Rev: rev, Klass: klass, SortKey: sortKey, Body: raw})
	if errors.Is(err, store.ErrConflict) {
		return nil // written by a restore of the same archive that raced this one
	}
	return err
}

// versionName is how a restore maps a file version to its new id.
func versionName(fileID, version string) string {
	return fileID + "/" + hex.EncodeToString([]byte(version))
}

// restoreShared copies the file versions files lists from the contents
// the backup names into newDB's blobs, oldest first (the manifest lists
// each file's newest first), and maps each old version to its new id.
func (m *Module) restoreShared(ctx context.Context, db, newDB string, files []fileVersion) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range slices.Backward(files) {
		var rc io.ReadCloser
		err := blob.ErrNotFound
		if validSum(f.SHA256) {
			rc, err = m.open(ctx, db, f.SHA256, PartContent)
		}
		if errors.Is(err, blob.ErrNotFound) {
			m.log.WarnContext(ctx, "backup: restore without a version's contents", "db", db, "file", f.ID, "version", f.Version)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("backup: open the contents of %s/%s: %w", f.ID, f.Version, err)
		}
		v, err := m.blobs.Put(ctx, drive.BlobKey(newDB, f.ID), rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("backup: restore %s/%s: %w", f.ID, f.Version, err)
		}
		out[versionName(f.ID, f.Version)] = v.ID
	}
	return out, nil
}

// restoreContents copies the archived file versions into db's blobs,
// oldest first, and maps each old version to its new id.
func (m *Module) restoreContents(ctx context.Context, db, id, newDB string) (map[string]string, error) {
	rc, err := m.open(ctx, db, id, PartContents)
	if err != nil {
		return nil, fmt.Errorf("backup: open the contents of %s: %w", id, err)
	}
	defer rc.Close()
	out := map[string]string{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fault.Wrap(fault.Conflict, MsgIncomplete, err)
		}
		fileID, _, ok := strings.Cut(h.Name, "/")
		if !ok || fileID == "" {
			continue
		}
		v, err := m.blobs.Put(ctx, drive.BlobKey(newDB, fileID), io.LimitReader(tr, h.Size))
		if err != nil {
			return nil, fmt.Errorf("backup: restore %s: %w", h.Name, err)
		}
		out[h.Name] = v.ID
	}
}
