package ask

import (
	"context"
	"net/http"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// ServeForget answers POST /v1/sessions/{id}/forget: "New conversation".
// The subject's session id on this site is deleted from the store now,
// rather than at its TTL. It keeps the rules of /v1/ask that apply to a
// request without a body (admitCaller: the client address's budget,
// authentication, the hints, the subject's budget), and it reads no
// body. The key is the authenticated subject's, so a session can only be
// forgotten by its subject; the answer is 204 whether a session was there
// or not, so ids cannot be probed. A store that cannot delete (none
// configured) answers 204 too: there is nothing to forget.
func (h *Handler) ServeForget(w http.ResponseWriter, r *http.Request) {
	x, ok := h.sideRoute(w, r, http.MethodPost)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), DefaultBootstrapTimeout)
	defer cancel()
	a, ok := x.admitCaller(ctx, false)
	if !ok {
		return
	}
	id := r.PathValue("id")
	if !protocol.ValidIdentifier(id) {
		x.fail(errSessionID)
		return
	}
	if d, ok := h.cfg.Sessions.(session.Deleter); ok {
		if _, err := d.Delete(ctx, session.Key{SiteID: a.site.SiteID, Subject: a.subject, SessionID: id}); err != nil {
			h.log.Error("ask: forgetting a session failed", "requestId", x.id, "err", err)
			x.fail(errInternal)
			return
		}
	}
	apierr.CloseUnread(w, r)
	x.metric(MetricRequestTotal, ms(h.cfg.Now().Sub(x.start)), UnitMs, OutcomeOK)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

var errSessionID = &apierr.Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: "The session id must be a SafeIdentifier."}
