package ask

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// errClientGone marks a failed write: the reader went away.
var errClientGone = errors.New("ask: client gone")

// streamFailure is an in-stream failure: one terminal error event, or
// nothing when the client is gone.
type streamFailure struct {
	code      protocol.Code
	message   string
	retryable bool
}

// MaxEvidenceLinkBytes bounds the evidence Link header. The recipe
// carries the question, so the header grows with it (by 4/3 of its JSON
// bytes); past this bound the header is omitted rather than sent, because
// proxies commonly refuse a response whose header block outgrows a 4 or
// 8 KiB buffer. About 1,200 ASCII characters of question still fit.
const MaxEvidenceLinkBytes = 2 << 10

// evidenceLink is the Link header of an answer built from an evidence
// package: the review page, with the package's recipe as the fragment,
// so the evidence can be rebuilt and checked later without the server
// keeping it. The query names the site's corpus, so on a sidecar of
// several sites the page asks the right one to rebuild it. ok is false, and the header must be omitted, when the
// link is longer than MaxEvidenceLinkBytes.
func evidenceLink(corpusID string, p *evidence.Package) (link string, ok bool) {
	link = "<" + evidence.ReviewPath(corpusID, p.Recipe().Fragment()) + `>; rel="evidence"`
	return link, len(link) <= MaxEvidenceLinkBytes
}

// issued tells Config.Issued the package's context_id, the one the
// answer's Link names.
func (x *streamer) issued(p *evidence.Package) {
	if f := x.h.cfg.Issued; f != nil && p != nil {
		f(p.ContextID)
	}
}

// streamer is the stream step's own: what retrieval found, which it
// answers, and the stream's accounting, which only write writes.
type streamer struct {
	found
	buf        []byte
	bytes      int
	events     int
	firstEvent bool
}

// stream runs step 17: headers, text deltas, one cite event, the session
// save and done, or one terminal error event.
func stream(ctx context.Context, f found) {
	x := &streamer{found: f}
	sources := f.sources
	hd := x.w.Header()
	hd.Set("Content-Type", "application/x-ndjson; charset=utf-8")
	hd.Set("Cache-Control", "no-store")
	hd.Set("X-Content-Type-Options", "nosniff")
	if x.pkg != nil {
		if link, ok := evidenceLink(x.site.Corpus.ID, x.pkg); ok {
			x.issued(x.pkg)
			hd.Set("Link", link)
		} else {
			x.h.log.Info("ask: evidence link omitted: longer than MaxEvidenceLinkBytes", "requestId", x.id, "bytes", len(link))
		}
	}
	// The headers go out with the first event, in one write, unless the
	// generator takes longer than headerFlushDelay to emit it (generate
	// flushes them then, so a reader still learns at once that its
	// answer is coming).
	x.w.WriteHeader(http.StatusOK)

	limit := time.Duration(x.site.Limits.GenerationTimeoutMs) * time.Millisecond
	gctx, cancel := context.WithTimeoutCause(ctx, limit, errGenerationDeadline)
	defer cancel()

	res, answer, fail := x.generate(gctx, sources)
	if fail == nil {
		fail = x.conclude(gctx, sources, res, answer)
	}
	switch {
	case fail == nil && res.LowConfidence:
		x.outcome(grounding.OutcomeLowConfidence, citedSources(sources, res.Used))
	case fail == nil:
		x.outcome(grounding.OutcomeAnswered, citedSources(sources, res.Used))
	case fail.code == protocol.CodeAskNoGroundedSources:
		x.streamFail(gctx, fail)
		x.outcome(grounding.OutcomeRefused, sources)
	case fail.code == protocol.CodeAskGenerationFailed || fail.code == protocol.CodeAskTimeout:
		x.streamFail(gctx, fail)
		x.outcome(grounding.OutcomeFailed, sources)
	default:
		x.streamFail(gctx, fail)
	}
}

// generate runs the generator on its own goroutine and writes its deltas as
// they arrive, so a generator that ignores its context cannot hold the
// response past the deadline.
func (x *streamer) generate(ctx context.Context, sources []grounding.Source) (grounding.Result, string, *streamFailure) {
	type outcome struct {
		res grounding.Result
		err error
	}
	// A small buffer lets the writer see that more text is already
	// waiting and flush once for the lot: one write syscall per burst of
	// deltas, not per delta, while a lone delta still goes out at once.
	deltas := make(chan string, deltaBuffer)
	done := make(chan outcome, 1)
	emit := func(d string) error {
		select {
		case deltas <- d:
			return nil
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
	q := x.query()
	go func() {
		var o outcome
		defer func() {
			if p := recover(); p != nil {
				o = outcome{err: fmt.Errorf("ask: generator panicked: %v", p)}
			}
			done <- o
		}()
		o.res, o.err = x.h.cfg.Generator.Generate(ctx, q, sources, emit)
	}()

	headers := time.NewTimer(headerFlushDelay)
	defer headers.Stop()
	var answer strings.Builder
	units := 0
	send := func(d string) *streamFailure {
		if d == "" {
			return nil
		}
		if units += protocol.UTF16Len(d); units > MaxAnswerLen {
			x.h.log.Warn("ask: answer over the length limit", "requestId", x.id)
			return &streamFailure{protocol.CodeAskGenerationFailed, msgGeneration, true}
		}
		answer.WriteString(d)
		if err := x.write(protocol.AskTextEvent{Delta: d}, true, len(deltas) == 0); err != nil {
			return x.ctxFailure(ctx)
		}
		return nil
	}
	for {
		select {
		case d := <-deltas:
			if f := send(d); f != nil {
				return grounding.Result{}, "", f
			}
		case <-headers.C:
			if x.events == 0 && x.rc.Flush() != nil {
				return grounding.Result{}, "", x.ctxFailure(ctx)
			}
		case o := <-done:
			if o.err != nil {
				if ctx.Err() != nil {
					return grounding.Result{}, "", x.ctxFailure(ctx)
				}
				if errors.Is(o.err, grounding.ErrNotGrounded) {
					x.h.log.Warn("ask: answer not grounded", "requestId", x.id, "err", o.err)
					return grounding.Result{}, "", &streamFailure{protocol.CodeAskNoGroundedSources, msgNotCited, false}
				}
				x.h.log.Error("ask: generation failed", "requestId", x.id, "err", o.err)
				return grounding.Result{}, "", &streamFailure{protocol.CodeAskGenerationFailed, msgGeneration, true}
			}
			// The generator is done, so every delta it emitted is in the
			// buffer: write them before concluding.
			for len(deltas) > 0 {
				if f := send(<-deltas); f != nil {
					return grounding.Result{}, "", f
				}
			}
			return o.res, answer.String(), nil
		case <-ctx.Done():
			return grounding.Result{}, "", x.ctxFailure(ctx)
		}
	}
}

// deltaBuffer is how many text deltas may wait for the writer.
const deltaBuffer = 16

// headerFlushDelay is how long the response headers may wait for the
// first event, to go out in the same write: an extractive answer's first
// text comes well within it (a quarter of a millisecond), so each answer
// costs one write fewer; a slower generator's reader gets the headers
// after it.
const headerFlushDelay = 20 * time.Millisecond

// ctxFailure is the failure of a done context: nothing when the client is
// gone, ASK_TIMEOUT when a deadline fired.
func (x *streamer) ctxFailure(ctx context.Context) *streamFailure {
	if context.Cause(ctx) == errShutdown && x.r.Context().Err() == nil {
		return &streamFailure{protocol.CodeAskInternal, msgShuttingDown, true}
	}
	if x.r.Context().Err() != nil || !isDeadline(context.Cause(ctx)) {
		return &streamFailure{code: protocol.CodeAskCancelled}
	}
	return &streamFailure{protocol.CodeAskTimeout, msgTimeout, true}
}

// conclude checks the answer, writes the cite event, saves the session and
// writes done.
func (x *streamer) conclude(ctx context.Context, sources []grounding.Source, res grounding.Result, answer string) *streamFailure {
	h := x.h
	model := protocol.Trim(res.Model)
	if protocol.Trim(answer) == "" || protocol.UTF16Len(model) > protocol.MaxAskModelLen || !validUsage(res.Usage) {
		h.log.Error("ask: generator returned an empty answer or invalid usage", "requestId", x.id)
		return &streamFailure{protocol.CodeAskGenerationFailed, msgGeneration, true}
	}
	cited := citedSources(sources, res.Used)
	if len(cited) == 0 {
		return &streamFailure{protocol.CodeAskNoGroundedSources, msgNotCited, false}
	}
	if err := x.write(protocol.AskToolEvent{ID: "sources-" + x.id, Name: "cite", Args: citeArgs(cited)}, false, false); err != nil {
		return x.ctxFailure(ctx)
	}
	if store := h.cfg.Sessions; store != nil && x.req.SessionID != "" {
		rec := session.Record{
			Revision: x.rev + 1,
			Messages: lastN(append(append([]protocol.AskMessage(nil), x.merged...),
				protocol.AskMessage{Role: protocol.RoleAssistant, Content: answer}), protocol.MaxAskMessages),
		}
		// A long conversation keeps its newest turns: the oldest go
		// rather than the save failing at the store's byte bound.
		if l, ok := store.(session.Limited); ok {
			rec = session.Fit(rec, l.Limits().MaxSessionBytes)
		}
		t := h.cfg.Now()
		saved, err := store.Save(ctx, x.key(), rec, x.rev)
		took := ms(h.cfg.Now().Sub(t))
		switch {
		case err != nil:
			x.metric(MetricPersistenceTotal, took, UnitMs, OutcomeError)
			if ctx.Err() != nil {
				return x.ctxFailure(ctx)
			}
			h.log.Error("ask: session save failed", "requestId", x.id, "err", err)
			return &streamFailure{protocol.CodeAskInternal, msgInternal, true}
		case !saved:
			x.metric(MetricPersistenceTotal, took, UnitMs, OutcomeError)
			x.metric(MetricConflict, 1, UnitCount, OutcomeError)
			return &streamFailure{protocol.CodeAskPersistenceConflict, msgConflict, true}
		}
		x.metric(MetricPersistenceTotal, took, UnitMs, OutcomeOK)
	}
	if u := res.Usage; u != nil {
		x.metric(MetricInputTokens, float64(u.InputTokens), UnitTokens, OutcomeOK)
		x.metric(MetricOutputTokens, float64(u.OutputTokens), UnitTokens, OutcomeOK)
		x.metric(MetricTotalTokens, float64(u.TotalTokens), UnitTokens, OutcomeOK)
		x.metric(MetricCost, u.CostUSD, UnitUSD, OutcomeOK)
	}
	done := protocol.AskDoneEvent{}
	if model != "" {
		done.Model = &model
	}
	// done is the last event: net/http sends it with the stream's end
	// when the handler returns, in one write, unless an outcome receiver
	// (which may write to a store) runs first.
	if err := x.write(done, false, h.cfg.Outcome != nil); err != nil {
		return x.ctxFailure(ctx)
	}
	x.metric(MetricStreamBytes, float64(x.bytes), UnitBytes, OutcomeOK)
	x.metric(MetricStreamEvents, float64(x.events), UnitCount, OutcomeOK)
	x.metric(MetricStreamSnapshots, 0, UnitCount, OutcomeOK)
	x.metric(MetricRequestTotal, ms(h.cfg.Now().Sub(x.start)), UnitMs, OutcomeOK)
	return nil
}

// streamFail ends the stream: a cancellation is recorded and nothing is
// sent; anything else is one terminal error event.
func (x *streamer) streamFail(ctx context.Context, f *streamFailure) {
	if f.code == protocol.CodeAskCancelled {
		x.finish(x.site, MetricCancellation, OutcomeCancelled)
		return
	}
	retryable := f.retryable
	x.write(protocol.AskErrorEvent{Message: f.message, Code: string(f.code), Retryable: &retryable}, false, true)
	x.finish(x.site, MetricError, OutcomeError)
}

// write sends one NDJSON event and flushes it.
func (x *streamer) write(ev protocol.AskEvent, token, flush bool) error {
	x.buf = protocol.AppendNDJSON(x.buf[:0], ev)
	n, err := x.w.Write(x.buf)
	x.bytes += n
	if err == nil && flush {
		err = x.rc.Flush()
	}
	if err != nil {
		return errClientGone
	}
	x.events++
	if !x.firstEvent {
		x.firstEvent = true
		since := ms(x.h.cfg.Now().Sub(x.start))
		x.metric(MetricFirstEvent, since, UnitMs, OutcomeOK)
		if token {
			x.metric(MetricFirstToken, since, UnitMs, OutcomeOK)
		}
	}
	return nil
}

// citedSources returns the sources whose ids the generator reported, in
// retrieval order, each once.
func citedSources(sources []grounding.Source, used []string) []grounding.Source {
	var out []grounding.Source
	for _, s := range sources {
		for _, id := range used {
			if id == s.ID {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// citeArgs writes {"sources":[{"id","title","path"}]}; excerpts stay
// server-side.
func citeArgs(cited []grounding.Source) []byte {
	var w ecmajson.Writer
	w.BeginObject()
	w.Key("sources")
	w.BeginArray()
	for _, s := range cited {
		w.BeginObject()
		w.StringMember("id", s.ID)
		w.StringMember("title", s.Title)
		w.StringMember("path", s.Href)
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
	return w.Bytes()
}

func validUsage(u *grounding.Usage) bool {
	return u == nil || (u.InputTokens >= 0 && u.OutputTokens >= 0 && u.TotalTokens >= 0 &&
		u.CostUSD >= 0 && !math.IsInf(u.CostUSD, 0) && !math.IsNaN(u.CostUSD))
}
