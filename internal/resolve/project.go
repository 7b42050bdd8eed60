package resolve

import (
	"strings"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/protocol"
)

// Component keys and instance-id prefixes of the frames a local decision
// projects to. The choice-list prefix is what marks a frame as a
// deterministic choice list that Reservations guards.
const (
	SourceListKey = "source-list"
	ChoiceListKey = "choice-list"

	ChoicesInstancePrefix = "deterministic-choices-"

	sourcesInstancePrefix   = "sources-"
	sourcesInstanceFallback = "deterministic-sources"
	choicesInstanceFallback = "deterministic-choices"
	sourcesLabel            = "Sources"
)

// Project renders an envelope as the ordered assistant content the widget
// shows, for the user message messageID:
//
//	answer:     the markdown, then a source-list frame when there are citations
//	choices:    the message, then a choice-list frame offering the suggestions
//	escalation: the message
//
// The bytes match what the AgentsKit adapter writes, so both clients render
// and reserve the same frames. It returns "" for a nil or invalid envelope
// (one whose text would not be a valid record).
func Project(env *protocol.Envelope, messageID string) string {
	if env == nil {
		return ""
	}
	var w contentWriter
	switch env.Outcome {
	case protocol.OutcomeAnswer:
		if env.Answer == nil {
			return ""
		}
		w.text(env.Answer.Markdown)
		if cits := env.Answer.Citations; len(cits) > 0 {
			props, summary := sourceListProps(cits)
			w.frame(SourceListKey, sanitize(sourcesInstancePrefix+messageID, sourcesInstanceFallback), props, SourceListKey, summary)
		}
	case protocol.OutcomeChoices:
		instanceID, props, ok := ChoiceFrame(env, messageID)
		if !ok {
			return ""
		}
		w.text(env.Message)
		w.frame(ChoiceListKey, instanceID, props, ChoiceListKey, choiceSummary(env))
	case protocol.OutcomeEscalation:
		w.text(env.Message)
	default:
		return ""
	}
	return w.String()
}

// ChoiceFrame returns the instance id and the exact props JSON of the
// choice-list frame Project writes for a choices envelope. Reservations are
// keyed on both, so a submission for a frame whose props were altered is
// refused.
func ChoiceFrame(env *protocol.Envelope, messageID string) (instanceID string, props []byte, ok bool) {
	if env == nil || env.Outcome != protocol.OutcomeChoices || len(env.Suggestions) == 0 {
		return "", nil, false
	}
	w := ecmajson.NewWriter(make([]byte, 0, 64+len(env.Message)+len(env.Suggestions)*96))
	w.BeginObject()
	w.StringMember("prompt", env.Message)
	w.Key("choices")
	w.BeginArray()
	for _, s := range env.Suggestions {
		w.BeginObject()
		w.StringMember("id", s.ID)
		w.StringMember("label", s.Label)
		w.StringMember("description", s.Value)
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
	return sanitize(ChoicesInstancePrefix+messageID, choicesInstanceFallback), w.Bytes(), true
}

// choiceSummary is the choice list's text fallback: the message and the
// labels, for renderers that cannot show the component.
func choiceSummary(env *protocol.Envelope) string {
	var sb strings.Builder
	sb.WriteString(env.Message)
	sb.WriteByte(' ')
	for i, s := range env.Suggestions {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(s.Label)
	}
	sb.WriteByte('.')
	return sb.String()
}

// sourceListProps returns the source-list props for citations, with the
// href under "url" as the catalog's source-list expects, and the text
// fallback naming the titles.
func sourceListProps(cits []protocol.Citation) (props []byte, summary string) {
	w := ecmajson.NewWriter(make([]byte, 0, 64+len(cits)*96))
	w.BeginObject()
	w.StringMember("label", sourcesLabel)
	w.Key("sources")
	w.BeginArray()
	var sb strings.Builder
	sb.WriteString(sourcesLabel + ": ")
	for i, c := range cits {
		if i > 0 {
			sb.WriteString(", ")
		}
		w.BeginObject()
		w.StringMember("id", c.ID)
		w.StringMember("title", c.Title)
		w.StringMember("url", c.Href)
		w.EndObject()
		sb.WriteString(c.Title)
	}
	w.EndArray()
	w.EndObject()
	sb.WriteByte('.')
	return w.Bytes(), sb.String()
}

// sanitize turns s into a SafeIdentifier for a frame instance id: every
// UTF-16 unit outside [A-Za-z0-9._:-] becomes "-" (so a character outside
// the BMP becomes "--", as String.prototype.replace sees two units), the
// result is cut to 128, and fallback is used when it does not start with a
// letter or digit.
func sanitize(s, fallback string) string {
	b := make([]byte, 0, min(len(s), protocol.MaxIdentifierLen))
	for i := 0; i < len(s) && len(b) < protocol.MaxIdentifierLen; {
		c := s[i]
		if c < utf8.RuneSelf {
			if isIDByte(c) {
				b = append(b, c)
			} else {
				b = append(b, '-')
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		b = append(b, '-')
		if r > 0xFFFF {
			b = append(b, '-')
		}
		i += size
	}
	if len(b) > protocol.MaxIdentifierLen {
		b = b[:protocol.MaxIdentifierLen]
	}
	if len(b) == 0 || !isAlnum(b[0]) {
		return fallback
	}
	return string(b)
}

func isAlnum(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func isIDByte(c byte) bool { return isAlnum(c) || c == '.' || c == '_' || c == ':' || c == '-' }
