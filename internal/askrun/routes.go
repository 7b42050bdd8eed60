package askrun

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/protocol"
)

// The run routes beside /v1/ask. Each is admitted by the site's
// ask.Handler (AdmitBodiless: the client address's budget, the same
// authentication and hints as /v1/ask, and the subject's budget); a run
// must then be this site's and this subject's (any other is "no such
// run", so ids cannot be probed).

// Events answers GET /v1/runs/{id}/events?after=N: the run's events
// after the N the reader saw, then the live run's until it ends.
func Events(a *ask.Handler, h *Runs) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, stop := context.WithCancelCause(r.Context())
		defer stop(nil)
		a.UntilShutdown(ctx, stop)
		limit := time.Duration(h.site.Limits.RequestTimeoutMs) * time.Millisecond
		ctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		c, rn, ok := h.admit(ctx, a, w, r, http.MethodGet)
		if !ok {
			return
		}
		after := 0
		if v := r.URL.Query().Get("after"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > durable.MaxEvents {
				a.Refuse(w, r, c, badAfter)
				return
			}
			after = n
		}
		h.metric(c.RequestID, MetricStreamResumed, 1, ask.UnitCount, ask.OutcomeOK)
		h.stream(ctx, w, r, reader{id: c.RequestID, start: c.Start}, rn.ID, after, nil)
	})
}

var badAfter = &apierr.Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: "after must be a count of events."}

// Cancel answers POST /v1/runs/{id}/cancel: Stop. No attempt starts
// after it; the run ends cancelled (at once when no worker holds it, else
// by its worker within a lease renewal, at once on this instance).
func Cancel(a *ask.Handler, h *Runs) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), ask.DefaultBootstrapTimeout)
		defer cancel()
		c, rn, ok := h.admit(ctx, a, w, r, http.MethodPost)
		if !ok {
			return
		}
		rn, err := h.cfg.Worker.Cancel(ctx, rn.ID, CancelEvent())
		if err != nil {
			h.log.Error("ask: cancelling a run failed", "requestId", c.RequestID, "err", err)
			a.Refuse(w, r, c, ask.ErrInternal)
			return
		}
		apierr.CloseUnread(w, r)
		body, _ := json.Marshal(map[string]any{"run": rn.ID, "state": rn.State, "cancelRequested": rn.CancelRequested})
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(body)
	})
}

// admit admits a run route's request as /v1/ask's (without a body) and
// loads the run its path names; false when it refused the request,
// having written why.
func (h *Runs) admit(ctx context.Context, a *ask.Handler, w http.ResponseWriter, r *http.Request, method string) (ask.Caller, durable.Run, bool) {
	c, ok := a.AdmitBodiless(ctx, w, r, method)
	if !ok {
		return c, durable.Run{}, false
	}
	rn, err := h.load(ctx, r, c)
	if err != nil {
		a.Refuse(w, r, c, err)
		return c, durable.Run{}, false
	}
	return c, rn, true
}

// load loads the run the path names, once the request is admitted: it
// must be this site's and this subject's.
func (h *Runs) load(ctx context.Context, r *http.Request, c ask.Caller) (durable.Run, error) {
	id := r.PathValue("id")
	if !durable.SafeID(id) {
		return durable.Run{}, errNoRun
	}
	rn, err := h.cfg.Worker.Store.Get(ctx, id)
	switch {
	case durable.CodeOf(err) == durable.CodeNotFound:
		return durable.Run{}, errNoRun
	case err != nil:
		h.log.Error("ask: loading a run failed", "requestId", c.RequestID, "err", err)
		return durable.Run{}, ask.ErrInternal
	case rn.Site != c.Site.SiteID || rn.Subject != c.Subject:
		return durable.Run{}, errNoRun
	}
	return rn, nil
}
