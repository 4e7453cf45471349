package ddblocal

import (
	"testing"
)

// TestPrivateStop covers the path of Start without Main: a process of its
// own, gone after stop.
func TestPrivateStop(t *testing.T) {
	inst, err := start()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inst.client.ListTables(t.Context(), nil); err != nil {
		t.Fatalf("ListTables: %v", err)
	}
	inst.stop()
	if inst.proc.Exited() == nil {
		t.Fatal("process still running after stop")
	}
	inst.stop() // idempotent
}
