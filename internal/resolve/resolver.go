package resolve

import (
	"errors"
	"time"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/protocol"
)

// Resolver answers questions from one verified knowledge artifact. It is
// immutable after New and safe for concurrent use.
//
// A Resolver never fails: when its artifact did not verify, every call
// returns a corrupt escalation, so a bad or tampered artifact degrades to
// the backend (or to an honest "corrupt" message) instead of answering.
type Resolver struct {
	// art is the verified private copy; nil when verification failed,
	// and err then says why (a payload-free *protocol.Diagnostic).
	art *protocol.Artifact
	err error
	now func() int64

	// suggest holds, per entry, the value a choices suggestion carries:
	// computed once because it depends only on the artifact.
	suggest []string
}

// Option configures a Resolver.
type Option func(*Resolver)

// WithClock sets the clock used for the expiry check, in Unix milliseconds.
// Tests and the conformance vectors pin time with it; the default is the
// system clock.
func WithClock(now func() int64) Option {
	return func(r *Resolver) {
		if now != nil {
			r.now = now
		}
	}
}

func systemClock() int64 { return time.Now().UnixMilli() }

// errPanic reports a verification that panicked; it is treated like any
// other failed verification rather than taking the caller down.
var errPanic = errors.New("resolve: artifact verification panicked")

// New builds a Resolver for a, verified against the site config's trusted
// anchors. Verification runs again here, synchronously, even when a came
// from a verifying decoder: an artifact value changed after it was decoded
// must not answer, and the Resolver keeps a private copy so later changes
// to a cannot reach it either. A nil artifact or a failed verification
// yields a Resolver whose every call escalates as corrupt.
func New(a *protocol.Artifact, trust protocol.Trust, opts ...Option) *Resolver {
	r := &Resolver{now: systemClock}
	for _, o := range opts {
		o(r)
	}
	art, err := reverify(a, trust)
	if err != nil {
		r.err = err
		return r
	}
	r.art = art
	r.suggest = make([]string, len(art.Entries))
	for i := range art.Entries {
		r.suggest[i] = suggestionValue(art, i)
	}
	return r
}

func reverify(a *protocol.Artifact, trust protocol.Trust) (art *protocol.Artifact, err error) {
	defer func() {
		if recover() != nil {
			art, err = nil, errPanic
		}
	}()
	return protocol.Reverify(a, trust)
}

// suggestionValue is the text a choices suggestion submits for entry i: its
// first declared alias (trimmed, not normalized, so it reads as the author
// wrote it) whose key belongs to that entry alone, so that asking it again
// answers instead of offering the same choices. The unique-alias rule
// guarantees one exists; the fallbacks only keep the function total.
func suggestionValue(a *protocol.Artifact, i int) string {
	e := &a.Entries[i]
	keys := e.Keys()
	for j, v := range e.Values {
		if j < len(keys) && len(a.Matches(keys[j])) == 1 {
			return v
		}
	}
	if len(e.Values) > 0 {
		return e.Values[0]
	}
	return e.ID
}

// Resolve answers query, in the order the protocol fixes:
//
//  1. an expired artifact escalates as stale, whatever the query, even at
//     the exact expiresAt instant;
//  2. a query over 512 UTF-16 units, or one whose normalization is, is a
//     miss: it is never cut down into a match;
//  3. no owner of the normalized key is a miss, several are choices (the
//     first 8 in artifact order), exactly one is that entry's answer.
func (r *Resolver) Resolve(query string) *protocol.Envelope {
	query = validUTF8(query)
	if r.art == nil {
		return protocol.Escalate(query, protocol.ReasonCorrupt)
	}
	if r.stale() {
		return protocol.Escalate(query, protocol.ReasonStale)
	}
	if protocol.UTF16Len(query) > protocol.MaxQueryLen {
		return protocol.Escalate(query, protocol.ReasonMiss)
	}
	key := protocol.NormalizeKey(query)
	if protocol.UTF16Len(key) > protocol.MaxQueryLen {
		return escalation(query, protocol.TruncateUTF16(key, protocol.MaxQueryLen), protocol.ReasonMiss, protocol.MessageMiss)
	}
	owners := r.art.Matches(key)
	switch len(owners) {
	case 0:
		return escalation(query, key, protocol.ReasonMiss, protocol.MessageMiss)
	case 1:
		return r.answer(owners[0], query, key)
	}
	return r.choices(owners, query, key)
}

// ResolveChoice answers a choice the user picked from a choices envelope
// for originalQuery. The choice is honoured only when choiceID is among the
// (at most 8) entries that query offers, so a forged id cannot reach an
// entry the question never matched. Anything else is a miss with the
// "selected answer unavailable" message.
func (r *Resolver) ResolveChoice(choiceID, originalQuery string) *protocol.Envelope {
	originalQuery = validUTF8(originalQuery)
	if r.art == nil {
		return protocol.Escalate(originalQuery, protocol.ReasonCorrupt)
	}
	if r.stale() {
		return protocol.Escalate(originalQuery, protocol.ReasonStale)
	}
	if protocol.UTF16Len(originalQuery) > protocol.MaxQueryLen {
		return protocol.EscalateWith(originalQuery, protocol.ReasonMiss, protocol.MessageChoiceMissing)
	}
	key := protocol.NormalizeKey(originalQuery)
	if protocol.UTF16Len(key) <= protocol.MaxQueryLen {
		owners := r.art.Matches(key)
		if len(owners) > protocol.MaxSuggestions {
			owners = owners[:protocol.MaxSuggestions]
		}
		for _, i := range owners {
			if r.art.Entries[i].ID == choiceID {
				return r.answer(i, originalQuery, key)
			}
		}
	}
	return escalation(originalQuery, protocol.TruncateUTF16(key, protocol.MaxQueryLen), protocol.ReasonMiss, protocol.MessageChoiceMissing)
}

// stale reports whether the artifact has expired. The clock is read only
// for artifacts that expire; expiry is inclusive, so an artifact is already
// stale at the exact expiresAt instant.
func (r *Resolver) stale() bool {
	exp, ok := r.art.Expires()
	return ok && exp <= r.now()
}

// validUTF8 replaces each byte of invalid UTF-8 with U+FFFD, as
// ecmajson.Parse and ecmajson.AppendString do, so an envelope never echoes
// bytes that no JSON text can carry (an ECMAScript string cannot hold them
// either). Valid input is returned as is, without allocating.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// escalation builds an escalation for a query of at most 512 units whose
// normalized key (cut to 512) is already known, so the hot path does not
// normalize twice.
func escalation(query, key string, reason protocol.Reason, message string) *protocol.Envelope {
	return &protocol.Envelope{
		Outcome: protocol.OutcomeEscalation, Query: query, NormalizedQuery: key,
		Message: message, Reason: reason,
		Confidence: protocol.Confidence{Level: protocol.LevelLow, Basis: string(reason)},
	}
}

// answerBlock puts everything an answer envelope points to in one
// allocation.
type answerBlock struct {
	env  protocol.Envelope
	prov protocol.Provenance
	ans  protocol.Answer
	ids  [1]string
}

// answer returns entry i's answer. The envelope gets its own copy of the
// answer and citations, so a caller that edits an envelope cannot change
// what the Resolver answers next.
func (r *Resolver) answer(i int, query, key string) *protocol.Envelope {
	e := &r.art.Entries[i]
	// Fields are set one by one: b is fresh, and whole-struct assignments
	// would copy with bulk write barriers.
	b := &answerBlock{}
	b.ids[0] = e.ID
	b.ans.Markdown = e.Answer.Markdown
	if len(e.Answer.Citations) > 0 {
		b.ans.Citations = append([]protocol.Citation(nil), e.Answer.Citations...)
	}
	b.prov.Source = protocol.SourceLocal
	b.prov.ArtifactID = r.art.ArtifactID
	b.prov.ContentHash = r.art.ContentHash
	b.prov.EntryIDs = b.ids[:]
	b.env.Outcome = protocol.OutcomeAnswer
	b.env.Query = query
	b.env.NormalizedQuery = key
	b.env.Answer = &b.ans
	b.env.Provenance = &b.prov
	b.env.Confidence = protocol.Confidence{Level: protocol.LevelHigh, Basis: protocol.BasisExact}
	return &b.env
}

// choicesBlock is answerBlock for choices envelopes.
type choicesBlock struct {
	env  protocol.Envelope
	prov protocol.Provenance
	sugg [protocol.MaxSuggestions]protocol.Suggestion
	ids  [protocol.MaxSuggestions]string
}

// choices offers the first 8 owners of the key in artifact order, each
// with the alias that answers it alone.
func (r *Resolver) choices(owners []int, query, key string) *protocol.Envelope {
	if len(owners) > protocol.MaxSuggestions {
		owners = owners[:protocol.MaxSuggestions]
	}
	n := len(owners)
	b := &choicesBlock{}
	for k, i := range owners {
		e := &r.art.Entries[i]
		s := &b.sugg[k]
		s.ID, s.Label, s.Value = e.ID, e.Label, r.suggest[i]
		b.ids[k] = e.ID
	}
	b.prov.Source = protocol.SourceLocal
	b.prov.ArtifactID = r.art.ArtifactID
	b.prov.ContentHash = r.art.ContentHash
	b.prov.EntryIDs = b.ids[:n:n]
	b.env.Outcome = protocol.OutcomeChoices
	b.env.Query = query
	b.env.NormalizedQuery = key
	b.env.Message = protocol.MessageChoices
	b.env.Suggestions = b.sugg[:n:n]
	b.env.Provenance = &b.prov
	b.env.Confidence = protocol.Confidence{Level: protocol.LevelMedium, Basis: protocol.BasisAmbiguous}
	return &b.env
}
