package bolt

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oficina/oficina/shared/store"
)

func TestScanKlass(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "scan.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.ScanKlass(ctx, "nope", "Ticket", func(store.Doc) error { return nil }); !errors.Is(err, store.ErrDBNotFound) {
		t.Fatalf("missing db: %v", err)
	}
	if err := s.CreateDB(ctx, "db"); err != nil {
		t.Fatal(err)
	}
	for i, sk := range []string{"3", "1", "2"} {
		if _, err := s.Put(ctx, "db", store.Doc{ID: fmt.Sprintf("t%d", i), Klass: "Ticket", SortKey: sk, Body: []byte(`{"n":` + sk + `}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Put(ctx, "db", store.Doc{ID: "c", Klass: "Customer", SortKey: "0", Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	d, _ := s.Get(ctx, "db", "t2")
	if _, err := s.Delete(ctx, "db", "t2", d.Rev); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := s.ScanKlass(ctx, "db", "Ticket", func(d store.Doc) error {
		got = append(got, d.ID+"="+string(d.Body))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != `t1={"n":1} t0={"n":3}` {
		t.Fatalf("scan = %v", got)
	}
	stop := errors.New("stop")
	if err := s.ScanKlass(ctx, "db", "Ticket", func(store.Doc) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("fn error not returned: %v", err)
	}
}
