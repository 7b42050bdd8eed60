package storetest

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// Handle is one open store: a session.Store with its own connection, file
// handle or pool, released by Close.
type Handle interface {
	session.Store
	io.Closer
}

// Opener opens a new, independent handle on one storage each time it is
// called. The suite closes what it opens.
type Opener func(t *testing.T) Handle

// RunDurable runs the tests only a persistent store can pass. storage
// must return an Opener on fresh, empty storage (a new file, a new schema).
func RunDurable(t *testing.T, storage func(t *testing.T) Opener) {
	t.Run("PersistsAcrossReopen", func(t *testing.T) { testReopen(t, storage(t)) })
	t.Run("SeveralInstancesOneWinner", func(t *testing.T) {
		open := storage(t)
		a, b := open(t), open(t)
		defer a.Close()
		defer b.Close()
		testOneWinner(t, []session.Store{a, b})
	})
	t.Run("SeveralInstancesNoLostUpdate", func(t *testing.T) { testNoLostUpdate(t, storage(t)) })
}

func testReopen(t *testing.T, open Opener) {
	k := Key(t, "s1")
	want := session.Record{Revision: 2, Messages: Messages("durable", 3)}
	first := open(t)
	MustSave(t, first, k, session.Record{Revision: 1, Messages: Messages("durable", 1)}, 0, true)
	MustSave(t, first, k, want, 1, true)
	if err := first.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := first.Load(t.Context(), k); err == nil {
		t.Fatalf("Load after Close succeeded")
	}
	second := open(t)
	defer second.Close()
	Equal(t, MustLoad(t, second, k), want)
	// The reopened store keeps enforcing the revision it found.
	MustSave(t, second, k, session.Record{Revision: 2, Messages: Messages("stale", 1)}, 1, false)
	MustSave(t, second, k, session.Record{Revision: 3, Messages: Messages("durable", 4)}, 2, true)
}

// testNoLostUpdate runs the sidecar's own loop (load, append, save with
// the loaded revision, retry on conflict) from several goroutines on two
// handles. Every append must land exactly once: a lost update would leave
// a message missing or a revision short.
func testNoLostUpdate(t *testing.T, open Opener) {
	const workers, appends = 6, 5 // 30 messages, under the 64 bound
	handles := []Handle{open(t), open(t)}
	for _, h := range handles {
		defer h.Close()
	}
	k := Key(t, "counter")
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			s := handles[w%len(handles)]
			for i := range appends {
				msg := protocol.AskMessage{Role: protocol.RoleUser, Content: fmt.Sprintf("w%d-%d", w, i)}
				for attempt := 0; ; attempt++ {
					if attempt > 1000 {
						errs <- fmt.Errorf("worker %d: no progress after %d conflicts", w, attempt)
						return
					}
					r, err := s.Load(t.Context(), k)
					if err != nil {
						errs <- err
						return
					}
					next := session.Record{Revision: r.Revision + 1, Messages: append(slices.Clone(r.Messages), msg)}
					ok, err := s.Save(t.Context(), k, next, r.Revision)
					if err != nil {
						errs <- err
						return
					}
					if ok {
						break
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got := MustLoad(t, handles[1], k)
	if got.Revision != workers*appends || len(got.Messages) != workers*appends {
		t.Fatalf("revision %d with %d messages, want %d of each", got.Revision, len(got.Messages), workers*appends)
	}
	seen := map[string]bool{}
	for _, m := range got.Messages {
		if seen[m.Content] {
			t.Fatalf("message %q stored twice", m.Content)
		}
		seen[m.Content] = true
	}
}
