package loadgen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// Options configure a Run.
type Options struct {
	// URL is the Ask endpoint, e.g. http://127.0.0.1:8080/v1/ask (with a
	// ?corpus= hint when the server routes several sites).
	URL string
	// URLs, when set, are the endpoints of several instances with no load
	// balancer in front: worker i asks URLs[i % len(URLs)] (each worker
	// stays on one, as a browser behind a sticky balancer would), and URL
	// is not used.
	URLs []string
	// Origin is sent as the Origin header when set.
	Origin string
	// Workers is the number of concurrent simulated browsers (1 to
	// MaxWorkers), each with its own keep-alive connection and cookie.
	Workers int
	// Rate is the target arrival rate in requests/s with constant spacing
	// (open loop); 0 means each worker asks again as soon as it has its
	// answer (closed loop, maximum throughput).
	Rate float64
	// Duration is the measured window; Warmup runs before it and is not
	// counted.
	Duration, Warmup time.Duration
	// Questions are asked in order, cycling, shared by all workers.
	Questions []Question
	// TurnsPerSession is how many questions a worker asks under one
	// sessionId before starting a new one; 0 sends no sessionId.
	TurnsPerSession int
	// Timeout bounds one request; 0 means DefaultTimeout.
	Timeout time.Duration
	// Transport replaces the HTTP transport (tests); nil means a fresh
	// keep-alive transport sized to Workers.
	Transport http.RoundTripper
}

// Bounds and defaults of Options.
const (
	MaxWorkers     = 4096
	MaxRate        = 1_000_000
	MaxDuration    = 24 * time.Hour
	DefaultTimeout = 30 * time.Second
	// arrivalQueue is how many open-loop arrivals may wait per worker
	// before further ones are counted as missed.
	arrivalQueue = 64
)

// ErrOptions wraps every error of Options.Validate.
var ErrOptions = errors.New("loadgen: invalid options")

func optErr(msg string) error { return fmt.Errorf("%w: %s", ErrOptions, msg) }

// Validate checks o.
func (o *Options) Validate() error {
	if len(o.URLs) > MaxWorkers {
		return optErr("URLs must be at most 4096")
	}
	targets := o.URLs
	if len(targets) == 0 {
		targets = []string{o.URL}
	}
	for _, s := range targets {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return optErr("URL must be an http(s) URL")
		}
	}
	switch {
	case o.Workers < 1 || o.Workers > MaxWorkers:
		return optErr("Workers must be 1 to 4096")
	case o.Rate < 0 || o.Rate > MaxRate:
		return optErr("Rate must be 0 to 1000000")
	case o.Duration <= 0 || o.Duration > MaxDuration || o.Warmup < 0 || o.Warmup > MaxDuration:
		return optErr("Duration must be positive and Duration and Warmup at most 24h")
	case len(o.Questions) == 0:
		return optErr("Questions must not be empty")
	case o.TurnsPerSession < 0 || o.Timeout < 0:
		return optErr("TurnsPerSession and Timeout must not be negative")
	}
	return nil
}

// Run drives the endpoint for Warmup+Duration and reports the measured
// window. Requests still in flight when the window closes are waited for
// (up to the request timeout) but not counted, so the window's rate is
// not inflated by a final burst.
func Run(ctx context.Context, o Options) (*Report, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	tr := o.Transport
	if tr == nil {
		t := &http.Transport{
			Proxy:               nil, // loopback benchmarks must not go through a proxy
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        o.Workers,
			MaxIdleConnsPerHost: o.Workers,
			MaxConnsPerHost:     o.Workers,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
			ForceAttemptHTTP2:   false,
		}
		defer t.CloseIdleConnections()
		tr = t
	}
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	measureFrom := start.Add(o.Warmup)
	end := measureFrom.Add(o.Duration)
	var next atomic.Uint64 // question cursor shared by all workers
	question := func() Question {
		return o.Questions[(next.Add(1)-1)%uint64(len(o.Questions))]
	}

	var arrivals chan time.Time
	var missed atomic.Int64
	if o.Rate > 0 {
		arrivals = make(chan time.Time, min(o.Workers*arrivalQueue, 1<<16))
		go schedule(ctx, o.Rate, start, end, measureFrom, arrivals, &missed)
	}

	tallies := make([]tally, o.Workers)
	var wg sync.WaitGroup
	for i := range o.Workers {
		target := o.URL
		if len(o.URLs) > 0 {
			target = o.URLs[i%len(o.URLs)]
		}
		w := &worker{id: i, url: target, origin: o.Origin, client: client, turns: o.TurnsPerSession, timeout: timeout}
		wg.Go(func() {
			t := &tallies[i]
			for {
				at := time.Now()
				if arrivals != nil {
					var ok bool
					select {
					case at, ok = <-arrivals:
						if !ok {
							return
						}
					case <-ctx.Done():
						return
					}
				} else if !at.Before(end) || ctx.Err() != nil {
					return
				}
				s := w.ask(ctx, question(), at)
				// Count what started and ended inside the window, and
				// nothing cut short by the caller cancelling the run.
				if !at.Before(measureFrom) && time.Now().Before(end) && ctx.Err() == nil {
					t.add(&s)
				}
			}
		})
	}
	wg.Wait()
	var all tally
	for i := range tallies {
		all.merge(&tallies[i])
	}
	window := min(time.Since(measureFrom), o.Duration)
	r := all.report(window)
	r.Mode, r.Workers, r.TargetRate = "closed", o.Workers, o.Rate
	if o.Rate > 0 {
		r.Mode = "open"
		r.Missed = int(missed.Load())
	}
	r.Started = measureFrom.UTC().Format(time.RFC3339)
	if err := ctx.Err(); err != nil && r.Requests == 0 {
		return r, err
	}
	return r, nil
}

// schedule sends arrival times spaced 1/rate apart from start until end,
// then closes arrivals. When the queue is full the arrival is dropped and
// counted in missed (within the measured window only): a constant arrival
// process never waits for the server.
func schedule(ctx context.Context, rate float64, start, end, measureFrom time.Time, arrivals chan<- time.Time, missed *atomic.Int64) {
	defer close(arrivals)
	interval := time.Duration(float64(time.Second) / rate)
	for i := int64(0); ; i++ {
		at := start.Add(time.Duration(i) * interval)
		if !at.Before(end) {
			return
		}
		if d := time.Until(at); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return
			}
		}
		select {
		case arrivals <- at:
		default:
			if !at.Before(measureFrom) {
				missed.Add(1)
			}
		}
	}
}
