package links_test

import (
	"os"
	"testing"

	"github.com/oficina/oficina/shared/apptest"
)

func TestMain(m *testing.M) { os.Exit(apptest.Main(m)) }

// groups is one product with two Groups: Ana's (db) and Zed's (other).
type groups struct {
	e         *apptest.Env
	ana, zed  *apptest.Client
	db, other string
}

func newGroups(e *apptest.Env) *groups {
	g := &groups{e: e}
	g.ana, g.zed = e.SignUp("ana@example.com"), e.SignUp("zed@example.com")
	g.db, g.other = e.Group(g.ana, "Oficina da Ana"), e.Group(g.zed, "Zed Reparos")
	return g
}
