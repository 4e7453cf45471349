package httpapi

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/ids"
)

// docRows are the rows of a _changes answer without those of history
// entries (ver-…), which each write of a klass adds after its own.
func docRows(res map[string]any) []any {
	return slices.DeleteFunc(slices.Clone(res["results"].([]any)), func(r any) bool {
		return strings.HasPrefix(r.(map[string]any)["id"].(string), "ver-")
	})
}

func TestChanges(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := "/api/" + e.aliceDB
	a, b, c := ids.New("cus"), ids.New("cus"), ids.New("cus")
	revA := e.do("alice", "PUT", db+"/"+a, map[string]any{"n": 1}).json(t)["rev"].(string)
	e.do("alice", "PUT", db+"/"+b, map[string]any{"n": 2})
	e.do("alice", "PUT", db+"/"+a, map[string]any{"_rev": revA, "n": 3}) // a changes again: still one row
	revC := e.do("alice", "PUT", db+"/"+c, map[string]any{"n": 4}).json(t)["rev"].(string)
	e.do("alice", "DELETE", db+"/"+c+"?rev="+revC, nil)

	res := e.do("alice", "GET", db+"/_changes", nil).json(t)
	rows := docRows(res)
	order := []string{}
	for _, r := range rows {
		order = append(order, r.(map[string]any)["id"].(string))
	}
	if fmt.Sprint(order) != fmt.Sprint([]string{b, a, c}) {
		t.Fatalf("one row per doc in seq order: got %v", order)
	}
	last := rows[2].(map[string]any)
	// last_seq is the row of the tombstone's history entry, the seq after it.
	if last["deleted"] != true || res["last_seq"].(float64) != last["seq"].(float64)+1 {
		t.Fatalf("tombstone row / last_seq: %v", res)
	}
	if _, ok := rows[0].(map[string]any)["doc"]; ok {
		t.Fatal("doc included without include_docs")
	}

	// since, limit, descending, include_docs
	bSeq := rows[0].(map[string]any)["seq"].(float64)
	res = e.do("alice", "GET", fmt.Sprintf("%s/_changes?since=%d&include_docs=true", db, int(bSeq)), nil).json(t)
	rows = docRows(res)
	if len(rows) != 2 || rows[0].(map[string]any)["doc"].(map[string]any)["n"].(float64) != 3 {
		t.Fatalf("since + include_docs: %v", res)
	}
	// Five rows back reach a: c's tombstone, its history rows and a's update.
	res = e.do("alice", "GET", db+"/_changes?descending=true&limit=5", nil).json(t)
	rows = docRows(res)
	if len(rows) != 2 || rows[0].(map[string]any)["id"] != c || rows[1].(map[string]any)["id"] != a {
		t.Fatalf("descending: %v", res)
	}
	e.expect(e.do("alice", "GET", db+"/_changes?since=abc", nil), 400, "Malformed sequence")
	e.expect(e.do("alice", "GET", db+"/_changes?feed=continuous", nil), 400, "unsupported feed")
	e.expect(e.do("bob", "GET", db+"/_changes", nil), 403, "")
}

func TestChangesLongpoll(t *testing.T) {
	e := newDocEnv(t, Config{})
	db := "/api/" + e.aliceDB
	now := int(e.updateSeq(e.aliceDB))

	// A write during the wait wakes the poll at once.
	id := ids.New("cus")
	done := make(chan resp, 1)
	start := time.Now()
	go func() {
		done <- e.do("alice", "GET", fmt.Sprintf("%s/_changes?feed=longpoll&since=%d&timeout=10000", db, now), nil)
	}()
	time.Sleep(100 * time.Millisecond)
	e.do("alice", "PUT", db+"/"+id, map[string]any{"n": 1})
	r := <-done
	rows := docRows(r.json(t))
	if len(rows) != 1 || rows[0].(map[string]any)["id"] != id {
		t.Fatalf("longpoll rows: %s", r.Body)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("longpoll was not woken by the write")
	}

	// Nothing happens: the poll times out with no rows and last_seq = since.
	since := int(e.updateSeq(e.aliceDB))
	r = e.do("alice", "GET", fmt.Sprintf("%s/_changes?feed=longpoll&since=%d&timeout=200", db, since), nil)
	res := r.json(t)
	if len(res["results"].([]any)) != 0 || int(res["last_seq"].(float64)) != since {
		t.Fatalf("timeout: %s", r.Body)
	}

	// Shutdown releases waiting polls.
	go func() {
		done <- e.do("alice", "GET", fmt.Sprintf("%s/_changes?feed=longpoll&since=%d&timeout=30000", db, since), nil)
	}()
	time.Sleep(100 * time.Millisecond)
	e.srv.BeginShutdown()
	select {
	case r := <-done:
		e.expect(r, 200, "")
	case <-time.After(5 * time.Second):
		t.Fatal("long poll held the shutdown")
	}
}
