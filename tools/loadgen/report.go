package loadgen

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"time"
)

// Percentiles of a latency distribution, in milliseconds.
type Percentiles struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50Ms"`
	P90   float64 `json:"p90Ms"`
	P99   float64 `json:"p99Ms"`
	Max   float64 `json:"maxMs"`
}

// Report is the result of one run. Rates divide by the measured window
// (warm-up excluded); latencies are of answered requests only, since a
// 422 or 429 costs the server far less than an answer.
type Report struct {
	Mode       string  `json:"mode"` // "closed" (max throughput) or "open" (constant arrival)
	Workers    int     `json:"workers"`
	TargetRate float64 `json:"targetRate"` // requests/s asked for; 0 in a closed loop
	Seconds    float64 `json:"seconds"`    // measured window
	Started    string  `json:"started"`    // RFC 3339, UTC

	Requests    int     `json:"requests"` // finished in the window
	RequestRate float64 `json:"requestsPerSecond"`
	Answered    int     `json:"answered"`
	AnswerRate  float64 `json:"answeredPerSecond"`
	// Designed outcomes, not errors.
	RateLimited int `json:"rateLimited"`
	NoSources   int `json:"noGroundedSources"`
	// NoSourcesUnexpected counts 422s for heading questions (a subset of
	// NoSources): retrieval found nothing where the corpus has the words.
	NoSourcesUnexpected int `json:"noGroundedSourcesUnexpected"`
	// Missed counts open-loop arrivals dropped because every worker was
	// busy and the arrival queue was full: the client, not the server,
	// fell behind (or the server is past saturation).
	Missed int `json:"missedArrivals"`

	FirstEvent Percentiles `json:"firstEvent"`
	Total      Percentiles `json:"total"`
	Lag        Percentiles `json:"startLag"` // open loop: scheduled → sent
	// FirstEventSent is the time to the first event from when the request
	// was actually sent (FirstEvent minus Lag): the server's share when
	// the load generator itself falls behind on a busy machine.
	FirstEventSent Percentiles `json:"firstEventFromSend"`

	ErrorCount int            `json:"errorCount"`
	Errors     map[string]int `json:"errors"` // by kind, e.g. "http_500:ASK_INTERNAL"
}

// maxSamples bounds the latencies one run keeps (2 M × 4 durations); past
// it requests are still counted but their latencies dropped.
const maxSamples = 2_000_000

// tally accumulates samples; each worker owns one, merged at the end, so
// recording takes no lock.
type tally struct {
	requests, answered, rateLimited, noSources, noSourcesUnexpected int
	errors                                                          map[string]int
	first, total, lag, sent                                         []time.Duration
}

func (t *tally) add(s *Sample) {
	t.requests++
	switch s.Outcome {
	case Answered:
		t.answered++
		if len(t.first) < maxSamples {
			t.first = append(t.first, s.FirstEvent)
			t.total = append(t.total, s.Total)
			t.sent = append(t.sent, s.FirstEvent-s.Lag)
		}
	case RateLimited:
		t.rateLimited++
	case NoSources:
		t.noSources++
		if !s.Unanswerable {
			t.noSourcesUnexpected++
		}
	default:
		if t.errors == nil {
			t.errors = make(map[string]int)
		}
		t.errors[s.errorKey()]++
	}
	if len(t.lag) < maxSamples {
		t.lag = append(t.lag, s.Lag)
	}
}

func (t *tally) merge(o *tally) {
	t.requests += o.requests
	t.answered += o.answered
	t.rateLimited += o.rateLimited
	t.noSources += o.noSources
	t.noSourcesUnexpected += o.noSourcesUnexpected
	for k, v := range o.errors {
		if t.errors == nil {
			t.errors = make(map[string]int)
		}
		t.errors[k] += v
	}
	t.first = append(t.first, o.first[:min(len(o.first), maxSamples-len(t.first))]...)
	t.total = append(t.total, o.total[:min(len(o.total), maxSamples-len(t.total))]...)
	t.lag = append(t.lag, o.lag[:min(len(o.lag), maxSamples-len(t.lag))]...)
	t.sent = append(t.sent, o.sent[:min(len(o.sent), maxSamples-len(t.sent))]...)
}

// report turns the tally of a window of d into a Report.
func (t *tally) report(d time.Duration) *Report {
	r := &Report{
		Seconds:             d.Seconds(),
		Requests:            t.requests,
		Answered:            t.answered,
		RateLimited:         t.rateLimited,
		NoSources:           t.noSources,
		NoSourcesUnexpected: t.noSourcesUnexpected,
		FirstEvent:          percentiles(t.first),
		Total:               percentiles(t.total),
		Lag:                 percentiles(t.lag),
		FirstEventSent:      percentiles(t.sent),
		Errors:              map[string]int{},
	}
	for k, v := range t.errors {
		r.Errors[k] = v
		r.ErrorCount += v
	}
	if s := d.Seconds(); s > 0 {
		r.RequestRate = float64(t.requests) / s
		r.AnswerRate = float64(t.answered) / s
	}
	return r
}

// percentiles sorts ds in place and reads the nearest-rank percentiles.
func percentiles(ds []time.Duration) Percentiles {
	if len(ds) == 0 {
		return Percentiles{}
	}
	slices.Sort(ds)
	at := func(p float64) float64 {
		i := int(p*float64(len(ds))+0.999999) - 1 // nearest rank: ceil(p·n) − 1
		return ms(ds[min(max(i, 0), len(ds)-1)])
	}
	return Percentiles{Count: len(ds), P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: ms(ds[len(ds)-1])}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// WriteTable writes the report for a human: one block, aligned.
func (r *Report) WriteTable(w io.Writer) error {
	mode := "closed loop (max throughput)"
	if r.Mode == "open" {
		mode = fmt.Sprintf("open loop at %.0f req/s", r.TargetRate)
	}
	p := func(name string, x Percentiles) string {
		return fmt.Sprintf("  %-22s %9.2f %9.2f %9.2f %9.2f  (n=%d)\n", name, x.P50, x.P90, x.P99, x.Max, x.Count)
	}
	s := fmt.Sprintf("%s, %d workers, %.1f s from %s\n", mode, r.Workers, r.Seconds, r.Started)
	s += fmt.Sprintf("  requests %d (%.0f/s), answered %d (%.0f/s)\n", r.Requests, r.RequestRate, r.Answered, r.AnswerRate)
	s += fmt.Sprintf("  designed: 429 rate limited %d, 422 no grounded sources %d (%d for heading questions)\n",
		r.RateLimited, r.NoSources, r.NoSourcesUnexpected)
	if r.Mode == "open" {
		s += fmt.Sprintf("  missed arrivals %d\n", r.Missed)
	}
	s += fmt.Sprintf("  %-22s %9s %9s %9s %9s\n", "latency (ms)", "p50", "p90", "p99", "max")
	s += p("first event", r.FirstEvent)
	s += p("total", r.Total)
	if r.Mode == "open" {
		s += p("start lag", r.Lag)
		s += p("first event from send", r.FirstEventSent)
	}
	s += fmt.Sprintf("  errors %d\n", r.ErrorCount)
	keys := make([]string, 0, len(r.Errors))
	for k := range r.Errors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s += fmt.Sprintf("    %-36s %d\n", k, r.Errors[k])
	}
	_, err := io.WriteString(w, s)
	return err
}
