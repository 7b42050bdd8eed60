package resolve

import (
	"strings"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/protocol"
)

// Ordered assistant content (agentskit.chat.content/1) is how one assistant
// message string carries prose and component frames in order: a record
// separator and a header line, then one JSON record per line. Text records
// are JSON-escaped, so model text that merely looks like a frame stays
// inert.
const (
	// ContentMarker is the record separator (U+001E) that opens ordered
	// content; anything else is plain text.
	ContentMarker = "\x1e"
	// ContentPrefix is the marker and the version header.
	ContentPrefix = ContentMarker + "agentskit.chat.content/1\n"

	// MaxContentBytes bounds the whole content string in UTF-8 bytes.
	MaxContentBytes = 262_144
	// MaxContentRecords bounds the number of records.
	MaxContentRecords = 512
	// MaxTextLen bounds one text record, in UTF-16 units.
	MaxTextLen = 16_384

	// ComponentProtocol and ComponentVersion name the frame contract.
	ComponentProtocol = "agentskit.chat.component"
	ComponentVersion  = 1

	maxComponentKeyLen  = 64
	maxFallbackKindLen  = 64
	maxFallbackSummary  = 4096
	contentHeaderPrefix = "agentskit.chat.content/"
)

// ContentCode is a stable ordered-content diagnostic code.
type ContentCode string

const (
	ContentUnsupportedVersion ContentCode = "ASSISTANT_CONTENT_UNSUPPORTED_VERSION"
	ContentInvalidRecord      ContentCode = "ASSISTANT_CONTENT_INVALID_RECORD"
	ContentLimitExceeded      ContentCode = "ASSISTANT_CONTENT_LIMIT_EXCEEDED"
)

// ContentError is the payload-free reason ordered content was rejected. It
// never quotes the content.
type ContentError struct {
	Code    ContentCode
	Message string
}

func (e *ContentError) Error() string { return "resolve: " + string(e.Code) + ": " + e.Message }

var (
	errUnsupportedContent = &ContentError{ContentUnsupportedVersion, "Assistant content envelope uses an unsupported version."}
	errInvalidRecord      = &ContentError{ContentInvalidRecord, "Assistant content record is invalid."}
	errContentLimit       = &ContentError{ContentLimitExceeded, "Assistant content envelope exceeds its safety limit."}
	errNotContent         = &ContentError{ContentInvalidRecord, "Assistant content is not ordered content."}
)

// PartKind discriminates a content part.
type PartKind string

const (
	PartText      PartKind = "text"
	PartComponent PartKind = "component"
)

// Part is one decoded record: text, or a validated component frame.
type Part struct {
	Kind  PartKind
	Text  string
	Frame *Frame
}

// Frame is a validated agentskit.chat.component v1 render frame. Props is
// kept as parsed JSON; only the catalog component that renders it gives it
// a shape.
type Frame struct {
	ComponentKey    string
	InstanceID      string
	FallbackKind    string
	FallbackSummary string

	props ecmajson.Value
}

// IsContentCandidate reports whether content claims to be ordered content.
// Content that claims it must decode; content that does not is plain text.
func IsContentCandidate(content string) bool { return strings.HasPrefix(content, ContentMarker) }

// DecodeContent decodes ordered content. It returns the complete records;
// complete is false when the content stops inside the header or inside a
// record (no trailing newline), which is normal while a stream is still
// arriving and the unfinished record is then ignored. Content that is not
// ordered content, has another version, breaks a limit, or has a complete
// record that is not a valid text or component record is an error.
func DecodeContent(content string) (parts []Part, complete bool, err error) {
	if !IsContentCandidate(content) {
		return nil, false, errNotContent
	}
	if len(content) > MaxContentBytes {
		return nil, false, errContentLimit
	}
	body, ok := strings.CutPrefix(content, ContentPrefix)
	if !ok {
		return nil, false, headerError(content)
	}
	var p ecmajson.Parser
	for len(body) > 0 {
		line, rest, found := strings.Cut(body, "\n")
		if !found {
			return parts, false, nil
		}
		if len(parts) == MaxContentRecords {
			return nil, false, errContentLimit
		}
		part, ok := decodeRecord(&p, line)
		if !ok {
			return nil, false, errInvalidRecord
		}
		parts = append(parts, part)
		body = rest
	}
	return parts, true, nil
}

// headerError classifies content whose header is not the v1 prefix: a
// header still arriving is not an error yet (reported as incomplete by
// returning nil), another numeric version is unsupported, anything else is
// invalid.
func headerError(content string) error {
	if strings.HasPrefix(ContentPrefix, content) {
		return nil
	}
	header, _, _ := strings.Cut(content[len(ContentMarker):], "\n")
	if v, ok := strings.CutPrefix(header, contentHeaderPrefix); ok && v != "" && strings.Trim(v, "0123456789") == "" {
		return errUnsupportedContent
	}
	return errInvalidRecord
}

// decodeRecord decodes one record line with p, which DecodeContent reuses
// from line to line. Strings in the part may alias line.
func decodeRecord(p *ecmajson.Parser, line string) (Part, bool) {
	v, ok := p.ParseString(line)
	if !ok || v.Kind != ecmajson.Object {
		return Part{}, false
	}
	kind, _ := v.StringMember("kind")
	switch PartKind(kind) {
	case PartText:
		text, ok := v.StringMember("text")
		if !ok || !lenBetween(text, 1, MaxTextLen) {
			return Part{}, false
		}
		return Part{Kind: PartText, Text: text}, true
	case PartComponent:
		fv, _ := v.Member("frame")
		f, ok := decodeFrame(fv)
		if !ok {
			return Part{}, false
		}
		return Part{Kind: PartComponent, Frame: f}, true
	}
	return Part{}, false
}

// decodeFrame validates a render frame. Unknown members are stripped, as
// the v1 frame schema strips them.
func decodeFrame(v *ecmajson.Value) (*Frame, bool) {
	if v == nil || v.Kind != ecmajson.Object {
		return nil, false
	}
	proto, _ := v.StringMember("protocol")
	typ, _ := v.StringMember("type")
	ver, _ := v.Member("version")
	if proto != ComponentProtocol || typ != "render" || ver == nil || ver.Kind != ecmajson.Number || ver.Num != ComponentVersion {
		return nil, false
	}
	f := &Frame{}
	var ok bool
	if f.ComponentKey, ok = v.StringMember("componentKey"); !ok || !validComponentKey(f.ComponentKey) {
		return nil, false
	}
	if f.InstanceID, ok = v.StringMember("instanceId"); !ok || !protocol.ValidIdentifier(f.InstanceID) {
		return nil, false
	}
	props, _ := v.Member("props")
	if props == nil || props.Kind != ecmajson.Object || !boundedProps(props) {
		return nil, false
	}
	f.props = *props
	fb, _ := v.Member("fallback")
	if fb == nil || fb.Kind != ecmajson.Object {
		return nil, false
	}
	if f.FallbackKind, ok = fb.StringMember("kind"); !ok || !lenBetween(f.FallbackKind, 1, maxFallbackKindLen) {
		return nil, false
	}
	if f.FallbackSummary, ok = fb.StringMember("summary"); !ok || !lenBetween(f.FallbackSummary, 1, maxFallbackSummary) {
		return nil, false
	}
	return f, true
}

// validComponentKey reports whether s matches ^[a-z][a-z0-9-]{0,63}$.
func validComponentKey(s string) bool {
	if len(s) == 0 || len(s) > maxComponentKeyLen || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '-' {
			return false
		}
	}
	return true
}

func lenBetween(s string, min, max int) bool {
	n := protocol.UTF16Len(s)
	return n >= min && n <= max
}

// contentWriter encodes ordered content: the prefix once, then one record
// per line. It refuses records the decoder would refuse, so what askplane
// writes always decodes.
type contentWriter struct {
	b       []byte
	records int
	failed  bool
}

func (w *contentWriter) start() {
	if len(w.b) == 0 {
		w.b = append(w.b, ContentPrefix...)
	}
}

func (w *contentWriter) text(s string) {
	if !lenBetween(s, 1, MaxTextLen) {
		w.failed = true
		return
	}
	w.start()
	w.b = append(w.b, `{"kind":"text","text":`...)
	w.b = ecmajson.AppendString(w.b, s)
	w.b = append(w.b, '}')
	w.end()
}

// frame writes a component record. props must be the exact JSON of the
// props object, as JSON.stringify writes it.
func (w *contentWriter) frame(componentKey, instanceID string, props []byte, fallbackKind, summary string) {
	if !validComponentKey(componentKey) || !protocol.ValidIdentifier(instanceID) ||
		!lenBetween(fallbackKind, 1, maxFallbackKindLen) || !lenBetween(summary, 1, maxFallbackSummary) {
		w.failed = true
		return
	}
	w.start()
	w.b = append(w.b, `{"kind":"component","frame":{"protocol":"`+ComponentProtocol+`","version":1,"type":"render","componentKey":`...)
	w.b = ecmajson.AppendString(w.b, componentKey)
	w.b = append(w.b, `,"instanceId":`...)
	w.b = ecmajson.AppendString(w.b, instanceID)
	w.b = append(w.b, `,"props":`...)
	w.b = append(w.b, props...)
	w.b = append(w.b, `,"fallback":{"kind":`...)
	w.b = ecmajson.AppendString(w.b, fallbackKind)
	w.b = append(w.b, `,"summary":`...)
	w.b = ecmajson.AppendString(w.b, summary)
	w.b = append(w.b, "}}}"...)
	w.end()
}

func (w *contentWriter) end() {
	w.b = append(w.b, '\n')
	w.records++
}

// String returns the content, or "" when a record was refused or a limit
// was broken.
func (w *contentWriter) String() string {
	if w.failed || len(w.b) > MaxContentBytes || w.records > MaxContentRecords {
		return ""
	}
	return string(w.b)
}
