// Command webdav serves the drive over WebDAV (shared/dav) as a plain HTTP
// server: the same handler the local server mounts at /dav/, wired by
// shared/app on DynamoDB and S3. In the cloud it runs as a container-image
// Lambda behind the AWS Lambda Web Adapter (Dockerfile: the adapter turns
// Function URL invocations into HTTP requests on PORT); the same image runs
// unchanged on Fargate or App Runner, where no 6 MB request limit applies.
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
	"syscall"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"

	"github.com/oficina/oficina/shared/app/adapters"
	"github.com/oficina/oficina/shared/app/core"
	"github.com/oficina/oficina/shared/app/davparts"
	"github.com/oficina/oficina/shared/app/runenv"
	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/dav"
	"github.com/oficina/oficina/shared/ratelimit"
	"github.com/oficina/oficina/shared/store/bolt"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "webdav:", err)
		os.Exit(1)
	}
}

// HealthPath answers 200 once the server is wired: the Lambda Web
// Adapter's readiness check and a load balancer's health check.
const HealthPath = "/healthz"

func run(ctx context.Context, getenv func(string) string) error {
	cfg, err := config.Load(nil, getenv, config.Lambda)
	if err != nil {
		return err
	}
	// On Lambda every request comes from the Web Adapter on loopback, which
	// forwards the Function URL's request context (the caller's sourceIp),
	// overwriting any the client sent. Lambda sets the function's name;
	// App Runner and Fargate do not, and there the header is the client's.
	cfg.BehindLambdaWebAdapter = getenv("AWS_LAMBDA_FUNCTION_NAME") != ""
	log := runenv.Logger(cfg, os.Stderr)
	h, closeStore, err := wire(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer closeStore()
	port := getenv("PORT")
	if port == "" {
		port = "8080"
	}
	srv := &http.Server{
		Handler:           core.AccessLog(log, handler(h)),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	ln, err := net.Listen("tcp", ":"+port)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", port, err)
	}
	log.Info("webdav is up", "port", port, "store", cfg.Store, "blobs", cfg.Blobs)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// wire builds the WebDAV server on the store and blobs cfg names, with
// the SDK's default credential chain (the same image runs on Lambda, App
// Runner or Fargate): the base with every module's write path, so a file's
// write passes what the API's does and is noted for the change stream
// (shared/app/davparts), and the drive. It sends no mail and serves no
// other module's routes.
func wire(ctx context.Context, cfg config.Config, log *slog.Logger) (*dav.Handler, func() error, error) {
	aws := adapters.NewAWS(func() (aws.Config, error) { return awsconfig.LoadDefaultConfig(ctx) })
	st, err := adapters.Store(cfg, log, aws, bolt.OpenDir)
	if err != nil {
		return nil, nil, err
	}
	blobs, _, err := adapters.Blobs(cfg, aws)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	c, d, err := davparts.Drive(ctx, cfg, log, core.Adapters{Store: st, Blobs: blobs, AWS: aws.Loaded()})
	if err != nil {
		return nil, nil, err
	}
	return dav.New(dav.Options{
		Store: c.Store, Tokens: c.Auth, Drive: d, Log: log,
		Limiter: ratelimit.New(c.Store, ratelimit.Edge{RequestContext: cfg.BehindLambdaWebAdapter}, nil),
		MaxPut:  cfg.DavMaxPut, RedirectAbove: cfg.DavRedirectAbove,
	}), c.Close, nil
}

// handler serves /dav/… and the health check; anything else is a 404.
func handler(h *dav.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case h.Handles(r):
			h.ServeHTTP(w, r)
		case r.URL.Path == HealthPath:
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("ok\n"))
		default:
			http.NotFound(w, r)
		}
	})
}
