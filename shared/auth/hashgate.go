package auth

import (
	"context"
	"time"

	"github.com/oficina/oficina/shared/fault"
)

// hashGate bounds how many argon2 computations (19 MiB each by default)
// run at once: without it, N parallel sign-ups or logins cost N × 19 MiB.
// Callers beyond the bound wait for a slot, up to maxHashWait.
type hashGate chan struct{}

// maxHashWait is how long a request waits for a hashing slot before it is
// told to come back (429): a queue that long means the server is flooded.
const maxHashWait = 10 * time.Second

func newHashGate(n int) hashGate { return make(hashGate, n) }

// acquire takes a slot, or fails with 429 when ctx ends or the wait is too long.
func (g hashGate) acquire(ctx context.Context) error {
	select {
	case g <- struct{}{}:
		return nil
	default:
	}
	timer := time.NewTimer(maxHashWait)
	defer timer.Stop()
	select {
	case g <- struct{}{}:
		return nil
	case <-ctx.Done():
	case <-timer.C:
	}
	return &fault.Error{Kind: fault.TooManyRequests, Reason: MsgTooManyRequests, RetryAfter: 5, Err: ctx.Err()}
}

func (g hashGate) release() { <-g }

// hash is hashPassword within a slot.
func (s *Service) hash(ctx context.Context, password string) (string, error) {
	if err := s.hashes.acquire(ctx); err != nil {
		return "", err
	}
	defer s.hashes.release()
	return hashPassword(password, s.cfg.Argon2)
}

// verify is verifyPassword within a slot.
func (s *Service) verify(ctx context.Context, password, encoded string) (bool, error) {
	if err := s.hashes.acquire(ctx); err != nil {
		return false, err
	}
	defer s.hashes.release()
	return verifyPassword(password, encoded)
}
