package store

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// Bounds of a stored session. A record is checked against them before it
// is written, and a stored row is checked again when it is read, so a
// store never holds or returns more than the protocol allows.
const (
	// MaxMessages is AskBackendSessionRecordSchema's bound on messages.
	MaxMessages = protocol.MaxAskMessages
	// MaxContentLen bounds one message's content in UTF-16 code units, the
	// Ask wire's own bound.
	MaxContentLen = protocol.MaxAskContentLen
	// MaxKeyLen bounds each key part in bytes. Site and session ids are
	// SafeIdentifiers (at most 128) and subjects at most 256 characters.
	MaxKeyLen = 256
	// MaxEncodedBytes bounds the stored JSON of one record: every message at
	// its longest, every code unit at its widest escape (\u00XX, 6 bytes),
	// plus the members' own bytes. A stored row longer than this is corrupt.
	MaxEncodedBytes = 2 + MaxMessages*(6*MaxContentLen+len(`{"role":"assistant","content":""},`))
)

// Reasons, fixed texts of *Error.Reason.
const (
	reasonKeyEmpty      = "key part is empty"
	reasonKeyTooLong    = "key part is too long"
	reasonKeyText       = "key part is not valid UTF-8 text without NUL"
	reasonRevision      = "revision must be expectedRevision+1 and expectedRevision at least 0"
	reasonTooMany       = "too many messages"
	reasonRole          = "message role is not user or assistant"
	reasonContentLen    = "message content is too long"
	reasonContentText   = "message content is not valid UTF-8"
	reasonRowTooLarge   = "stored messages are too large"
	reasonRowJSON       = "stored messages are not a strict message list"
	reasonRowRevision   = "stored revision is not positive"
	reasonRowNoMessages = "stored messages are missing"
	reasonTooLarge      = "record is larger than MaxSessionBytes"
)

// checkKey enforces MaxKeyLen and plain text on every key part. Postgres
// text cannot hold NUL, and a key that is not valid UTF-8 would compare
// differently in each backend.
func checkKey(op string, k session.Key) error {
	for _, p := range [...]string{k.SiteID, k.Subject, k.SessionID} {
		reason, limit := "", 0
		switch {
		case p == "":
			reason = reasonKeyEmpty
		case len(p) > MaxKeyLen:
			reason, limit = reasonKeyTooLong, MaxKeyLen
		case !utf8.ValidString(p) || strings.IndexByte(p, 0) >= 0:
			reason = reasonKeyText
		}
		if reason != "" {
			return &Error{Code: CodeInvalidKey, Op: op, Reason: reason, Limit: limit}
		}
	}
	return nil
}

// checkRecord enforces the record schema before anything is written, and
// returns the messages' stored JSON and the record's session.Size, which
// must be at most maxBytes. Content must be valid UTF-8 because JSON
// cannot carry other bytes: a store that silently replaced them would not
// give back what it was given. For valid UTF-8, session.Size is the JSON's
// length plus RecordOverheadBytes (record_test.go holds the two equal), so
// the record's text is read once here, not once more to size it.
func checkRecord(r session.Record, expectedRevision int, maxBytes int64) ([]byte, int64, error) {
	if err := checkSchema(r, expectedRevision); err != nil {
		return nil, 0, err
	}
	raw := encodeMessages(r.Messages)
	size := int64(session.RecordOverheadBytes + len(raw))
	if size > maxBytes {
		return nil, 0, &Error{Code: CodeInvalidRecord, Op: "save", Reason: reasonTooLarge, Limit: int(maxBytes), Err: session.ErrRecordTooLarge}
	}
	return raw, size, nil
}

func checkSchema(r session.Record, expectedRevision int) error {
	invalid := func(reason string, limit int) error {
		return &Error{Code: CodeInvalidRecord, Op: "save", Reason: reason, Limit: limit}
	}
	if expectedRevision < 0 || expectedRevision == math.MaxInt || r.Revision != expectedRevision+1 {
		return invalid(reasonRevision, 0)
	}
	if len(r.Messages) > MaxMessages {
		return invalid(reasonTooMany, MaxMessages)
	}
	for _, m := range r.Messages {
		if m.Role != protocol.RoleUser && m.Role != protocol.RoleAssistant {
			return invalid(reasonRole, 0)
		}
		// Cheap byte bound first: a string of n bytes has at most n units.
		if len(m.Content) > MaxContentLen && protocol.UTF16Len(m.Content) > MaxContentLen {
			return invalid(reasonContentLen, MaxContentLen)
		}
		if !utf8.ValidString(m.Content) {
			return invalid(reasonContentText, 0)
		}
	}
	return nil
}

// encodeMessages writes messages as a JSON array of {"role","content"}
// objects, escaped as JSON.stringify escapes, so the stored text is what
// a JavaScript reader of the same record would write.
func encodeMessages(msgs []protocol.AskMessage) []byte {
	n := 2
	for _, m := range msgs {
		n += len(m.Content) + 32
	}
	w := ecmajson.NewWriter(make([]byte, 0, n))
	w.BeginArray()
	for _, m := range msgs {
		w.BeginObject()
		w.StringMember("role", m.Role)
		w.StringMember("content", m.Content)
		w.EndObject()
	}
	w.EndArray()
	return w.Bytes()
}

// decodeRow turns a stored row back into a Record, strictly: a positive
// revision, at most MaxMessages objects with exactly the members role and
// content, known roles, bounded content. Anything else is CodeCorrupt,
// never a panic and never a partial record.
func decodeRow(revision int64, raw string) (session.Record, error) {
	corrupt := func(reason string) (session.Record, error) {
		return session.Record{}, &Error{Code: CodeCorrupt, Op: "load", Reason: reason, Err: &session.CorruptError{Revision: int(revision)}}
	}
	if revision < 1 {
		return corrupt(reasonRowRevision)
	}
	if len(raw) > MaxEncodedBytes {
		return corrupt(reasonRowTooLarge)
	}
	v, ok := ecmajson.ParseString(raw)
	if !ok || v.Kind != ecmajson.Array || len(v.Items) > MaxMessages {
		return corrupt(reasonRowJSON)
	}
	msgs := make([]protocol.AskMessage, 0, len(v.Items))
	for i := range v.Items {
		m, ok := decodeMessage(&v.Items[i])
		if !ok {
			return corrupt(reasonRowJSON)
		}
		msgs = append(msgs, m)
	}
	return session.Record{Revision: int(revision), Messages: msgs}, nil
}

func decodeMessage(o *ecmajson.Value) (protocol.AskMessage, bool) {
	if o.Kind != ecmajson.Object {
		return protocol.AskMessage{}, false
	}
	var m protocol.AskMessage
	var role, content bool
	for key, v := range o.Members() {
		if v.Kind != ecmajson.String {
			return m, false
		}
		switch {
		case key == "role" && !role:
			role, m.Role = true, v.Str
		case key == "content" && !content:
			content, m.Content = true, v.Str
		default: // unknown or repeated member
			return m, false
		}
	}
	switch m.Role { // the constants, so no role aliases the row's text
	case protocol.RoleUser:
		m.Role = protocol.RoleUser
	case protocol.RoleAssistant:
		m.Role = protocol.RoleAssistant
	default:
		return m, false
	}
	return m, content && protocol.UTF16Len(m.Content) <= MaxContentLen
}
