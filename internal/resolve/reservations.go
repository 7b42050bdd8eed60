package resolve

import (
	"bytes"
	"container/list"
	"strings"
	"sync"

	"github.com/askplane/askplane/internal/protocol"
)

// Bounds of the reservation table. They cap memory per process whatever
// clients do; a choice that is not remembered is simply unavailable when
// clicked, and the user asks again.
const (
	MaxChoiceSessions = 256
	MaxSessionChoices = 256
)

// SubmitResult says what Submit did with a choice submission.
type SubmitResult uint8

const (
	// NotDeterministic: the frame is not a deterministic choice list (its
	// instance id lacks ChoicesInstancePrefix). Reservations do not govern
	// it; the caller handles the selection as a generic component event.
	NotDeterministic SubmitResult = iota
	// Unavailable: the choice was never offered in this session, was
	// forgotten, is already being submitted, or the frame's props were
	// altered. Show "this choice expired, ask again".
	Unavailable
	// Granted: the choice is reserved; send Claim.Value, then Commit on
	// success or Release on failure.
	Granted
)

func (s SubmitResult) String() string {
	switch s {
	case Unavailable:
		return "unavailable"
	case Granted:
		return "granted"
	}
	return "not-deterministic"
}

// Reservations remembers, per chat session, which choices a deterministic
// choice list offered, so that a click is honoured once and only for what
// was actually offered: a forged or replayed submission cannot make the
// widget send a value the resolver never proposed, and a double click sends
// it once.
//
// Sessions are kept in least-recently-used order, at most MaxChoiceSessions
// of them with at most MaxSessionChoices authorizations each. A session
// with a claim in flight is never evicted, so an in-progress submission
// cannot lose its reservation; when every session has one, new sessions
// are silently not remembered.
//
// The zero value is ready to use. Reservations is safe for concurrent use.
type Reservations struct {
	mu       sync.Mutex
	sessions map[string]*list.Element // of *session
	lru      list.List                // front = least recently touched
}

// session holds one session's authorizations in insertion order.
type session struct {
	id      string
	auths   map[string]*list.Element // of *authorization
	order   list.List                // front = oldest
	claimed int                      // authorizations currently claimed
}

type authorization struct {
	instanceID string
	props      []byte
	values     map[string]string // choice id → value to send
	claimed    bool
}

// NewReservations returns an empty table.
func NewReservations() *Reservations { return &Reservations{} }

// Remember records that the choice-list frame instanceID, with props (the
// exact JSON of the frame's props), offered suggestions in sessionID. Only
// deterministic choice lists are remembered. Remembering touches the
// session. An authorization that is being claimed is kept as it is.
func (r *Reservations) Remember(sessionID, instanceID string, props []byte, suggestions []protocol.Suggestion) {
	if !strings.HasPrefix(instanceID, ChoicesInstancePrefix) {
		return
	}
	values := make(map[string]string, len(suggestions))
	for _, s := range suggestions {
		values[s.ID] = s.Value
	}
	props = bytes.Clone(props)

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sessions == nil {
		r.sessions = make(map[string]*list.Element)
	}
	var s *session
	if el, ok := r.sessions[sessionID]; ok {
		r.lru.MoveToBack(el)
		s = el.Value.(*session)
	} else {
		if len(r.sessions) >= MaxChoiceSessions && !r.evictSession() {
			return
		}
		s = &session{id: sessionID, auths: make(map[string]*list.Element)}
		r.sessions[sessionID] = r.lru.PushBack(s)
	}
	if el, ok := s.auths[instanceID]; ok {
		a := el.Value.(*authorization)
		if a.claimed {
			return
		}
		// Replacing keeps the authorization's place in eviction order.
		el.Value = &authorization{instanceID: instanceID, props: props, values: values}
		return
	}
	if len(s.auths) >= MaxSessionChoices && !s.evictUnclaimed() {
		return
	}
	s.auths[instanceID] = s.order.PushBack(&authorization{instanceID: instanceID, props: props, values: values})
}

// RememberChoices remembers the choice-list frame Project writes for a
// choices envelope answering user message messageID. Other envelopes are
// ignored.
func (r *Reservations) RememberChoices(sessionID, messageID string, env *protocol.Envelope) {
	instanceID, props, ok := ChoiceFrame(env, messageID)
	if !ok {
		return
	}
	r.Remember(sessionID, instanceID, props, env.Suggestions)
}

// evictSession drops the least recently touched session with no claim in
// flight. It reports false when every session has one.
func (r *Reservations) evictSession() bool {
	for el := r.lru.Front(); el != nil; el = el.Next() {
		s := el.Value.(*session)
		if s.claimed == 0 {
			r.lru.Remove(el)
			delete(r.sessions, s.id)
			return true
		}
	}
	return false
}

// evictUnclaimed drops the oldest authorization that is not claimed.
func (s *session) evictUnclaimed() bool {
	for el := s.order.Front(); el != nil; el = el.Next() {
		a := el.Value.(*authorization)
		if !a.claimed {
			s.order.Remove(el)
			delete(s.auths, a.instanceID)
			return true
		}
	}
	return false
}

// Submit reserves choiceID of the frame instanceID (with props, the exact
// JSON of the submitted frame's props) in sessionID. The result is
// NotDeterministic for frames that are not deterministic choice lists,
// Unavailable when the session or authorization is unknown, the
// authorization is already claimed, the props differ byte for byte from
// what was offered, or choiceID was not offered; otherwise Granted with a
// Claim, and the session is touched.
func (r *Reservations) Submit(sessionID, instanceID string, props []byte, choiceID string) (*Claim, SubmitResult) {
	if !strings.HasPrefix(instanceID, ChoicesInstancePrefix) {
		return nil, NotDeterministic
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	sel, ok := r.sessions[sessionID]
	if !ok {
		return nil, Unavailable
	}
	s := sel.Value.(*session)
	ael, ok := s.auths[instanceID]
	if !ok {
		return nil, Unavailable
	}
	a := ael.Value.(*authorization)
	if a.claimed || !bytes.Equal(a.props, props) {
		return nil, Unavailable
	}
	value, ok := a.values[choiceID]
	if !ok {
		return nil, Unavailable
	}
	r.lru.MoveToBack(sel)
	a.claimed = true
	s.claimed++
	return &Claim{Value: value, r: r, s: s, a: a}, Granted
}

// ReleaseSession forgets a session and all its authorizations, claimed or
// not (for example when the chat is cleared). Outstanding claims stay
// harmless: committing or releasing them changes nothing.
func (r *Reservations) ReleaseSession(sessionID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if el, ok := r.sessions[sessionID]; ok {
		r.lru.Remove(el)
		delete(r.sessions, sessionID)
	}
}

// Len returns the number of sessions remembered.
func (r *Reservations) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sessions)
}

// Claim is a granted choice submission. Send Value as the user's message,
// then Commit once the send succeeded, so the choice cannot be used again,
// or Release if it failed, so the user can retry. Commit and Release are
// idempotent and mutually exclusive: the first call wins.
type Claim struct {
	Value string

	r       *Reservations
	s       *session
	a       *authorization
	settled bool
}

// Commit consumes the authorization. Its session is forgotten when it has
// no authorizations left, unless the session was released and created
// again meanwhile: a late commit must not delete a newer session.
func (c *Claim) Commit() {
	if c == nil || c.r == nil {
		return
	}
	r := c.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if c.settled {
		return
	}
	c.settled = true
	s, a := c.s, c.a
	a.claimed = false
	s.claimed--
	if el, ok := s.auths[a.instanceID]; ok && el.Value == a {
		s.order.Remove(el)
		delete(s.auths, a.instanceID)
	}
	if len(s.auths) == 0 {
		if el, ok := r.sessions[s.id]; ok && el.Value == s {
			r.lru.Remove(el)
			delete(r.sessions, s.id)
		}
	}
}

// Release returns the authorization so the choice can be submitted again.
func (c *Claim) Release() {
	if c == nil || c.r == nil {
		return
	}
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	if c.settled {
		return
	}
	c.settled = true
	c.a.claimed = false
	c.s.claimed--
}
