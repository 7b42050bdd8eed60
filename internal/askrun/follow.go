package askrun

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/protocol"
)

// reader is the request that reads a run's log: its id and start, for
// its metrics.
type reader struct {
	id    string
	start time.Time
}

// tally counts what a stream wrote, for its metrics.
type tally struct {
	buf    []byte
	bytes  int
	events int
}

// stream writes the headers and then the run's events after seq
// after, following the run until it is terminal or the request ends.
func (h *Runs) stream(ctx context.Context, w http.ResponseWriter, r *http.Request, rd reader, id string, after int, pkg *evidence.Package) {
	rc := http.NewResponseController(w)
	hd := w.Header()
	hd.Set("Content-Type", "application/x-ndjson; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set(protocol.RunHeader, id)
	if pkg != nil {
		if link, ok := ask.EvidenceLink(h.site.Corpus.ID, pkg); ok {
			if f := h.cfg.Issued; f != nil {
				f(pkg.ContextID)
			}
			hd.Set("Link", link)
		}
	}
	w.WriteHeader(http.StatusOK)
	rc.Flush()
	var t tally
	err := h.follow(ctx, w, rc, &t, id, after)
	end := func(msg string) {
		retry := true
		t.buf = protocol.AppendNDJSON(t.buf[:0], protocol.AskErrorEvent{Message: msg, Code: string(protocol.CodeAskInternal), Retryable: &retry})
		// As the live stream's writer does, the first event it writes
		// records stream.first_event_ms (follow's own writes do not).
		if _, err := w.Write(t.buf); err == nil && rc.Flush() == nil {
			h.metric(rd.id, ask.MetricFirstEvent, ms(h.cfg.Now().Sub(rd.start)), ask.UnitMs, ask.OutcomeOK)
		}
		h.metric(rd.id, ask.MetricError, 1, ask.UnitCount, ask.OutcomeError)
		h.metric(rd.id, ask.MetricRequestTotal, ms(h.cfg.Now().Sub(rd.start)), ask.UnitMs, ask.OutcomeError)
	}
	switch {
	case err == errStopped && context.Cause(ctx) == ask.ErrShutdown && r.Context().Err() == nil:
		// This instance is going away, the run is not: it is handed on
		// (durable.Worker.Shutdown) and goes on elsewhere. The stream still
		// ends with exactly one terminal event, a retryable one; the
		// reader reconnects to the run's log (after the events it saw,
		// which this notice is not one of) and reads the rest there.
		end(msgRunMoved)
		return
	case err != nil && err != errStopped && ctx.Err() == nil:
		h.log.Error("ask: following the run failed", "requestId", rd.id, "err", err)
		end(ask.MsgInternal)
		return
	}
	h.metric(rd.id, ask.MetricStreamBytes, float64(t.bytes), ask.UnitBytes, ask.OutcomeOK)
	h.metric(rd.id, ask.MetricStreamEvents, float64(t.events), ask.UnitCount, ask.OutcomeOK)
	h.metric(rd.id, ask.MetricRequestTotal, ms(h.cfg.Now().Sub(rd.start)), ask.UnitMs, ask.OutcomeOK)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Follow polling: a run's events are read from the store (which every
// instance shares), at first every followMin, backing off to followMax
// while nothing new arrives.
const (
	followMin = 20 * time.Millisecond
	followMax = 250 * time.Millisecond
)

// errStopped: the request ended before the run did (the reader went
// away, or the server is shutting down); the run goes on.
var errStopped = errors.New("ask: stopped following the run")

// stopped is err, or errStopped when the request ended meanwhile (the
// store call failed because of it).
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return errStopped
	}
	return err
}

// follow writes the run's events after seq after until the run is
// terminal and every event was written. A reader that goes away ends it;
// the run goes on.
func (h *Runs) follow(ctx context.Context, w http.ResponseWriter, rc *http.ResponseController, t *tally, id string, after int) error {
	st := h.cfg.Worker.Store
	wait := followMin
	for {
		evs, err := st.Events(ctx, id, after, durable.MaxEventsPerRead)
		if err != nil {
			return stopped(ctx, err)
		}
		for i, ev := range evs {
			t.buf = append(append(t.buf[:0], ev.Data...), '\n')
			n, err := w.Write(t.buf)
			t.bytes += n
			if err == nil && i == len(evs)-1 {
				err = rc.Flush()
			}
			if err != nil {
				return errStopped // the reader went away; the run goes on
			}
			t.events++
			after = ev.Seq
		}
		if len(evs) == durable.MaxEventsPerRead {
			continue
		}
		if len(evs) > 0 {
			wait = followMin
			continue
		}
		r, err := st.Get(ctx, id)
		if err != nil {
			return stopped(ctx, err)
		}
		if r.State.Terminal() && r.Events <= after {
			return nil
		}
		select {
		case <-ctx.Done():
			return errStopped
		case <-time.After(wait):
		}
		wait = min(2*wait, followMax)
	}
}
