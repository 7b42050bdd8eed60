package session

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/protocol"
)

// Byte bounds. Every store measures a record with Size, the bytes of the
// JSON text the durable stores write (internal/store's encoding, with
// JSON.stringify's escaping) plus RecordOverheadBytes, so one record counts
// the same in memory, in SQLite and in PostgreSQL.
const (
	// RecordOverheadBytes is what a record costs beyond its messages: its
	// key, revision and timestamps, and their index entries, roughly. It
	// makes an empty record count too, so a subject's share bounds how many
	// sessions it holds, not only their text.
	RecordOverheadBytes = 64
	// MinSessionBytes is the smallest MaxSessionBytes Validate accepts: a
	// record of one message at its longest and widest (MaxAskContentLen
	// UTF-16 units, each a 6-byte \u00XX escape). Above it, Fit can always
	// keep a newest user turn on its own.
	MinSessionBytes int64 = RecordOverheadBytes + int64(len(`[{"role":"assistant","content":""}]`)) + 6*protocol.MaxAskContentLen

	// DefaultMaxSessionBytes bounds one record: above MinSessionBytes
	// (≈96 KiB), so any single valid turn fits, and room for the full 64
	// messages of a typical conversation (a question and an answer of a
	// few KB each), while a session of 64 maximal messages (≈1 MiB) is not
	// kept whole.
	DefaultMaxSessionBytes = 128 << 10
	// DefaultMaxSubjectBytes bounds the sessions of one subject on one
	// site: four full sessions. Past it the subject's own oldest-written
	// sessions go, not anyone else's.
	DefaultMaxSubjectBytes = 512 << 10
	// DefaultMaxMemoryBytes bounds a MemoryStore: 64 MiB of process memory
	// (at least 512 full sessions, tens of thousands of typical ones).
	DefaultMaxMemoryBytes = 64 << 20
	// DefaultMaxDurableBytes bounds a durable store's table (SQLite,
	// PostgreSQL), enforced by its pruner: 1 GiB on disk.
	DefaultMaxDurableBytes = 1 << 30
)

// Limits bound the bytes sessions take, as Size measures them.
type Limits struct {
	// MaxSessionBytes bounds one record; Save refuses a larger one
	// (ErrRecordTooLarge). Fit shortens a record to it.
	MaxSessionBytes int64
	// MaxSubjectBytes bounds the records of one (SiteID, Subject). A Save
	// that takes a subject past it evicts that subject's oldest-written
	// sessions, never the one just saved.
	MaxSubjectBytes int64
	// MaxTotalBytes bounds the whole store. MemoryStore evicts the
	// oldest-written sessions on Save; durable stores when they prune.
	MaxTotalBytes int64
}

// Errors of Limits.Validate and of a Save over MaxSessionBytes. They are
// stable: branch on them with errors.Is.
var (
	// ErrSessionBytesTooSmall: MaxSessionBytes is below MinSessionBytes.
	ErrSessionBytesTooSmall = errors.New("session: MaxSessionBytes is below MinSessionBytes")
	// ErrLimitsOrder: the limits are not MaxSessionBytes <= MaxSubjectBytes
	// <= MaxTotalBytes.
	ErrLimitsOrder = errors.New("session: limits must be MaxSessionBytes <= MaxSubjectBytes <= MaxTotalBytes")
	// ErrRecordTooLarge: Save was given a record whose Size is over
	// MaxSessionBytes; nothing was written. Shorten it with Fit.
	ErrRecordTooLarge = errors.New("session: record is larger than MaxSessionBytes")
)

// DefaultLimits are a MemoryStore's limits.
func DefaultLimits() Limits {
	return Limits{MaxSessionBytes: DefaultMaxSessionBytes, MaxSubjectBytes: DefaultMaxSubjectBytes, MaxTotalBytes: DefaultMaxMemoryBytes}
}

// DefaultDurableLimits are the limits of a store on disk.
func DefaultDurableLimits() Limits {
	l := DefaultLimits()
	l.MaxTotalBytes = DefaultMaxDurableBytes
	return l
}

// Or returns l with each zero field taken from d.
func (l Limits) Or(d Limits) Limits {
	if l.MaxSessionBytes == 0 {
		l.MaxSessionBytes = d.MaxSessionBytes
	}
	if l.MaxSubjectBytes == 0 {
		l.MaxSubjectBytes = d.MaxSubjectBytes
	}
	if l.MaxTotalBytes == 0 {
		l.MaxTotalBytes = d.MaxTotalBytes
	}
	return l
}

// Validate reports whether l can be enforced: MinSessionBytes <=
// MaxSessionBytes <= MaxSubjectBytes <= MaxTotalBytes. The error wraps
// ErrSessionBytesTooSmall or ErrLimitsOrder.
func (l Limits) Validate() error {
	if l.MaxSessionBytes < MinSessionBytes {
		return fmt.Errorf("%w (%d < %d)", ErrSessionBytesTooSmall, l.MaxSessionBytes, MinSessionBytes)
	}
	if l.MaxSubjectBytes < l.MaxSessionBytes || l.MaxTotalBytes < l.MaxSubjectBytes {
		return fmt.Errorf("%w (%d, %d, %d)", ErrLimitsOrder, l.MaxSessionBytes, l.MaxSubjectBytes, l.MaxTotalBytes)
	}
	return nil
}

// Size is the bytes r counts against the limits: RecordOverheadBytes plus
// the length of the JSON array the durable stores write for r.Messages
// ([{"role":…,"content":…},…] with JSON.stringify's escaping, each invalid
// UTF-8 byte as U+FFFD). It reads every content byte once and allocates
// nothing.
func Size(r Record) int64 {
	n := int64(RecordOverheadBytes + len("[]"))
	for i, m := range r.Messages {
		if i > 0 {
			n++ // the comma
		}
		n += MessageBytes(m)
	}
	return n
}

// MessageBytes is the length of m's JSON object in a stored record,
// {"role":…,"content":…}, without the separating comma.
func MessageBytes(m protocol.AskMessage) int64 {
	return int64(len(`{"role":,"content":}`)) + jsonStringLen(m.Role) + jsonStringLen(m.Content)
}

// jsonStringLen is the length of s as a JSON string, quotes included,
// escaped as ecmajson.AppendString escapes it (internal/store's tests
// hold the two equal).
func jsonStringLen(s string) int64 {
	n := int64(len(s) + 2)
	if !utf8.ValidString(s) {
		return n + invalidUTF8Extra(s)
	}
	i := 0
	// Eight bytes at a time while none needs escaping: most text.
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if hasLess(w, 0x20) || hasZero(w^(lsb*'"')) || hasZero(w^(lsb*'\\')) {
			for _, c := range []byte(s[i : i+8]) {
				n += int64(escapeExtra[c])
			}
		}
	}
	for ; i < len(s); i++ {
		n += int64(escapeExtra[s[i]])
	}
	return n
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// hasZero reports whether a byte of w is 0, hasLess whether a byte of w
// is below b (b at most 0x80), by the well-known bit tricks. A false
// positive would only cost the exact byte loop.
func hasZero(w uint64) bool           { return (w-lsb)&^w&msb != 0 }
func hasLess(w uint64, b uint64) bool { return (w-lsb*b)&^w&msb != 0 }

// escapeExtra is what escaping adds to one byte of valid UTF-8: 1 for
// quote, backslash and the controls with a short form, 5 for the other
// C0 controls (\u00xx), 0 for everything else.
var escapeExtra = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = 5
	}
	for _, c := range []byte{'"', '\\', '\b', '\f', '\n', '\r', '\t'} {
		t[c] = 1
	}
	return t
}()

// invalidUTF8Extra is escapeExtra's sum for s, plus 2 for each byte of
// invalid UTF-8, which is written as U+FFFD (three bytes).
func invalidUTF8Extra(s string) (n int64) {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n += int64(escapeExtra[s[i]])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			n += 2
		}
		i += size
	}
	return n
}

// Fit returns r with its oldest turns dropped until Size is at most
// maxBytes. It cuts only before a user message, so user/assistant pairs
// stay aligned, and never drops the newest user message or anything after
// it: when that much alone is over maxBytes, the result is that much, and
// still over (a Save of it fails with ErrRecordTooLarge). A record that
// fits is returned as it is. The result shares r's backing array; the
// revision is unchanged.
func Fit(r Record, maxBytes int64) Record {
	size := Size(r)
	if size <= maxBytes {
		return r
	}
	last := -1 // the newest user message
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == protocol.RoleUser {
			last = i
			break
		}
	}
	if last < 0 { // nothing to protect: drop from the front
		last = len(r.Messages)
	}
	for i := 0; i < last; i++ {
		size -= MessageBytes(r.Messages[i])
		if i+1 < len(r.Messages) {
			size-- // the comma after it
		}
		next := i + 1
		if next < last && r.Messages[next].Role != protocol.RoleUser {
			continue // not a cut point
		}
		if size <= maxBytes {
			r.Messages = r.Messages[next:]
			return r
		}
	}
	r.Messages = r.Messages[last:]
	return r
}

// Limited is a Store that says its limits, so a writer can Fit a record
// to them before it saves.
type Limited interface {
	Limits() Limits
}
