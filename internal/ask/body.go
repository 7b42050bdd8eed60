package ask

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"time"
)

// The body is read here, in a file of its own, after admission
// (admission.go) has let the request through: the question's way from
// the body to the evidence engine never comes back to a file it left
// (walk_test.go measures it).

// readBody reads at most MaxBodyBytes, giving 413 past it, within
// BodyTimeout (or the request deadline, when earlier): a client that
// stalls mid-body gets 408 and a closed connection, not a held handler.
// Once the body is read the connection's read deadline moves to just past
// the request deadline, never to none; when it could not be read, the
// deadline is left passed, so the reply is not held and the connection
// is closed after it.
func (c *call) readBody(ctx context.Context) ([]byte, error) {
	max := c.h.cfg.MaxBodyBytes
	if c.r.ContentLength > max {
		return nil, errTooLarge
	}
	end, _ := ctx.Deadline()
	bodyEnd := c.h.cfg.Now().Add(c.h.cfg.BodyTimeout)
	if end.IsZero() || bodyEnd.Before(end) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadlineCause(ctx, bodyEnd, errBodyDeadline)
		defer cancel()
	}
	dl, _ := ctx.Deadline()
	// Best effort: a writer that does not support it leaves the server's
	// own ReadTimeout in force.
	c.rc.SetReadDeadline(dl)
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		c.rc.SetReadDeadline(time.Now())
		close(fired)
	})
	body, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, max))
	if !stop() {
		<-fired // its deadline must not land after the one set below
	}
	switch {
	case err != nil:
		// What is left of the body is never read: net/http tries to read
		// it before it sends the reply, and would wait for a stalled
		// client until the deadline set here. Now, it gives up at once
		// and closes the connection after the reply.
		c.rc.SetReadDeadline(time.Now())
	case !end.IsZero():
		c.rc.SetReadDeadline(end.Add(streamReadSlack))
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, errTooLarge
	case context.Cause(ctx) == errShutdown:
		return nil, errShuttingDown
	case errors.Is(err, os.ErrDeadlineExceeded), ctx.Err() != nil && isDeadline(context.Cause(ctx)):
		// A deadline ended the read: the connection's read deadline (set
		// to the body or request deadline, and which may fire a moment
		// before the context's own timer) or the context's. Either way the
		// read error has cancelled the request's context too (net/http
		// does on any read error), so ctxError would take it for a client
		// that went away: it is a timeout.
		return nil, errTimeout
	case ctx.Err() != nil:
		return nil, c.ctxError(ctx)
	case err != nil, len(body) == 0:
		return nil, errNoBody
	}
	return body, nil
}
