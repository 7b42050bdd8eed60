package sidecar

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/askplane/askplane/internal/limit"
)

// Edge bounds what one client, and all of them together, can take from
// the server. Every field is optional; the zero Edge is the defaults
// listed with each field.
//
//	"edge": {
//	  "trustedProxyHeader": "",        // take the client address from this header, set by
//	                                   //   the load balancer in front (e.g. "X-Forwarded-For",
//	                                   //   "Fly-Client-IP"); off by default: the peer address
//	  "perAddress": {"requests": 120, "windowSeconds": 60},
//	                                   // questions from one client address, all sites together
//	  "newSubjects": {"requests": 20, "windowSeconds": 60},
//	                                   // anonymous subjects (cookies) minted for one address
//	  "failedAuth": {"requests": 10, "windowSeconds": 60},
//	                                   // refused bearer tokens from one address before it
//	                                   //   is refused outright
//	  "maxConnections": 1024,          // open connections, all clients together; at the
//	                                   //   cap the longest idle kept-alive one is closed
//	  "maxConnectionsPerAddress": 64,  // open connections from one client address (the TCP
//	                                   //   peer, IPv6 by /64): past it a new one replaces the
//	                                   //   address's longest idle one, or gets 503; off by
//	                                   //   default behind trustedProxyHeader
//	  "maxHeaderBytes": 16384,         // request line and headers
//	  "readHeaderTimeout": "10s",      // to read a request's headers
//	  "bodyTimeout": "10s",            // to read a question's body
//	  "idleTimeout": "120s",           // a kept-alive connection with no request
//	  "shutdownTimeout": "10s"         // SIGTERM: answers in flight end, then the process does
//	}
type Edge struct {
	TrustedProxyHeader string     `json:"trustedProxyHeader"`
	PerAddress         *RateLimit `json:"perAddress"`
	NewSubjects        *RateLimit `json:"newSubjects"`
	FailedAuth         *RateLimit `json:"failedAuth"`
	MaxConnections     int        `json:"maxConnections"`
	MaxConnsPerAddress int        `json:"maxConnectionsPerAddress"`
	MaxHeaderBytes     int        `json:"maxHeaderBytes"`
	ReadHeaderTimeout  Duration   `json:"readHeaderTimeout"`
	BodyTimeout        Duration   `json:"bodyTimeout"`
	IdleTimeout        Duration   `json:"idleTimeout"`
	ShutdownTimeout    Duration   `json:"shutdownTimeout"`
	LimitTimeout       Duration   `json:"limitTimeout"`
}

// Defaults of Edge.
var (
	DefaultPerAddress  = RateLimit{Requests: 120, WindowSeconds: 60}
	DefaultNewSubjects = RateLimit{Requests: 20, WindowSeconds: 60}
	DefaultFailedAuth  = RateLimit{Requests: 10, WindowSeconds: 60}
)

// Defaults of Edge.
const (
	DefaultMaxConnections = 1024
	// DefaultMaxConnectionsPerAddress is one address's share of them
	// (never more than maxConnections).
	DefaultMaxConnectionsPerAddress = 64
	DefaultMaxHeaderBytes           = 16 << 10
	DefaultReadHeaderTimeout        = 10 * time.Second
	DefaultBodyTimeout              = 10 * time.Second
	DefaultIdleTimeout              = 120 * time.Second
	DefaultShutdownTimeout          = 10 * time.Second
)

// Duration is a time.Duration written as a Go duration string ("10s").
type Duration time.Duration

// UnmarshalJSON reads a duration string; the error never quotes it.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errors.New("must be a duration string such as \"10s\"")
	}
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		return errors.New("must be a positive duration such as \"10s\"")
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d Duration) or(def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return time.Duration(d)
}

func (e *Edge) check() error {
	for _, r := range []struct {
		name string
		r    *RateLimit
	}{{"perAddress", e.PerAddress}, {"newSubjects", e.NewSubjects}, {"failedAuth", e.FailedAuth}} {
		if r.r != nil {
			if err := r.r.check(r.name); err != nil {
				return err
			}
		}
	}
	if h := e.TrustedProxyHeader; h != "" && (len(h) > 64 || limit.ClientAddr{Header: h}.Validate() != nil) {
		return errors.New("trustedProxyHeader: must be a header name such as X-Forwarded-For (Forwarded is not read)")
	}
	switch {
	case e.MaxConnections < 0 || e.MaxConnections > 1_000_000:
		return errors.New("maxConnections: must be 1 to 1000000")
	case e.MaxConnsPerAddress < 0 || e.MaxConnsPerAddress > 1_000_000:
		return errors.New("maxConnectionsPerAddress: must be 1 to 1000000")
	case e.MaxHeaderBytes != 0 && (e.MaxHeaderBytes < 4<<10 || e.MaxHeaderBytes > 1<<20):
		return fmt.Errorf("maxHeaderBytes: must be %d to %d", 4<<10, 1<<20)
	}
	for _, d := range []struct {
		name string
		d    Duration
	}{{"readHeaderTimeout", e.ReadHeaderTimeout}, {"bodyTimeout", e.BodyTimeout}, {"idleTimeout", e.IdleTimeout}, {"shutdownTimeout", e.ShutdownTimeout}} {
		if time.Duration(d.d) > 10*time.Minute {
			return fmt.Errorf("%s: at most 10m", d.name)
		}
	}
	if time.Duration(e.LimitTimeout) > 10*time.Second {
		return errors.New("limitTimeout: at most 10s")
	}
	return nil
}

// connsPerAddress is one client address's share of maxConns: the
// configured one, else DefaultMaxConnectionsPerAddress (at most maxConns),
// or none behind a trusted proxy, where every peer is the proxy.
func (e *Edge) connsPerAddress(maxConns int) int {
	switch {
	case e.MaxConnsPerAddress > 0:
		return e.MaxConnsPerAddress
	case e.TrustedProxyHeader != "":
		return 0
	}
	return min(DefaultMaxConnectionsPerAddress, maxConns)
}

func rateOr(r *RateLimit, def RateLimit) RateLimit {
	if r == nil {
		return def
	}
	return *r
}

// Generations caps a site's answers being written at once, so what a
// model costs is bounded by the config, never by the clients: a question
// past Max waits up to WaitMs for one of Queue places, then gets 503
// ASK_RATE_LIMITED with Retry-After.
//
//	"generations": {"max": 4, "queue": 16, "waitMs": 2000}
//
// Omitted: 4 at once for a model generator, 64 for the extractive one
// (which costs only CPU), with a queue of four times that; waitMs 0 (or
// omitted) means 2 s.
type Generations struct {
	Max    int `json:"max"`
	Queue  int `json:"queue"`
	WaitMs int `json:"waitMs"`
}

// Defaults of Generations.
const (
	DefaultModelGenerations      = 4
	DefaultExtractiveGenerations = 64
	DefaultGenerationWait        = 2 * time.Second
)

func (g *Generations) check() error {
	switch {
	case g.Max < 1 || g.Max > 10_000:
		return errors.New("generations.max: must be 1 to 10000")
	case g.Queue < 0 || g.Queue > 10_000:
		return errors.New("generations.queue: must be 0 to 10000")
	case g.WaitMs < 0 || g.WaitMs > 60_000:
		return errors.New("generations.waitMs: must be 0 to 60000")
	}
	return nil
}
