package billing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v83"

	"github.com/oficina/oficina/shared/drive"
	"github.com/oficina/oficina/shared/ids"
	"github.com/oficina/oficina/shared/module"
	"github.com/oficina/oficina/shared/store"
	"github.com/oficina/oficina/shared/stream"
)

// Storage is what a Group stores, as billed: its records' documents and
// its drive's files (every version, trash included), in bytes.
func (m *Module) Storage(ctx context.Context, db string) (int64, error) {
	c, err := stream.Read(ctx, m.st, db)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, k := range c.Klass {
		n += k.Bytes
	}
	return n + c.Tally(drive.TallyDrive)["bytes"], nil
}

// MB is bytes in billed megabytes (1,000,000 bytes; a started one counts).
func MB(bytes int64) int64 { return (bytes + BytesPerMB - 1) / BytesPerMB }

// reportGroupUsage is the daily job billing.usage for one Group: a paying
// Group's storage in MB goes to Stripe as one meter event for the round's
// UTC day. The event's identifier is the Group and the day, and a record
// remembers a sent report, so a re-run (or an overlapping run on AWS)
// sends nothing twice; a Group that failed is tried again by the next run
// of the day.
func (m *Module) reportGroupUsage(ctx context.Context, ev module.JobEvent, db string) error {
	d, err := m.st.Get(ctx, ids.AccountsDB, db)
	if errors.Is(err, store.ErrDeleted) || errors.Is(err, store.ErrNotFound) {
		return nil // deleted since the tasks were queued
	}
	if err != nil {
		return fmt.Errorf("usage of %s: %w", db, err)
	}
	var a struct {
		Plan     string `json:"v7_plan"`
		Customer string `json:"platform_customer_id"`
		Livemode bool   `json:"livemode"`
	}
	if err := json.Unmarshal(d.Body, &a); err != nil {
		return fmt.Errorf("decode %s: %w", db, err)
	}
	if (a.Plan != PlanPro && a.Plan != PlanCorp) || a.Customer == "" {
		return nil
	}
	if err := m.reportGroup(ctx, db, a.Customer, a.Livemode, ev.Time.UTC().Format("2006-01-02"), ev); err != nil {
		return fmt.Errorf("usage of %s: %w", db, err)
	}
	return nil
}

func (m *Module) reportGroup(ctx context.Context, db, customer string, live bool, day string, ev module.JobEvent) error {
	key := db + "/" + day
	switch _, err := m.st.GetRecord(ctx, kindUsage, key); {
	case err == nil:
		return nil // reported already
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	bytes, err := m.Storage(ctx, db)
	if err != nil {
		return err
	}
	sc, _, err := m.client(ctx, live)
	if err != nil {
		return err
	}
	id := db + "-" + day
	_, err = sc.V1BillingMeterEvents.Create(ctx, &stripe.BillingMeterEventCreateParams{
		EventName:  stripe.String(m.cfg.MeterEvent),
		Identifier: stripe.String(id),
		Payload:    map[string]string{"stripe_customer_id": customer, "value": strconv.FormatInt(MB(bytes), 10)},
		Timestamp:  stripe.Int64(ev.Time.Unix()),
		Params:     stripe.Params{IdempotencyKey: stripe.String("usage-" + id)},
	})
	if err != nil {
		return stripeErr("meter event", err)
	}
	rec := store.Record{Kind: kindUsage, Key: key, Value: []byte(strconv.FormatInt(bytes, 10)), ExpiresAt: time.Now().Add(usageMemory)}
	if err := m.st.PutRecord(ctx, rec, false); err != nil {
		return fmt.Errorf("remember usage report: %w", err)
	}
	m.log.InfoContext(ctx, "usage reported", "account", db, "day", day, "bytes", bytes)
	return nil
}
