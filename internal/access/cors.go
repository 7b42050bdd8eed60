package access

import (
	"net/http"
	"strconv"
	"time"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/protocol"
)

// CORS lets pages on the allowed origins call next from another origin,
// with credentials, so a widget on docs.example.com can ask a sidecar on
// ask.example.com and carry its subject cookie (which then needs
// SameSite=None and Secure). Requests from other origins pass through
// without CORS headers, so the browser withholds the response, and next
// (Policy) refuses them anyway; a preflight from another origin gets 403.
//
// Only what the widget needs is allowed: POST with Content-Type,
// Authorization and Idempotency-Key (one per question, so a retry joins
// its run), and reading X-Request-Id, Link, Retry-After and
// X-Askplane-Run (the run to read again when a stream drops). The run
// routes' GET and the cancel's bodiless POST are simple requests.
type CORS struct {
	Origins []string
	// MaxAge is how long a browser may cache a preflight; 0 means 10 minutes.
	MaxAge time.Duration
	Next   http.Handler
}

// Preflight answers.
const (
	corsMethods = "POST"
	corsHeaders = "Content-Type, Authorization, " + protocol.IdempotencyHeader
	corsExpose  = "X-Request-Id, Link, Retry-After, " + protocol.RunHeader
)

// ServeHTTP implements http.Handler.
func (c *CORS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Add("Vary", "Origin")
	origin := r.Header.Get("Origin")
	allowed := origin != "" && len(r.Header.Values("Origin")) == 1 && containsFold(c.Origins, origin)
	if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
		h.Add("Vary", "Access-Control-Request-Method")
		h.Add("Vary", "Access-Control-Request-Headers")
		if !allowed || r.Header.Get("Access-Control-Request-Method") != http.MethodPost {
			apierr.Write(w, apierr.Forbidden)
			return
		}
		maxAge := c.MaxAge
		if maxAge <= 0 {
			maxAge = 10 * time.Minute
		}
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		h.Set("Access-Control-Allow-Methods", corsMethods)
		h.Set("Access-Control-Allow-Headers", corsHeaders)
		h.Set("Access-Control-Max-Age", strconv.Itoa(int(maxAge/time.Second)))
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if allowed {
		h.Set("Access-Control-Allow-Origin", origin)
		h.Set("Access-Control-Allow-Credentials", "true")
		h.Set("Access-Control-Expose-Headers", corsExpose)
	}
	c.Next.ServeHTTP(w, r)
}
