package access

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
)

// countedReads counts record reads, keeping the embedded store's versions.
type countedReads struct {
	*bolt.Store
	reads int
}

func (c *countedReads) GetRecord(ctx context.Context, kind, key string) (store.Record, error) {
	c.reads++
	return c.Store.GetRecord(ctx, kind, key)
}

// TestSecurityCache: a database's _security is read once and then served
// from the cache until any _security is saved; a change applies to the next
// check. Over a store without versions there is no cache.
func TestSecurityCache(t *testing.T) {
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "sec.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	counted := &countedReads{Store: st}
	c := NewSecurityCache(counted)
	ana := &Principal{UserID: "usr-ana", Roles: []string{"usr-ana"}, Via: ViaSession}
	db := "usr-ana"
	if err := SaveSecurity(ctx, st, db, Security{Admins: Names{Names: []string{"usr-ana"}}}); err != nil {
		t.Fatal(err)
	}
	check := func(want fault.Kind, reads int) {
		t.Helper()
		before := counted.reads
		err := c.Check(ctx, counted, ana, db, Write)
		if fe, _ := fault.As(err); (want == -1) != (err == nil) || (err != nil && fe.Kind != want) {
			t.Fatalf("check: %v, want %v", err, want)
		}
		if got := counted.reads - before; got != reads {
			t.Fatalf("check read %d records, want %d", got, reads)
		}
	}
	check(-1, 1)
	check(-1, 0)
	// Another database's change empties the cache too; the change of this
	// one applies at once.
	if err := SaveSecurity(ctx, st, "usr-other", Security{}); err != nil {
		t.Fatal(err)
	}
	check(-1, 1)
	if err := SaveSecurity(ctx, st, db, Security{Admins: Names{Names: []string{"usr-bob"}}, Members: Names{Names: []string{"usr-bob"}}}); err != nil {
		t.Fatal(err)
	}
	check(fault.Forbidden, 1)
	check(fault.Forbidden, 0)

	if NewSecurityCache(struct{ store.Store }{st}) != nil {
		t.Fatal("a cache over a store without versions")
	}
	var none *SecurityCache
	if err := none.Check(ctx, st, ana, db, Read); err == nil {
		t.Fatal("a nil cache did not check")
	}
}
