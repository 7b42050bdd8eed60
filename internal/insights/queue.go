package insights

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/store"
)

// Queue bounds. An answer only hands its outcome over (Add: a channel
// send, no store call); one goroutine a site writes what has queued in
// one transaction, at most MaxBatch outcomes at a time, gathered for at
// most BatchDelay after the first. QueueSize
// outcomes wait at most; past that an outcome is dropped and counted,
// never waited for.
const (
	QueueSize  = 4096
	MaxBatch   = 256
	BatchDelay = 250 * time.Millisecond
)

// Queue records a site's outcomes off the answer's path. Build it with
// Recorder.Queue; Add is safe for concurrent use; Close writes what is
// queued and stops.
type Queue struct {
	rec     *Recorder
	onErr   func(error)
	mu      sync.RWMutex
	closed  bool
	in      chan sighted
	done    chan struct{}
	dropped atomic.Int64
}

// Queue starts r's writer; onErr (may be nil) is told each failed write,
// which loses that batch.
func (r *Recorder) Queue(onErr func(error)) *Queue {
	q := &Queue{rec: r, onErr: onErr, in: make(chan sighted, QueueSize), done: make(chan struct{})}
	go q.write()
	return q
}

// Add queues o as of now and reports whether it was taken: false when
// the queue is full or closed (o is dropped). It never blocks. The
// question and subject stay in memory until written: their key and hash
// are what is stored.
func (q *Queue) Add(o grounding.Outcome) bool {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		q.dropped.Add(1)
		return false
	}
	select {
	case q.in <- sighted{o: o, at: q.rec.now()}:
		return true
	default:
		q.dropped.Add(1)
		return false
	}
}

// Dropped counts the outcomes Add did not take.
func (q *Queue) Dropped() int64 { return q.dropped.Load() }

// Close stops taking outcomes, writes those queued and returns once they
// are written (each batch bounded by store.OpTimeout).
func (q *Queue) Close() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.in)
	}
	q.mu.Unlock()
	<-q.done
}

func (q *Queue) write() {
	defer close(q.done)
	batch := make([]sighted, 0, MaxBatch)
	flush := func() {
		if len(batch) == 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*store.OpTimeout)
		err := q.rec.record(ctx, batch)
		cancel()
		if err != nil && q.onErr != nil {
			q.onErr(err)
		}
		clear(batch) // the questions and subjects are not kept
		batch = batch[:0]
	}
	// take adds s to the batch, or answers a Flush marker; it reports
	// whether the batch is to be written now.
	take := func(s sighted) bool {
		if s.flushed != nil {
			flush()
			close(s.flushed)
			return false
		}
		batch = append(batch, s)
		return len(batch) >= MaxBatch
	}
	for s := range q.in {
		if !take(s) && len(batch) == 0 {
			continue
		}
		// A batch is open: gather for up to BatchDelay, so a busy site
		// commits a few times a second, not once an answer.
		timer := time.NewTimer(BatchDelay)
	gather:
		for len(batch) > 0 && len(batch) < MaxBatch {
			select {
			case s, ok := <-q.in:
				if !ok {
					break gather
				}
				take(s)
			case <-timer.C:
				break gather
			}
		}
		timer.Stop()
		flush()
	}
	flush()
}

// Flush waits until every outcome added before it is written, or ctx
// ends: for tests and tools that read right after asking.
func (q *Queue) Flush(ctx context.Context) error {
	done := make(chan struct{})
	q.mu.RLock()
	if q.closed {
		q.mu.RUnlock()
		return nil
	}
	select {
	case q.in <- sighted{flushed: done}:
		q.mu.RUnlock()
	case <-ctx.Done():
		q.mu.RUnlock()
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
