package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/stripe/stripe-go/v83"

	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/fault"
)

// keys are one mode's Stripe keys.
type keys struct {
	Secret, Publishable, Webhook string
}

// secretJSON is the Secrets Manager secret's shape (the stack creates it
// with empty values; the operator fills them in).
type secretJSON struct {
	SecretKey          string `json:"secret_key"`
	PublishableKey     string `json:"publishable_key"`
	WebhookSecret      string `json:"webhook_secret"`
	LiveSecretKey      string `json:"live_secret_key"`
	LivePublishableKey string `json:"live_publishable_key"`
	LiveWebhookSecret  string `json:"live_webhook_secret"`
}

// keySource gives each mode's keys: the configuration's, else the
// Secrets Manager secret's, read at run time and kept for a few minutes
// (a rotated key is picked up without a deploy).
type keySource struct {
	cfg config.Stripe
	log *slog.Logger

	mu      sync.Mutex
	fetched time.Time
	secret  secretJSON
	fetch   func(ctx context.Context, arn string) (secretJSON, error)
}

const secretTTL = 5 * time.Minute

// newKeySource reads the secret with awsCfg, the deployable's AWS
// configuration (nil off AWS: a configured secret cannot be read).
func newKeySource(cfg config.Stripe, awsCfg *aws.Config, log *slog.Logger) *keySource {
	return &keySource{cfg: cfg, log: log, fetch: func(ctx context.Context, arn string) (secretJSON, error) {
		return fetchSecret(ctx, awsCfg, arn)
	}}
}

// get returns the keys of a mode (live or test); the zero value when none
// are set anywhere.
func (k *keySource) get(ctx context.Context, live bool) (keys, error) {
	c := k.cfg
	out := keys{c.SecretKey, c.PublishableKey, c.WebhookSecret}
	if live {
		out = keys{c.LiveSecretKey, c.LivePublishableKey, c.LiveWebhookSecret}
	}
	if c.SecretsARN == "" {
		return out, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if time.Since(k.fetched) > secretTTL {
		s, err := k.fetch(ctx, c.SecretsARN)
		if err != nil {
			if k.fetched.IsZero() {
				return keys{}, fmt.Errorf("stripe keys: %w", err)
			}
			k.log.WarnContext(ctx, "stripe keys not refreshed; keeping the last ones", "err", err)
		} else {
			k.secret, k.fetched = s, time.Now()
		}
	}
	s := k.secret
	from := keys{s.SecretKey, s.PublishableKey, s.WebhookSecret}
	if live {
		from = keys{s.LiveSecretKey, s.LivePublishableKey, s.LiveWebhookSecret}
	}
	if out.Secret == "" {
		out.Secret = from.Secret
	}
	if out.Publishable == "" {
		out.Publishable = from.Publishable
	}
	if out.Webhook == "" {
		out.Webhook = from.Webhook
	}
	return out, nil
}

// fetchSecret reads the secret with the function's own AWS credentials.
func fetchSecret(ctx context.Context, awsCfg *aws.Config, arn string) (secretJSON, error) {
	if awsCfg == nil {
		return secretJSON{}, fmt.Errorf("read %s: no AWS configuration (this server does not run on AWS)", arn)
	}
	out, err := secretsmanager.NewFromConfig(*awsCfg).GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: &arn})
	if err != nil {
		return secretJSON{}, fmt.Errorf("read %s: %w", arn, err)
	}
	var s secretJSON
	if out.SecretString == nil || json.Unmarshal([]byte(*out.SecretString), &s) != nil {
		return secretJSON{}, fmt.Errorf("%s: not a JSON object of Stripe keys", arn)
	}
	return s, nil
}

// client returns a Stripe client for a mode and its keys; the error is
// MsgNotConfigured when that mode has no secret key.
func (m *Module) client(ctx context.Context, live bool) (*stripe.Client, keys, error) {
	k, err := m.keys.get(ctx, live)
	if err != nil {
		return nil, keys{}, err
	}
	if k.Secret == "" {
		return nil, keys{}, fault.New(fault.BadRequest, MsgNotConfigured)
	}
	bc := &stripe.BackendConfig{
		HTTPClient:        m.httpc,
		LeveledLogger:     &stripe.LeveledLogger{Level: stripe.LevelNull},
		MaxNetworkRetries: stripe.Int64(2), // with idempotency keys stripe-go adds itself
	}
	if m.cfg.APIURL != "" {
		bc.URL = stripe.String(m.cfg.APIURL)
	}
	return stripe.NewClient(k.Secret, stripe.WithBackends(stripe.NewBackendsWithConfig(bc))), k, nil
}

// MsgProviderRefused is the 422 of a request Stripe refused.
const MsgProviderRefused = "The payment provider refused the request"

// stripeErr turns a Stripe API failure into a 500 (the cause logged,
// never sent) or, for a request Stripe refused (4xx), a 422 naming
// nothing internal.
func stripeErr(op string, err error) error {
	var se *stripe.Error
	if errors.As(err, &se) && se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500 && se.HTTPStatusCode != 401 && se.HTTPStatusCode != 429 {
		return fault.Wrap(fault.Unprocessable, MsgProviderRefused, fmt.Errorf("stripe %s: %w", op, err))
	}
	return fmt.Errorf("stripe %s: %w", op, err)
}
