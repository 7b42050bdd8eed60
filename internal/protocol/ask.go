package protocol

import (
	"bytes"

	"github.com/askplane/askplane/internal/ecmajson"
)

// Limits of the agentskit.chat.ask v1 request. Lengths count UTF-16 code
// units; sizes count UTF-8 bytes.
const (
	// MaxAskBodyBytes is the default request body limit of the Ask server
	// (its maxBodyBytes). DecodeAskRequest rejects larger input before
	// parsing; the HTTP layer enforces the configured limit earlier, while
	// reading the body, and answers 413 there, so this bound only keeps the
	// decoder safe when it is called on its own.
	MaxAskBodyBytes = 65_536
	// MaxAskMessages bounds the submitted history.
	MaxAskMessages = 64
	// MaxAskContentLen bounds one message's content. Content is not trimmed
	// and may be empty.
	MaxAskContentLen = 16_384
)

// Message roles of an Ask history.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// AskRequest is an agentskit.chat.ask v1 request body. The schema is strict:
// any member it does not name, such as a client-chosen siteId or corpus, is
// rejected, because authority never comes from the body.
type AskRequest struct {
	// SessionID is a SafeIdentifier, or "" when the request is unscoped.
	SessionID string
	// Messages holds 1 to MaxAskMessages turns, oldest first.
	Messages []AskMessage
	// Deterministic is the local escalation that led to this request, or
	// nil. Its outcome is always escalation.
	Deterministic *Envelope
}

// AskMessage is one turn of an Ask history.
type AskMessage struct {
	Role    string // RoleUser or RoleAssistant
	Content string // at most MaxAskContentLen UTF-16 units, untrimmed
}

// Messages of Ask request diagnostics. They name the rule that failed and
// never quote the input.
const (
	msgAskInvalid     = "Ask request is invalid."
	msgAskInvalidJSON = "Ask request is not valid JSON."
	msgAskTooLarge    = "Ask request body is too large."
)

func askInvalid(msg string) *Diagnostic {
	return &Diagnostic{Code: CodeAskInvalidRequest, Message: msg}
}

// utf8BOM is dropped from the front of a body, as the reference server's
// TextDecoder drops it before JSON.parse.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// protoKey is the one member name a strict zod object does not treat as
// unknown: zod 4 skips "__proto__" when it looks for unrecognized keys (so
// it cannot reach the prototype setter) and leaves it out of the output.
// JSON.parse makes it an ordinary own property, so a body carrying it is
// accepted upstream; we ignore it the same way.
const protoKey = "__proto__"

// strictKeys reports whether o, an object, has no member other than allowed
// (and __proto__, see protoKey).
func strictKeys(o *ecmajson.Value, allowed ...string) bool {
next:
	for k := range o.Members() {
		for _, a := range allowed {
			if k == a {
				continue next
			}
		}
		if k != protoKey {
			return false
		}
	}
	return true
}

// DecodeAskRequest decodes an agentskit.chat.ask v1 request body. Every
// failure is a *Diagnostic with code ASK_INVALID_REQUEST and a fixed
// message: a body over MaxAskBodyBytes (checked before parsing), bad JSON,
// or a schema failure. One leading UTF-8 byte order mark is ignored. A
// present null is rejected for every optional member.
func DecodeAskRequest(data []byte) (*AskRequest, error) {
	if len(data) > MaxAskBodyBytes {
		return nil, askInvalid(msgAskTooLarge)
	}
	root, ok := ecmajson.Parse(bytes.TrimPrefix(data, utf8BOM))
	if !ok {
		return nil, askInvalid(msgAskInvalidJSON)
	}
	if root.Kind != ecmajson.Object || !strictKeys(&root, "protocol", "version", "sessionId", "messages", "deterministic") {
		return nil, askInvalid(msgAskInvalid)
	}
	var d decoder
	if v := d.optional(&root, "protocol"); v != nil {
		d.literal(v, AskProtocol)
	}
	if v := d.optional(&root, "version"); v != nil {
		d.check(v.Kind == ecmajson.Number && v.Num == Version)
	}
	req := &AskRequest{}
	if v := d.optional(&root, "sessionId"); v != nil {
		req.SessionID = d.identifier(v)
	}
	list := d.array(d.field(&root, "messages"), 1, MaxAskMessages)
	req.Messages = make([]AskMessage, len(list))
	for i := range list {
		o := d.object(&list[i])
		d.check(strictKeys(o, "role", "content"))
		req.Messages[i] = AskMessage{
			Role:    d.oneOf(d.field(o, "role"), RoleUser, RoleAssistant),
			Content: d.raw(d.field(o, "content"), 0, MaxAskContentLen),
		}
	}
	if v := d.optional(&root, "deterministic"); v != nil {
		e, err := decodeEnvelopeValue(v)
		d.check(err == nil && e.Outcome == OutcomeEscalation)
		req.Deterministic = e
	}
	if d.failed {
		return nil, askInvalid(msgAskInvalid)
	}
	return req, nil
}

// MarshalJSON writes the request as the reference client sends it:
// {"protocol","version","sessionId"?,"messages","deterministic"?}, in that
// order, with ECMAScript string escaping. SessionID is written when
// non-empty and Deterministic when non-nil.
func (r *AskRequest) MarshalJSON() ([]byte, error) {
	var w ecmajson.Writer
	writeHeader(&w, AskProtocol)
	if r.SessionID != "" {
		w.StringMember("sessionId", r.SessionID)
	}
	w.Key("messages")
	w.BeginArray()
	for _, m := range r.Messages {
		w.BeginObject()
		w.StringMember("role", m.Role)
		w.StringMember("content", m.Content)
		w.EndObject()
	}
	w.EndArray()
	if r.Deterministic != nil {
		env, err := r.Deterministic.MarshalJSON()
		if err != nil {
			return nil, err
		}
		w.Key("deterministic")
		w.Raw(env)
	}
	w.EndObject()
	return w.Bytes(), nil
}
