package ask

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/run"
)

// runAccess is the admission of the routes beside /v1/ask that read no
// body (the run routes, forget): the client address's budget, the same
// authentication and hints as /v1/ask, and the subject's budget. A run
// must then be this site's and this subject's (any other is "no such
// run", so ids cannot be probed).
var runAccess = [...]step{checkAddress, authenticate, checkHints, checkSubjectRate}

// sideRoute starts a request of a route beside /v1/ask that reads no
// body (the run routes, forget): its exchange and request id, and the
// protocol's 405 for another method than method.
func (h *Handler) sideRoute(w http.ResponseWriter, r *http.Request, method string) (*exchange, bool) {
	x := &exchange{h: h, w: w, r: r, start: h.cfg.Now(), id: h.requestID(), rc: http.NewResponseController(w)}
	w.Header().Set("X-Request-Id", x.id)
	if r.Method != method {
		w.Header().Set("Allow", method)
		x.fail(errMethod)
		return nil, false
	}
	return x, true
}

// loadRun loads the run the path names, once runAccess has admitted the
// request: it must be this site's and this subject's.
func (x *exchange) loadRun(ctx context.Context) (run.Run, error) {
	d := x.h.cfg.Durable
	id := x.r.PathValue("id")
	if d == nil || !run.SafeID(id) {
		return run.Run{}, errNoRun
	}
	r, err := d.Worker.Store.Get(ctx, id)
	switch {
	case run.CodeOf(err) == run.CodeNotFound:
		return run.Run{}, errNoRun
	case err != nil:
		x.h.log.Error("ask: loading a run failed", "requestId", x.id, "err", err)
		return run.Run{}, errInternal
	case r.Site != x.site.SiteID || r.Subject != x.subject:
		return run.Run{}, errNoRun
	}
	return r, nil
}

// ServeEvents answers GET /v1/runs/{id}/events?after=N: the run's events
// after the N the reader saw, then the live run's until it ends.
func (h *Handler) ServeEvents(w http.ResponseWriter, r *http.Request) {
	x, ok := h.sideRoute(w, r, http.MethodGet)
	if !ok {
		return
	}
	ctx, stop := context.WithCancelCause(r.Context())
	defer stop(nil)
	if !h.untilShutdown(ctx, stop) {
		x.fail(errShuttingDown)
		return
	}
	limit := time.Duration(h.cfg.Site.Limits.RequestTimeoutMs) * time.Millisecond
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if !x.admit(ctx, runAccess[:]) {
		return
	}
	rn, err := x.loadRun(ctx)
	if err != nil {
		x.fail(err)
		return
	}
	after := 0
	if v := r.URL.Query().Get("after"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > run.MaxEvents {
			x.fail(badAfter)
			return
		}
		after = n
	}
	x.metric(MetricStreamResumed, 1, UnitCount, OutcomeOK)
	x.streamRun(ctx, rn.ID, after, nil)
}

var badAfter = &Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: "after must be a count of events."}

// ServeCancel answers POST /v1/runs/{id}/cancel: Stop. No attempt starts
// after it; the run ends cancelled (at once when no worker holds it, else
// by its worker within a lease renewal, at once on this instance).
func (h *Handler) ServeCancel(w http.ResponseWriter, r *http.Request) {
	x, ok := h.sideRoute(w, r, http.MethodPost)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), DefaultBootstrapTimeout)
	defer cancel()
	if !x.admit(ctx, runAccess[:]) {
		return
	}
	rn, err := x.loadRun(ctx)
	if err != nil {
		x.fail(err)
		return
	}
	rn, err = h.cfg.Durable.Worker.Cancel(ctx, rn.ID, CancelEvent())
	if err != nil {
		h.log.Error("ask: cancelling a run failed", "requestId", x.id, "err", err)
		x.fail(errInternal)
		return
	}
	closeUnread(w, r)
	body, _ := json.Marshal(map[string]any{"run": rn.ID, "state": rn.State, "cancelRequested": rn.CancelRequested})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(body)
}
