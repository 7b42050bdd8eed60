package ask

import (
	"context"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/protocol"
)

// sideRoute starts a request of a route beside /v1/ask that reads no
// body (the run routes, forget): its call and request id, and the
// protocol's 405 for another method than method.
func (h *Handler) sideRoute(w http.ResponseWriter, r *http.Request, method string) (*call, bool) {
	c := h.newCall(w, r)
	if r.Method != method {
		w.Header().Set("Allow", method)
		c.refuse(nil, true, errMethod)
		return nil, false
	}
	return c, true
}

// Caller is what the admission of a bodiless route established: the
// request's id and start, who asks and for which site.
type Caller struct {
	RequestID string
	Start     time.Time
	Site      *protocol.BackendSite
	Subject   string
}

// AdmitBodiless admits a request of a route beside /v1/ask that reads no
// body (internal/askrun's run routes, the sidecar's forget): its request id, the protocol's 405
// for another method than method, 503 when ctx was ended by the server's
// shutdown (UntilShutdown), then the admission of a bodiless route
// (admitCaller) under ctx. When ok is false the request has been
// answered.
func (h *Handler) AdmitBodiless(ctx context.Context, w http.ResponseWriter, r *http.Request, method string) (Caller, bool) {
	c, ok := h.sideRoute(w, r, method)
	if !ok {
		return Caller{}, false
	}
	if context.Cause(ctx) == errShutdown {
		c.refuse(nil, true, errShuttingDown)
		return Caller{}, false
	}
	a, ok := c.admitCaller(ctx, false)
	if !ok {
		return Caller{}, false
	}
	return Caller{RequestID: c.id, Start: c.start, Site: a.site, Subject: a.subject}, true
}

// Refuse answers a failure of a request AdmitBodiless admitted, as the
// handler answers its own: the error body, its metrics, the connection
// closed when a body was left unread.
func (h *Handler) Refuse(w http.ResponseWriter, r *http.Request, c Caller, err error) {
	x := &call{h: h, w: w, r: r, start: c.Start, id: c.RequestID}
	x.refuse(c.Site, true, err)
}

// Done records the request.total_ms of a request AdmitBodiless admitted
// that succeeded.
func (h *Handler) Done(c Caller) {
	x := &call{h: h, start: c.Start, id: c.RequestID}
	x.observe(c.Site, MetricRequestTotal, ms(h.cfg.Now().Sub(c.Start)), UnitMs, OutcomeOK)
}

// UntilShutdown cancels ctx with ErrShutdown once the server begins
// shutting down (Config.Shutdown), at once when it already has.
func (h *Handler) UntilShutdown(ctx context.Context, cancel context.CancelCauseFunc) {
	if !h.untilShutdown(ctx, cancel) {
		cancel(errShutdown)
	}
}
