package live

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// ErrGone is the management API's answer for a connection that has closed
// (410 GoneException): its records can go.
var ErrGone = errors.New("live: the connection is gone")

// Management calls API Gateway's connection management API
// (POST/DELETE {endpoint}/@connections/{id}), signed with SigV4 for
// execute-api. Its two calls are all Cloud needs; the SDK's
// apigatewaymanagementapi client would add a module for them.
type Management struct {
	// Endpoint is https://<api id>.execute-api.<region>.amazonaws.com/<stage>.
	Endpoint    string
	Region      string
	Credentials aws.CredentialsProvider
	HTTP        *http.Client // nil: a client with a 10 s timeout
}

// NewManagement returns a client of endpoint signing with cfg's region and
// credentials.
func NewManagement(endpoint string, cfg aws.Config) *Management {
	return &Management{Endpoint: endpoint, Region: cfg.Region, Credentials: cfg.Credentials}
}

// postAttempts bounds the tries of one notice: API Gateway throttles the
// management API (429) and has passing errors (5xx). A notice lost is a
// screen left stale until the next notice or the SPA's 5 minutes.
const postAttempts = 3

// errPassing marks an answer worth another try.
var errPassing = errors.New("live: passing error")

// Post sends data to the connection as one text message, trying again
// after a throttle, a 5xx or a failed connection (50 ms, then 200 ms).
func (m *Management) Post(ctx context.Context, conn string, data []byte) error {
	var err error
	for attempt := range postAttempts {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return err
			case <-time.After(50 * time.Millisecond << (2 * (attempt - 1))):
			}
		}
		if err = m.call(ctx, http.MethodPost, conn, data); !errors.Is(err, errPassing) {
			return err
		}
	}
	return err
}

// Disconnect closes the connection.
func (m *Management) Disconnect(ctx context.Context, conn string) error {
	err := m.call(ctx, http.MethodDelete, conn, nil)
	if errors.Is(err, ErrGone) {
		return nil
	}
	return err
}

func (m *Management) call(ctx context.Context, method, conn string, body []byte) error {
	u := m.Endpoint + "/@connections/" + url.PathEscape(conn)
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("live: management request: %w", err)
	}
	sum := sha256.Sum256(body)
	if m.Credentials != nil {
		creds, err := m.Credentials.Retrieve(ctx)
		if err != nil {
			return fmt.Errorf("live: credentials for the management API: %w", err)
		}
		if err := v4.NewSigner().SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), "execute-api", m.Region, time.Now()); err != nil {
			return fmt.Errorf("live: signing a management request: %w", err)
		}
	}
	client := m.HTTP
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("live: %s @connections: %w (%w)", method, err, errPassing)
	}
	defer res.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(res.Body, 1<<10))
	switch {
	case res.StatusCode == http.StatusGone:
		return ErrGone
	case res.StatusCode == http.StatusTooManyRequests || res.StatusCode/100 == 5:
		return fmt.Errorf("live: %s @connections: %s: %s (%w)", method, res.Status, bytes.TrimSpace(msg), errPassing)
	case res.StatusCode/100 != 2:
		return fmt.Errorf("live: %s @connections: %s: %s", method, res.Status, bytes.TrimSpace(msg))
	}
	return nil
}
