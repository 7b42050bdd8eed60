package session

import (
	"container/list"
	"context"
	"slices"
	"sync"

	"github.com/askplane/askplane/internal/protocol"
)

// Key names one stored session. Every part is trusted: the site from the
// config, the subject from the Authenticator, the session id validated.
type Key struct {
	SiteID    string
	Subject   string
	SessionID string
}

// Record is a stored session (AskBackendSessionRecordSchema): a revision
// that grows by one on every save and at most 64 messages.
type Record struct {
	Revision int
	Messages []protocol.AskMessage
}

// Store keeps sessions with compare-and-swap writes.
type Store interface {
	// Load returns the stored record, or the zero Record when there is none.
	Load(ctx context.Context, k Key) (Record, error)
	// Save stores r when the stored revision is expectedRevision (0 when
	// there is none) and reports whether it did.
	Save(ctx context.Context, k Key, r Record, expectedRevision int) (bool, error)
}

// MemoryStore is an in-process Store, safe for concurrent use. It
// forgets everything on restart, and holds at most MaxMemorySessions:
// saving one more evicts the session written longest ago, so a long-running
// process cannot grow without bound.
type MemoryStore struct {
	mu    sync.Mutex
	recs  map[Key]*list.Element // of *memEntry
	order *list.List            // least recently written first
	max   int
}

type memEntry struct {
	key Key
	rec Record
}

// MaxMemorySessions bounds a MemoryStore.
const MaxMemorySessions = 10_000

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{recs: make(map[Key]*list.Element), order: list.New(), max: MaxMemorySessions}
}

// Load implements Store.
func (m *MemoryStore) Load(ctx context.Context, k Key) (Record, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.recs[k]
	if !ok {
		return Record{}, nil
	}
	r := e.Value.(*memEntry).rec
	r.Messages = slices.Clone(r.Messages)
	return r, nil
}

// Save implements Store.
func (m *MemoryStore) Save(ctx context.Context, k Key, r Record, expectedRevision int) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.recs[k]
	stored := 0
	if ok {
		stored = e.Value.(*memEntry).rec.Revision
	}
	if stored != expectedRevision {
		return false, nil
	}
	r.Messages = slices.Clone(r.Messages)
	if ok {
		e.Value.(*memEntry).rec = r
		m.order.MoveToBack(e)
		return true, nil
	}
	if m.order.Len() >= m.max {
		oldest := m.order.Front()
		delete(m.recs, oldest.Value.(*memEntry).key)
		m.order.Remove(oldest)
	}
	m.recs[k] = m.order.PushBack(&memEntry{key: k, rec: r})
	return true, nil
}

var _ Store = (*MemoryStore)(nil)
