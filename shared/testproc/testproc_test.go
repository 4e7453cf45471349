package testproc_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/oficina/oficina/shared/testproc"
)

// The test binary is its own child server: with TESTPROC_SERVE set it
// listens there and answers /ready until killed.
func TestMain(m *testing.M) {
	if addr := os.Getenv("TESTPROC_SERVE"); addr != "" {
		os.Stdout.WriteString("child listening on " + addr + "\n")
		_ = http.ListenAndServe(addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func child(t *testing.T) (*testproc.Process, string) {
	t.Helper()
	port, err := testproc.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "TESTPROC_SERVE="+addr)
	p, err := testproc.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return p, addr
}

// TestProcess: a started server is ready once its probe answers, its output
// is kept, and Stop kills it once and runs the cleanup once.
func TestProcess(t *testing.T) {
	p, addr := child(t)
	probe := func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/ready", nil)
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			res.Body.Close()
		}
		return err
	}
	if err := p.WaitReady(addr, 20*time.Second, probe); err != nil {
		t.Fatalf("not ready: %v\n%s", err, p.Output())
	}
	if !strings.Contains(p.Output(), "child listening on "+addr) {
		t.Fatalf("output %q", p.Output())
	}
	if err := p.Exited(); err != nil {
		t.Fatalf("exited early: %v", err)
	}
	cleaned := 0
	p.Stop(func() { cleaned++ })
	p.Stop(func() { cleaned++ })
	if cleaned != 1 || p.Exited() == nil {
		t.Fatalf("cleanups %d, exited %v", cleaned, p.Exited())
	}
	// A server that is gone is never ready.
	if err := p.WaitReady(addr, time.Second, probe); err == nil {
		t.Fatal("a killed process was ready")
	}
}

// TestShared: without Main each caller gets a private server (the shared
// path is what every DynamoDB and S3 test binary runs); a failed start is
// an error, never a server.
func TestShared(t *testing.T) {
	starts := 0
	s := &testproc.Shared[*testproc.Process]{
		Name:  "child",
		Start: func() (*testproc.Process, error) { starts++; p, _ := child(t); return p, nil },
		Stop:  func(p *testproc.Process) { p.Stop(nil) },
		Proc:  func(p *testproc.Process) *testproc.Process { return p },
	}
	a, err := s.Get(t)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.Get(t)
	if a == b || starts != 2 {
		t.Fatalf("without Main: %d starts, same %v", starts, a == b)
	}

	failing := &testproc.Shared[*testproc.Process]{
		Name:  "broken",
		Start: func() (*testproc.Process, error) { starts++; return nil, errors.New("no binary") },
		Stop:  func(*testproc.Process) {},
		Proc:  func(p *testproc.Process) *testproc.Process { return p },
	}
	if _, err := failing.Get(t); err == nil {
		t.Fatal("a failed start gave a server")
	}
}
