package ask

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

// SessionStore keeps sessions with compare-and-swap writes.
type SessionStore interface {
	// Load returns the stored record, or the zero Record when there is none.
	Load(ctx context.Context, k Key) (Record, error)
	// Save stores r when the stored revision is expectedRevision (0 when
	// there is none) and reports whether it did.
	Save(ctx context.Context, k Key, r Record, expectedRevision int) (bool, error)
}

// MemoryStore is an in-process SessionStore, safe for concurrent use. It
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

// Load implements SessionStore.
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

// Save implements SessionStore.
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

var _ SessionStore = (*MemoryStore)(nil)

// mergeHistory applies the reference merge: the latest user turn of the
// submitted list is appended to the stored history unless the stored
// history already ends with that same user turn; any other client history
// is ignored. It returns the merged history and the trimmed question, or
// ok false when there is no non-blank user turn.
func mergeHistory(stored, submitted []protocol.AskMessage) (merged []protocol.AskMessage, question string, ok bool) {
	i := len(submitted) - 1
	for i >= 0 && submitted[i].Role != protocol.RoleUser {
		i--
	}
	if i < 0 {
		return nil, "", false
	}
	latest := submitted[i]
	question = protocol.Trim(latest.Content)
	if question == "" {
		return nil, "", false
	}
	if n := len(stored); n > 0 && stored[n-1].Role == protocol.RoleUser && stored[n-1].Content == latest.Content {
		return slices.Clone(stored), question, true
	}
	merged = append(slices.Clone(stored), latest)
	return lastN(merged, protocol.MaxAskMessages), question, true
}

func lastN(list []protocol.AskMessage, n int) []protocol.AskMessage {
	if len(list) > n {
		return list[len(list)-n:]
	}
	return list
}
