package stream_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/store/bolt"
	"github.com/oficina/oficina/shared/stream"
	"github.com/oficina/oficina/shared/stream/streamtest"
)

// startDrain runs the consumer's drain on st until the test ends and
// returns a function that stops it and waits for it.
func startDrain(t *testing.T, st *bolt.Store) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	c := newConsumer(st)
	go func() { done <- c.Drain(ctx, st) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Drain returned %v, want context.Canceled", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Drain did not stop")
		}
	}
	t.Cleanup(stop)
	return stop
}

// waitDrained waits until the outbox is empty and returns how long that
// took.
func waitDrained(t *testing.T, st *bolt.Store) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		es, err := st.ReadOutbox(t.Context(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(es) == 0 {
			return time.Since(start)
		}
		if time.Since(start) > time.Minute {
			t.Fatal("outbox not drained after a minute")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestDrain: writes through the store become history and counters
// without any call to the consumer, both for a backlog and live.
func TestDrain(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "oficina.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	newConsumer(st) // notes every write from the first (the store keeps a change log)
	w := streamtest.NewWriter(t, st, db)
	w.RandomMix(3, 1000)

	// A backlog of 1,000 changes, as after a restart.
	startDrain(t, st)
	took := waitDrained(t, st)
	t.Logf("drained a backlog of %d changes in %v (%.0f changes/s)", len(w.Changes), took, float64(len(w.Changes))/took.Seconds())
	streamtest.CheckCounts(t, newConsumer(st), st, db)
	streamtest.CheckHistory(t, st, db, w.Changes)

	// Live writes while the drain runs.
	w.RandomMix(4, 200)
	waitDrained(t, st)
	streamtest.CheckCounts(t, newConsumer(st), st, db)
	streamtest.CheckHistory(t, st, db, w.Changes)
}

// TestDrainRedelivery: a consumer that applied a batch but crashed before
// acknowledging it sees the batch again after a restart, and the result
// stays exact.
func TestDrainRedelivery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "oficina.db")
	st, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	newConsumer(st)
	w := streamtest.NewWriter(t, st, db)
	w.RandomMix(5, 300)

	entries, err := st.ReadOutbox(t.Context(), stream.DrainBatch)
	if err != nil || len(entries) != stream.DrainBatch {
		t.Fatalf("ReadOutbox: %d entries, %v", len(entries), err)
	}
	batch := make([]store.Change, len(entries))
	for i, e := range entries {
		batch[i] = e.Change
	}
	if err := newConsumer(st).Apply(t.Context(), batch); err != nil {
		t.Fatal(err)
	}
	// The crash: closed before the acknowledgement.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st, err = bolt.Open(path, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	again, err := st.ReadOutbox(t.Context(), 1)
	if err != nil || len(again) != 1 || again[0].Key != entries[0].Key {
		t.Fatalf("after restart the first entry is %+v (%v), want key %d again", again, err, entries[0].Key)
	}
	stop := startDrain(t, st)
	waitDrained(t, st)
	stop()
	streamtest.CheckCounts(t, newConsumer(st), st, db)
	streamtest.CheckHistory(t, st, db, w.Changes)
}
