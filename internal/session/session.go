package session

import (
	"container/list"
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

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
	// A stored record that cannot be decoded is an error that errors.As
	// finds a *CorruptError in.
	Load(ctx context.Context, k Key) (Record, error)
	// Save stores r when the stored revision is expectedRevision (0 when
	// there is none) and reports whether it did. A record whose Size is
	// over the store's MaxSessionBytes is refused with an error wrapping
	// ErrRecordTooLarge.
	Save(ctx context.Context, k Key, r Record, expectedRevision int) (bool, error)
}

// Deleter is a Store that can forget one session before its TTL ("New
// conversation"). Delete reports whether a session was there. Every
// store in askplane implements it.
type Deleter interface {
	Delete(ctx context.Context, k Key) (bool, error)
}

// Checker reports whether a store can serve Loads and Saves now, for a
// readiness probe: nil when it can, an error naming why not otherwise.
// Every store in askplane implements it.
type Checker interface {
	Check(ctx context.Context) error
}

// WriteChecker is a store that remembers a failed write (a full disk, an
// I/O error): Writable is nil unless the store's last write failed and
// no write (or probe write, at most one a second) has succeeded since.
// Callers ask before work whose result must be saved, so it is refused
// before it is done rather than lost after.
type WriteChecker interface {
	Writable(ctx context.Context) error
}

// ErrCorrupt is what errors.Is finds in a Load error for a stored record
// that failed strict decoding (the error holds a *CorruptError).
var ErrCorrupt = errors.New("session: stored record is corrupt")

// CorruptError is a stored record that failed strict decoding. Revision is
// the revision stored with it, so a caller can start the conversation
// again and overwrite the row with Save(k, r, Revision) (r.Revision =
// Revision+1); the compare-and-swap still guards that write.
type CorruptError struct {
	Revision int
}

func (e *CorruptError) Error() string {
	return "session: stored record at revision " + strconv.Itoa(e.Revision) + " is corrupt"
}

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// MemoryStore is an in-process Store, safe for concurrent use. It forgets
// everything on restart and is bounded so a long-running process cannot
// grow without bound: by Limits in bytes (Size), and by MaxMemorySessions
// in count. A Save that takes its subject (SiteID, Subject) past
// MaxSubjectBytes evicts that subject's oldest-written sessions first; one
// that takes the store past MaxTotalBytes or MaxMemorySessions then evicts
// the oldest-written overall. The session just saved is never evicted.
// An evicted session's revision is remembered for EvictedGrace (at most
// maxEvicted of them), so an answer loaded before the eviction still
// saves over it instead of ending in a conflict; Delete forgets it.
type MemoryStore struct {
	mu       sync.Mutex
	recs     map[Key]*memEntry
	order    list.List // of *memEntry, least recently written first
	subjects map[subjectKey]*memSubject
	bytes    int64
	max      int
	limits   Limits
	// evicted are the revisions of sessions evicted by a bound lately
	// (at most maxEvicted, each for EvictedGrace), so an answer loaded
	// before its session was evicted still saves over that revision
	// rather than end a conflict; Delete forgets the entry.
	evicted     map[Key]evictedRev
	evictedRing []Key
	evictedNext int
}

// maxEvicted bounds MemoryStore.evicted.
const maxEvicted = 4096

// EvictedGrace is how long an evicted session's revision is kept for an
// answer in flight: longer than any request (at most 120 s).
const EvictedGrace = 5 * time.Minute

type evictedRev struct {
	rev int
	at  time.Time
}

type subjectKey struct{ site, subject string }

type memSubject struct {
	bytes int64
	order list.List // of *memEntry, least recently written first
}

type memEntry struct {
	key       Key
	rec       Record
	size      int64
	all, mine *list.Element
}

// MaxMemorySessions bounds a MemoryStore's count of sessions.
const MaxMemorySessions = 10_000

// NewMemoryStore returns an empty MemoryStore with DefaultLimits.
func NewMemoryStore() *MemoryStore {
	m, _ := NewMemoryStoreWith(DefaultLimits())
	return m
}

// NewMemoryStoreWith returns an empty MemoryStore with limits l, or
// Validate's error.
func NewMemoryStoreWith(l Limits) (*MemoryStore, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return &MemoryStore{
		recs:     make(map[Key]*memEntry),
		subjects: make(map[subjectKey]*memSubject),
		max:      MaxMemorySessions,
		limits:   l,
	}, nil
}

// Limits returns the store's limits.
func (m *MemoryStore) Limits() Limits { return m.limits }

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
	r := e.rec
	r.Messages = slices.Clone(r.Messages)
	return r, nil
}

// Save implements Store.
func (m *MemoryStore) Save(ctx context.Context, k Key, r Record, expectedRevision int) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	size := Size(r)
	if size > m.limits.MaxSessionBytes {
		return false, ErrRecordTooLarge
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.recs[k]
	stored := 0
	if ok {
		stored = e.rec.Revision
	} else if ev, was := m.evicted[k]; was && expectedRevision != 0 && time.Since(ev.at) < EvictedGrace {
		stored = ev.rev // evicted by a bound while its answer was written
	}
	if stored != expectedRevision {
		return false, nil
	}
	delete(m.evicted, k)
	r.Messages = slices.Clone(r.Messages)
	sk := subjectKey{k.SiteID, k.Subject}
	sub := m.subjects[sk]
	if ok {
		m.bytes -= e.size
		sub.bytes -= e.size
		e.rec, e.size = r, size
		m.order.MoveToBack(e.all)
		sub.order.MoveToBack(e.mine)
	} else {
		if sub == nil {
			sub = &memSubject{}
			m.subjects[sk] = sub
		}
		e = &memEntry{key: k, rec: r, size: size}
		e.all = m.order.PushBack(e)
		e.mine = sub.order.PushBack(e)
		m.recs[k] = e
	}
	m.bytes += size
	sub.bytes += size
	// e is at the back of both lists and no larger than any bound, so
	// neither loop reaches it.
	for sub.bytes > m.limits.MaxSubjectBytes {
		m.evictByBound(sub.order.Front().Value.(*memEntry))
	}
	for m.bytes > m.limits.MaxTotalBytes || len(m.recs) > m.max {
		m.evictByBound(m.order.Front().Value.(*memEntry))
	}
	return true, nil
}

// evictByBound evicts e for a bound, remembering its revision.
func (m *MemoryStore) evictByBound(e *memEntry) {
	if m.evicted == nil {
		m.evicted, m.evictedRing = make(map[Key]evictedRev), make([]Key, maxEvicted)
	}
	if old := m.evictedRing[m.evictedNext]; old != (Key{}) {
		delete(m.evicted, old)
	}
	m.evictedRing[m.evictedNext] = e.key
	m.evictedNext = (m.evictedNext + 1) % maxEvicted
	m.evicted[e.key] = evictedRev{e.rec.Revision, time.Now()}
	m.evict(e)
}

func (m *MemoryStore) evict(e *memEntry) {
	sk := subjectKey{e.key.SiteID, e.key.Subject}
	sub := m.subjects[sk]
	delete(m.recs, e.key)
	m.order.Remove(e.all)
	sub.order.Remove(e.mine)
	m.bytes -= e.size
	sub.bytes -= e.size
	if sub.order.Len() == 0 {
		delete(m.subjects, sk)
	}
}

// Delete implements Deleter.
func (m *MemoryStore) Delete(ctx context.Context, k Key) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.recs[k]
	if ok {
		m.evict(e)
	}
	delete(m.evicted, k) // forgotten: an answer in flight must not bring it back
	return ok, nil
}

// Check implements Checker: memory is always ready.
func (m *MemoryStore) Check(context.Context) error { return nil }

var (
	_ Store   = (*MemoryStore)(nil)
	_ Deleter = (*MemoryStore)(nil)
	_ Checker = (*MemoryStore)(nil)
)
