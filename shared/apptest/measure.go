package apptest

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

// Measure runs fn in b's loop (each call must answer 200) and reports the
// median latency as p50-ms and, on DynamoDB Local, the read capacity units
// and store calls per call, metered from here on.
func (e *Env) Measure(b *testing.B, fn func() Response) {
	b.Helper()
	if e.Meter != nil {
		e.Meter.Reset()
	}
	var lat []time.Duration
	for b.Loop() {
		t0 := time.Now()
		r := fn()
		lat = append(lat, time.Since(t0))
		if r.Code != http.StatusOK {
			b.Fatalf("%d %.300s", r.Code, r.Body)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	if e.Meter != nil {
		read, _, calls := e.Meter.Totals()
		b.ReportMetric(read/float64(len(lat)), "RCU/op")
		b.ReportMetric(float64(calls)/float64(len(lat)), "calls/op")
	}
}
