// Command local runs the whole product in one process on the embedded store:
// the API under /api, the built SPA under /, the change stream and the
// schedules in-process. It is what `make run` starts.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/oficina/oficina/shared/app"
	"github.com/oficina/oficina/shared/app/standalone"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/dav"
	"github.com/oficina/oficina/shared/spa"
)

const (
	// shutdownGrace is how long in-flight requests get to finish after a signal.
	shutdownGrace = 20 * time.Second
	// logFlushInterval is how long a log line may wait to be written out.
	logFlushInterval = 100 * time.Millisecond
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "oficina:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string) error {
	cfg, err := config.Load(args, getenv, config.Local)
	if err != nil {
		return err
	}
	// Lines are written out in batches (at once from warning level up).
	logs := app.NewLogBuffer(os.Stderr, logFlushInterval)
	defer logs.Close()
	log := slog.New(logs.Handler(app.Logger(cfg, logs).Handler()))
	app.TuneGC(getenv)
	a, err := standalone.Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	// The background work stops with this context after the server is down.
	bgCtx, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
	defer stopBackground()
	a.StartBackground(bgCtx)

	srv := &http.Server{
		Handler:           app.AccessLog(log, routes(a.Handler, a.DAV, spa.Handler(cfg.WebDir))),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	log.Info("oficina is up", "url", "http://"+ln.Addr().String(), "data", cfg.DataDir, "store", cfg.Store, "mail", cfg.Mail)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down: no new connections, waiting for requests in flight")
	a.API.BeginShutdown() // long polls answer now instead of holding the shutdown up
	shutCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	stopBackground()
	a.Wait()
	log.Info("stopped cleanly")
	return nil
}

// routes sends /api/… to the API as it came, /dav/… to the WebDAV server,
// and the rest to the SPA. Not a ServeMux: it would answer a path with
// "..", "." or "//" with a redirect to the cleaned path (another
// database's URL) before the API could refuse it.
func routes(api http.Handler, dav *dav.Handler, site http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			api.ServeHTTP(w, r)
			return
		}
		if dav != nil && dav.Handles(r) {
			dav.ServeHTTP(w, r)
			return
		}
		site.ServeHTTP(w, r)
	})
}
