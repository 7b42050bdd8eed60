package ask_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// fullStore is a memory store on a "full disk": while full, every Save
// fails and Writable says so, as the SQLite store does after a save that
// failed for lack of space.
type fullStore struct {
	*session.MemoryStore
	full atomic.Bool
}

var errDiskFull = errors.New("database or disk is full")

func (s *fullStore) Save(ctx context.Context, k session.Key, r session.Record, rev int) (bool, error) {
	if s.full.Load() {
		return false, errDiskFull
	}
	return s.MemoryStore.Save(ctx, k, r, rev)
}

func (s *fullStore) Writable(context.Context) error {
	if s.full.Load() {
		return errDiskFull
	}
	return nil
}

// Issue 25: with the disk full, answers on a site whose persistence is
// "required" streamed their whole text and then ended ASK_INTERNAL, the
// save failing. While the store cannot write, such an answer is now
// refused before any text: 503 ASK_INTERNAL, retryable, Retry-After, and
// the generator is never called. Once it can write, answers are saved
// again; a site whose persistence is "disabled" is not refused.
func TestRequiredPersistenceRefusesBeforeTextWhileTheStoreCannotWrite(t *testing.T) {
	store := &fullStore{MemoryStore: session.NewMemoryStore()}
	var generated atomic.Int32
	f := newFixture(t, func(c *config) {
		c.Site.Persistence.Mode = protocol.PersistenceRequired
		c.Sessions = store
		c.Generator = grounding.GeneratorFunc(func(ctx context.Context, q grounding.Query, s []grounding.Source, emit func(string) error) (grounding.Result, error) {
			generated.Add(1)
			return fixtureGenerator(ctx, q, s, emit)
		})
	})
	store.full.Store(true)
	resp, body := f.post(t, "", askBody("s1", "How do I start?"))
	wantError(t, resp, body, http.StatusServiceUnavailable, protocol.CodeAskInternal)
	if resp.Header.Get("Retry-After") == "" || !strings.Contains(body, `"retryable":true`) || generated.Load() != 0 {
		t.Fatalf("refusal: Retry-After %q, body %s, generator called %d times", resp.Header.Get("Retry-After"), body, generated.Load())
	}

	store.full.Store(false)
	resp, body = f.post(t, "", askBody("s1", "How do I start?"))
	if resp.StatusCode != 200 || !strings.HasSuffix(body, `{"type":"done","model":"fixture-model"}`+"\n") {
		t.Fatalf("with space again: %d\n%s", resp.StatusCode, body)
	}

	disabled := &fullStore{MemoryStore: session.NewMemoryStore()}
	disabled.full.Store(true)
	g := newFixture(t, func(c *config) { c.Sessions = disabled })
	resp, body = g.post(t, "", askBody("", "How do I start?"))
	if resp.StatusCode != 200 || !strings.Contains(body, `"type":"done"`) {
		t.Fatalf("a site without required persistence, no session: %d\n%s", resp.StatusCode, body)
	}
}
