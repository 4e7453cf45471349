package bolt

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"
)

// pendingWrites is how many writes wait for the next commit.
func pendingWrites(s *Store) int {
	s.commit.mu.Lock()
	defer s.commit.mu.Unlock()
	return len(s.commit.pending)
}

// waitPending waits until n writes are queued behind a running commit.
func waitPending(t *testing.T, s *Store, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for pendingWrites(s) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes pending, want %d", pendingWrites(s), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// blockCommit starts a write that holds the commit until release is
// closed, and waits until it runs.
func blockCommit(t *testing.T, s *Store) (release chan struct{}, done chan error) {
	t.Helper()
	release, done = make(chan struct{}), make(chan error, 1)
	running := make(chan struct{})
	go func() {
		done <- s.batch(func(tx *bbolt.Tx) error {
			select {
			case <-running:
			default:
				close(running)
			}
			<-release
			return nil
		})
	}()
	<-running
	return release, done
}

func TestGroupCommitSharesTransactions(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	before := s.CommitStats()
	release, done := blockCommit(t, s)
	const writers = 10
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Go(func() {
			errs[i] = s.batch(func(tx *bbolt.Tx) error {
				return tx.Bucket(bucketRecords).Put(fmt.Appendf(nil, "k%d", i), []byte("v"))
			})
		})
	}
	waitPending(t, s, writers)
	close(release)
	wg.Wait()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	got := s.CommitStats()
	if c, w := got.Commits-before.Commits, got.Writes-before.Writes; c != 2 || w != writers+1 {
		t.Fatalf("%d writes in %d commits, want %d writes in 2 (the blocked one, then all that waited)", w, c, writers+1)
	}
}

func TestGroupCommitIsolatesAFailingWrite(t *testing.T) {
	s, _ := openTemp(t)
	defer s.Close()
	errDisk := errors.New("disk on fire")
	for _, failure := range []string{"error", "panic"} {
		t.Run(failure, func(t *testing.T) {
			release, done := blockCommit(t, s)
			var wg sync.WaitGroup
			errs := make([]error, 5)
			for i := range errs {
				wg.Go(func() {
					errs[i] = s.batch(func(tx *bbolt.Tx) error {
						if i == 2 {
							if failure == "panic" {
								panic("broken write")
							}
							return errDisk
						}
						return tx.Bucket(bucketRecords).Put(fmt.Appendf(nil, "%s%d", failure, i), []byte("v"))
					})
				})
			}
			waitPending(t, s, len(errs))
			close(release)
			wg.Wait()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			for i, err := range errs {
				switch {
				case i != 2 && err != nil:
					t.Errorf("write %d shared a transaction with a failing one: %v", i, err)
				case i == 2 && failure == "error" && !errors.Is(err, errDisk):
					t.Errorf("the failing write got %v", err)
				case i == 2 && failure == "panic" && (err == nil || !strings.Contains(err.Error(), "broken write")):
					t.Errorf("the panicking write got %v", err)
				}
			}
			err := s.view(func(tx *bbolt.Tx) error {
				for i := range errs {
					if v := tx.Bucket(bucketRecords).Get(fmt.Appendf(nil, "%s%d", failure, i)); (v != nil) != (i != 2) {
						t.Errorf("write %d stored: %v", i, v != nil)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			// The lead was passed on: the store still writes.
			if err := s.batch(func(tx *bbolt.Tx) error { return nil }); err != nil {
				t.Fatal(err)
			}
		})
	}
}
