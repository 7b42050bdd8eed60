package sidecar

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// forgetHandler answers POST /v1/sessions/{id}/forget: "New conversation".
// The subject's session id on this site is deleted from the store now,
// rather than at its TTL. It keeps the rules of /v1/ask that apply to a
// request without a body (ask.Handler.AdmitBodiless: the client
// address's budget, authentication, the hints, the subject's budget),
// and it reads no body. The key is the authenticated subject's, so a session can only be
// forgotten by its subject; the answer is 204 whether a session was there
// or not, so ids cannot be probed. A store that cannot delete (none
// configured) answers 204 too: there is nothing to forget.
func forgetHandler(h *ask.Handler, sessions session.Store, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), ask.DefaultBootstrapTimeout)
		defer cancel()
		c, ok := h.AdmitBodiless(ctx, w, r, http.MethodPost)
		if !ok {
			return
		}
		id := r.PathValue("id")
		if !protocol.ValidIdentifier(id) {
			h.Refuse(w, r, c, errSessionID)
			return
		}
		if d, ok := sessions.(session.Deleter); ok {
			if _, err := d.Delete(ctx, session.Key{SiteID: c.Site.SiteID, Subject: c.Subject, SessionID: id}); err != nil {
				log.Error("ask: forgetting a session failed", "requestId", c.RequestID, "err", err)
				h.Refuse(w, r, c, ask.ErrInternal)
				return
			}
		}
		apierr.CloseUnread(w, r)
		h.Done(c)
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
	})
}

var errSessionID = &apierr.Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: "The session id must be a SafeIdentifier."}
