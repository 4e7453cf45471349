package drive

import (
	"context"
	"errors"

	"github.com/oficina/oficina/shared/docs"
	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// followParent is the stream's reaction to a folder whose full path
// changed (a rename or a move): each entry in it whose full path no longer
// follows the folder's current one is saved again, and the rule recomputes
// it from the folder. Those saves are changes too, so subfolders follow
// level by level. It reads the current documents, never the change's
// images, so a replayed or reordered change writes nothing more.
func (m *Module) followParent(ctx context.Context, ch store.Change) error {
	if ch.New.Deleted {
		return nil
	}
	nb, err := docs.Decode(ch.New.Body)
	if err != nil || !isDir(str(nb["kind"])) {
		return nil
	}
	if ch.Old != nil && !ch.Old.Deleted {
		if ob, err := docs.Decode(ch.Old.Body); err == nil && str(ob["fullpath"]) == str(nb["fullpath"]) {
			return nil
		}
	}
	return m.fixChildren(ctx, ch.DB, ch.New.ID)
}

// fixChildren saves again the entries of folder dir whose full path is stale.
func (m *Module) fixChildren(ctx context.Context, db, dir string) error {
	_, body, err := m.lookup(ctx, db, dir)
	if err != nil || body == nil || str(body["kind"]) != KindDir {
		// A folder in the trash is left alone: what is under it is saved
		// again, full path recomputed, when it is trashed with it (the
		// trash writes the folder first) and when it is restored.
		return err
	}
	base := str(body["fullpath"])
	var stale []string
	err = m.eachChild(ctx, db, dir, func(d store.Doc, b map[string]any) (bool, error) {
		if str(b["fullpath"]) != base+"/"+str(b["name"]) {
			stale = append(stale, d.ID)
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, id := range stale {
		_, err := m.update(ctx, m.server, db, id, func(_ store.Doc, b map[string]any) (bool, error) {
			return str(b["dir_id"]) == dir, nil
		})
		if _, refused := fault.As(err); refused || errors.Is(err, errMissing) {
			// Not a store failure: retrying the change would not help. The
			// usual cause is the folder going to the trash meanwhile (WebDAV
			// DELETE, MOVE over it): the trash saves the entry itself then.
			log := m.log.WarnContext
			if errors.Is(err, errMissing) || !m.liveFolder(ctx, db, dir) {
				log = m.log.DebugContext
			}
			log(ctx, "a full path cannot follow its folder", "db", db, "id", id, "err", err)
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// liveFolder says whether dir is still a folder outside the trash.
func (m *Module) liveFolder(ctx context.Context, db, dir string) bool {
	_, body, err := m.lookup(ctx, db, dir)
	return err == nil && body != nil && str(body["kind"]) == KindDir
}
