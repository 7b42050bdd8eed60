package askrun

import (
	"context"
	"errors"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/protocol"
)

// A durable answer streams: the model's text goes into the run's log as
// it is written (generate.Model.CompleteStreaming), in batches of at most
// textEvery, so a reader following the log, on any instance, sees it
// arrive as a live answer's reader does. The price is that text a reader
// may have seen cannot be taken back: an attempt that fails after its
// first text is not retried (a retry would write another answer under
// it), and a run taken over after a crash mid-text ends with errCutOff
// rather than start again. Before its first text an attempt is retried
// within the run's budget as before.
const (
	textEvery    = 60 * time.Millisecond
	maxTextBytes = 32 << 10 // one text event, well under durable.MaxEventBytes
)

// errCutOff: the run's answer was cut off after some of it reached the
// log; the reader asks again.
var errCutOff = errors.New("ask: the answer was cut off after it began")

// textLog batches an attempt's text into the run's log under its lease:
// text is committed at once when the last commit is textEvery old, else
// by a timer at most textEvery after it, so text never waits for the
// model's next delta.
type textLog struct {
	ctx   context.Context
	x     *durable.Exec
	st    *askState
	mu    sync.Mutex
	buf   []byte
	sent  int // bytes of text committed to the log
	last  time.Time
	timer *time.Timer
	err   error // a failed commit (the next add returns it)
	done  bool
}

func newTextLog(ctx context.Context, x *durable.Exec, st *askState) *textLog {
	return &textLog{ctx: ctx, x: x, st: st}
}

// add takes the model's next text.
func (t *textLog) add(text string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return t.err
	}
	t.buf = append(t.buf, text...)
	wait := textEvery - time.Since(t.last)
	if wait <= 0 || len(t.buf) >= maxTextBytes {
		t.err = t.flush()
		return t.err
	}
	if t.timer == nil {
		t.timer = time.AfterFunc(wait, t.tick)
	}
	return nil
}

func (t *textLog) tick() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timer = nil
	if !t.done && t.err == nil {
		t.err = t.flush()
	}
}

// close commits what is buffered and stops the timer; with flush false
// (the call failed) it drops the rest. The log is the run's own again
// after it.
func (t *textLog) close(flush bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done = true
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	if !flush || t.err != nil {
		return t.err
	}
	return t.flush()
}

// flush commits the buffered text as one text event; the first one
// commits, in the same write, a checkpoint that records that text began.
// t.mu is held.
func (t *textLog) flush() error {
	n := whole(t.buf)
	if n == 0 {
		return nil
	}
	w := durable.Write{Events: [][]byte{protocol.AskTextEvent{Delta: string(t.buf[:n])}.AppendJSON(nil)}}
	if t.sent == 0 {
		st := *t.st
		st.Streamed = true
		data, err := marshalState(&st)
		if err != nil {
			return err
		}
		w.Checkpoint = &durable.Checkpoint{Step: t.x.Checkpoint().Step + 1, Data: data}
	}
	if err := t.x.Commit(t.ctx, w); err != nil {
		return err
	}
	t.st.Streamed = true // as the checkpoint now says
	t.sent += n
	t.buf = append(t.buf[:0], t.buf[n:]...)
	t.last = time.Now()
	return nil
}

// whole is the length of b without an incomplete UTF-8 sequence at its
// end (the rest of it comes with the next text).
func whole(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}
