package billing

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v83"

	"github.com/oficina/oficina/shared/config"
	"github.com/oficina/oficina/shared/fault"
)

// TestKeySource: the configuration's keys win; the rest come from the
// Secrets Manager secret, read once per few minutes; a failed refresh
// keeps the last keys, a failed first read is an error.
func TestKeySource(t *testing.T) {
	calls := 0
	var fail error
	k := newKeySource(config.Stripe{SecretsARN: "oficina/dev/stripe", PublishableKey: "pk_test_config"}, nil, slog.New(slog.DiscardHandler))
	k.fetch = func(_ context.Context, arn string) (secretJSON, error) {
		calls++
		if arn != "oficina/dev/stripe" {
			t.Fatalf("arn %q", arn)
		}
		if fail != nil {
			return secretJSON{}, fail
		}
		return secretJSON{SecretKey: "sk_test_secret", PublishableKey: "pk_test_secret", WebhookSecret: "whsec_t",
			LiveSecretKey: "sk_live_secret", LiveWebhookSecret: "whsec_l"}, nil
	}
	ctx := context.Background()
	fail = errors.New("no network")
	if _, err := k.get(ctx, false); err == nil {
		t.Fatal("a failed first read gave keys")
	}
	fail = nil
	test, err := k.get(ctx, false)
	if err != nil || test != (keys{"sk_test_secret", "pk_test_config", "whsec_t"}) {
		t.Fatalf("test keys %+v, %v", test, err)
	}
	live, err := k.get(ctx, true)
	if err != nil || live != (keys{"sk_live_secret", "", "whsec_l"}) {
		t.Fatalf("live keys %+v, %v", live, err)
	}
	if calls != 2 {
		t.Fatalf("%d reads of the secret, want 2 (one failed, one kept)", calls)
	}
	k.fetched = time.Now().Add(-secretTTL - time.Second)
	fail = errors.New("throttled")
	if again, err := k.get(ctx, false); err != nil || again != test {
		t.Fatalf("a failed refresh lost the keys: %+v, %v", again, err)
	}
	// Without an ARN only the configuration counts.
	plain := newKeySource(config.Stripe{SecretKey: "sk_test_x"}, nil, slog.New(slog.DiscardHandler))
	if got, _ := plain.get(ctx, true); got != (keys{}) {
		t.Fatalf("live keys from nowhere: %+v", got)
	}
}

// TestStripeErr: a request Stripe refused is a 422 with a plain reason;
// a bad key, throttling and outages stay 500s with the cause kept private.
func TestStripeErr(t *testing.T) {
	for code, want := range map[int]fault.Kind{400: fault.Unprocessable, 402: fault.Unprocessable, 401: fault.Internal, 429: fault.Internal, 500: fault.Internal} {
		err := stripeErr("op", &stripe.Error{HTTPStatusCode: code, Msg: "secret detail"})
		fe, ok := fault.As(err)
		switch {
		case want == fault.Internal && ok:
			t.Errorf("%d: %v is a public error", code, err)
		case want != fault.Internal && (!ok || fe.Kind != want || fe.Reason != MsgProviderRefused):
			t.Errorf("%d: %v", code, err)
		}
	}
}
