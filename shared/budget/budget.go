// Package budget is each Group's request budget in one process: a token
// bucket per Group that refills at its per-minute rate and holds at most a
// minute's worth, so a Group may burst and then goes on at its rate. A
// request over budget is answered 429 with Retry-After, before it reads
// anything.
//
// The budget is per process on purpose. Counting in the store would make
// every request a write (on DynamoDB 1 WCU, three times what a document
// GET now costs) to refuse the rare flood; counted here it costs nothing.
// Across processes the total is bounded by how many there can be: on AWS
// the api function's reserved concurrency (the stack's setting) times the
// budget is the most one Group can make the product serve.
package budget

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxGroups bounds the buckets kept; beyond it, full (idle) buckets go.
const maxGroups = 10_000

// Budget holds the buckets. The zero value is not usable; see New.
type Budget struct {
	perMinute int
	now       func() time.Time

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// New returns a budget of perMinute requests per Group (perMinute <= 0:
// no budget, Take always allows); now is the clock (nil: time.Now).
func New(perMinute int, now func() time.Time) *Budget {
	if now == nil {
		now = time.Now
	}
	return &Budget{perMinute: perMinute, now: now, buckets: map[string]*rate.Limiter{}}
}

// Take spends one request of group's budget. When the budget is spent it
// spends nothing and returns false with the time until a request fits.
func (b *Budget) Take(group string) (ok bool, retryAfter time.Duration) {
	if b == nil || b.perMinute <= 0 {
		return true, 0
	}
	now := b.now()
	b.mu.Lock()
	defer b.mu.Unlock()
	lim, found := b.buckets[group]
	if !found {
		if len(b.buckets) >= maxGroups {
			b.dropIdle(now)
		}
		lim = rate.NewLimiter(rate.Limit(float64(b.perMinute)/60), b.perMinute)
		b.buckets[group] = lim
	}
	r := lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// dropIdle forgets the full buckets: a new one starts full too.
func (b *Budget) dropIdle(now time.Time) {
	for g, lim := range b.buckets {
		if lim.TokensAt(now) >= float64(b.perMinute) {
			delete(b.buckets, g)
		}
	}
}

// Seconds rounds a wait up to whole seconds, for Retry-After.
func Seconds(d time.Duration) int { return int(math.Ceil(d.Seconds())) }
