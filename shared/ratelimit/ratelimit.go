// Package ratelimit limits how often a client may call a route, and says
// who the client is.
//
// Counters live in the store as expiring Incr records, one per key and
// fixed window, so a limit holds across every process and Lambda instance
// that shares the store. Use it for routes anyone may call without signing
// in (public pages, links in e-mails):
//
//	lim := ratelimit.New(st, ratelimit.Edge{OriginSecret: cfg.OriginSecret}, nil)
//	var statusPage = ratelimit.Limit{Name: "ticket-status", Max: 30, Per: time.Minute}
//	if err := lim.AllowRequest(r, statusPage); err != nil {
//		return err // a *fault.Error: 429 "Too many requests" with Retry-After
//	}
//
// The API server holds one Limiter (httpapi.Server.Limiter) and applies the
// limits of its own anonymous routes in shared/httpapi/limits.go.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/oficina/oficina/shared/fault"
	"github.com/oficina/oficina/shared/store"
)

// MsgTooManyRequests is the catalogue's reason for a 429.
const MsgTooManyRequests = "Too many requests"

// recordKind holds the counters: "<limit>:<key>:<window>" → Incr counter.
const recordKind = "rate-limit"

// Limit allows Max requests per key in each window of length Per. Windows
// are fixed (aligned on multiples of Per), so a client can make up to 2×Max
// calls across a window boundary; the limits are meant to stop floods, not
// to meter.
type Limit struct {
	Name string        // names the counter, e.g. "register"; unique per limit
	Max  int           // requests allowed per window (<= 0: no limit)
	Per  time.Duration // window length
}

// Limiter counts requests in the store.
type Limiter struct {
	st   store.Store
	edge Edge
	now  func() time.Time
}

// New returns a limiter over st. edge says how to find the client address;
// now is the clock (nil: time.Now). The clock only places requests in
// windows, so a test clock may run ahead of the store's.
func New(st store.Store, edge Edge, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{st: st, edge: edge, now: now}
}

// Edge returns how the limiter finds client addresses.
func (l *Limiter) Edge() Edge { return l.edge }

// ClientAddress is Edge.ClientAddress: the client address of r.
func (l *Limiter) ClientAddress(r *http.Request) string { return l.edge.ClientAddress(r) }

// AllowRequest counts one request of r's client address against lim.
func (l *Limiter) AllowRequest(r *http.Request, lim Limit) error {
	return l.Allow(r.Context(), lim, AddressKey(l.ClientAddress(r)))
}

// Allow counts one request of key against lim. Over the limit it returns a
// *fault.Error of kind TooManyRequests ("Too many requests") whose
// RetryAfter is the number of seconds to the end of the window; the API
// answers it with 429 and a Retry-After header.
func (l *Limiter) Allow(ctx context.Context, lim Limit, key string) error {
	if lim.Max <= 0 || lim.Per <= 0 {
		return nil
	}
	now := l.now()
	k, end := windowKey(lim, key, now)
	// The record outlives its window by one window at most, then expires.
	n, err := l.st.Incr(ctx, recordKind, k, 1, lim.Per)
	if err != nil {
		return fmt.Errorf("rate limit %s: %w", lim.Name, err)
	}
	if n > int64(lim.Max) {
		return tooMany(end.Sub(now))
	}
	return nil
}

// Spent reports, without counting, whether key has used up lim in the
// current window (Max counted): the refusal Allow would give the next
// request, or nil. With Allow counting only failures, it lets a caller
// refuse a client that failed too often before doing the work again (one
// read of the store).
func (l *Limiter) Spent(ctx context.Context, lim Limit, key string) error {
	if lim.Max <= 0 || lim.Per <= 0 {
		return nil
	}
	now := l.now()
	k, end := windowKey(lim, key, now)
	rec, err := l.st.GetRecord(ctx, recordKind, k)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("rate limit %s: %w", lim.Name, err)
	}
	n, err := strconv.ParseInt(string(rec.Value), 10, 64)
	if err != nil {
		return fmt.Errorf("rate limit %s: counter %q: %w", lim.Name, rec.Value, err)
	}
	if n >= int64(lim.Max) {
		return tooMany(end.Sub(now))
	}
	return nil
}

// windowKey is the counter of key in lim's window at now, and the window's end.
func windowKey(lim Limit, key string, now time.Time) (string, time.Time) {
	window := now.UnixNano() / int64(lim.Per)
	end := time.Unix(0, (window+1)*int64(lim.Per))
	return lim.Name + ":" + key + ":" + strconv.FormatInt(window, 10), end
}

// tooMany is the 429 with the seconds left of the window.
func tooMany(wait time.Duration) error {
	return &fault.Error{Kind: fault.TooManyRequests, Reason: MsgTooManyRequests, RetryAfter: max(1, int(math.Ceil(wait.Seconds())))}
}
