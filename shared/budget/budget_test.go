package budget

import (
	"fmt"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestBudget(t *testing.T) {
	c := &clock{t: time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)}
	b := New(60, c.now) // one a second, a minute's worth at once
	for i := range 60 {
		if ok, _ := b.Take("acc-a"); !ok {
			t.Fatalf("request %d of the first minute refused", i+1)
		}
	}
	ok, wait := b.Take("acc-a")
	if ok || wait <= 0 || wait > time.Second || Seconds(wait) != 1 {
		t.Fatalf("61st request: ok %v, wait %v", ok, wait)
	}
	if ok, _ := b.Take("acc-b"); !ok {
		t.Fatal("another Group's budget was spent")
	}
	c.t = c.t.Add(time.Second)
	if ok, _ := b.Take("acc-a"); !ok {
		t.Fatal("a second later a request should fit")
	}
	if ok, _ := b.Take("acc-a"); ok {
		t.Fatal("a refused request must not have been counted as spent budget")
	}
	if ok, _ := New(0, c.now).Take("acc-a"); !ok {
		t.Fatal("no budget refuses nothing")
	}
}

// TestIdleGroupsAreForgotten: the buckets stay bounded.
func TestIdleGroupsAreForgotten(t *testing.T) {
	c := &clock{t: time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)}
	b := New(10, c.now)
	for i := range maxGroups + 5 {
		b.Take(fmt.Sprintf("acc-%d", i))
		c.t = c.t.Add(time.Millisecond)
	}
	c.t = c.t.Add(time.Minute)
	b.Take("acc-new")
	if n := len(b.buckets); n > maxGroups {
		t.Fatalf("%d buckets kept", n)
	}
}
