package testproc

import (
	"fmt"
	"sync"
	"testing"
)

// Shared is a server one test binary shares: under Main the first test
// that asks starts it and it stops when the tests end; without Main each
// test gets a private one, stopped when it ends. A failed start is not
// retried, so every later test fails fast with the same error.
type Shared[T any] struct {
	// Name says which server in errors ("DynamoDB Local").
	Name  string
	Start func() (T, error)
	Stop  func(T)
	Proc  func(T) *Process

	mu   sync.Mutex
	on   bool // Main is running
	inst *T
	err  error
}

// Main runs the binary's tests around one shared server. Use it from
// TestMain.
func (s *Shared[T]) Main(m *testing.M) int { return s.Run(m.Run) }

// Run is Main around any run function, so that two shared servers nest
// (one's Run calls the other's Main).
func (s *Shared[T]) Run(run func() int) int {
	s.mu.Lock()
	s.on = true
	s.mu.Unlock()

	code := run()

	s.mu.Lock()
	inst := s.inst
	s.inst, s.err, s.on = nil, nil, false
	s.mu.Unlock()
	if inst != nil {
		s.Stop(*inst)
	}
	return code
}

// Get returns the shared server (checking it is still up), or a private
// one stopped when tb ends.
func (s *Shared[T]) Get(tb testing.TB) (T, error) {
	var zero T
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.on {
		inst, err := s.Start()
		if err != nil {
			return zero, err
		}
		tb.Cleanup(func() { s.Stop(inst) })
		return inst, nil
	}
	if s.inst == nil && s.err == nil {
		inst, err := s.Start()
		if err != nil {
			s.err = err
		} else {
			s.inst = &inst
		}
	}
	if s.err != nil {
		return zero, s.err
	}
	if err := s.Proc(*s.inst).Exited(); err != nil {
		return zero, fmt.Errorf("shared %s died: %w\n%s", s.Name, err, s.Proc(*s.inst).Output())
	}
	return *s.inst, nil
}
