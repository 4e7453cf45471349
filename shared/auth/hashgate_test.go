package auth

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store/bolt"
)

// TestPasswordHashingIsBounded (issue 8, item 6): 40 parallel sign-ups
// took the server to 764 MB, one 19 MiB argon2 hash each. With
// HashConcurrency slots taken, a registration or a login waits for one.
func TestPasswordHashingIsBounded(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "auth.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := New(st, &mailbox{}, Config{Argon2: cheapArgon2, HashConcurrency: 2, Logger: slog.New(slog.DiscardHandler)})
	ctx := context.Background()
	if _, err := svc.Register(ctx, Registration{Email: "ana@example.com", Password: "password1"}); err != nil {
		t.Fatal(err)
	}
	// Both slots busy (two hashes running elsewhere).
	for range 2 {
		if err := svc.hashes.acquire(ctx); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 2)
	go func() {
		_, err := svc.Register(ctx, Registration{Email: "bia@example.com", Password: "password1"})
		done <- err
	}()
	go func() {
		_, err := svc.Login(ctx, LoginInput{Name: "ana@example.com", Password: "password1"})
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a password was hashed while every slot was taken (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	svc.hashes.release()
	svc.hashes.release()
	for range 2 {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("hashing did not resume once slots were free")
		}
	}

	// A caller that gives up while waiting is told to come back later.
	for range 2 {
		_ = svc.hashes.acquire(ctx)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err = svc.Login(short, LoginInput{Name: "ana@example.com", Password: "password1"})
	if fe, ok := fault.As(err); !ok || fe.Kind != fault.TooManyRequests || fe.RetryAfter < 1 {
		t.Fatalf("waiting caller got %v", err)
	}
}
