package protocol

import (
	"errors"

	"github.com/askplane/askplane/internal/ecmajson"
)

// Outcome discriminates an answer envelope.
type Outcome string

const (
	OutcomeAnswer     Outcome = "answer"
	OutcomeChoices    Outcome = "choices"
	OutcomeEscalation Outcome = "escalation"
)

// Reason says why a question escalates. There is no "protocol" reason:
// malformed or oversized data is corrupt.
type Reason string

const (
	ReasonMiss    Reason = "miss"
	ReasonStale   Reason = "stale"
	ReasonCorrupt Reason = "corrupt"
	ReasonOffline Reason = "offline"
)

// Confidence levels and bases.
const (
	LevelHigh   = "high"
	LevelMedium = "medium"
	LevelLow    = "low"

	BasisExact     = "exact"
	BasisAmbiguous = "ambiguous"
	BasisBackend   = "backend"
)

// Provenance sources.
const (
	SourceLocal   = "local"
	SourceBackend = "backend"
)

// Envelope is an agentskit.chat.answer v1 document, the one shape every
// answer takes whether it came from the local artifact or the backend.
// Which fields are set depends on Outcome:
//
//	answer:     Answer, Provenance (local or backend), Confidence high
//	choices:    Message, Suggestions, Provenance (local), Confidence medium/ambiguous
//	escalation: Message, Reason, optional CandidateEntryIDs, Confidence low/<reason>
type Envelope struct {
	Outcome         Outcome
	Query           string
	NormalizedQuery string

	Answer      *Answer
	Message     string
	Suggestions []Suggestion
	Reason      Reason
	// CandidateEntryIDs is written only when non-nil.
	CandidateEntryIDs []string
	Provenance        *Provenance
	Confidence        Confidence
}

// Suggestion is one choice offered when several entries match exactly.
// Value is the entry's uniquely owned alias, so submitting it answers.
type Suggestion struct {
	ID    string
	Label string
	Value string
}

// Provenance says where an answer came from. Local provenance names the
// artifact and entries; backend provenance may name a provider and model.
type Provenance struct {
	Source      string
	ArtifactID  string
	ContentHash string
	EntryIDs    []string
	Provider    string
	Model       string
}

// Confidence is a level and the basis for it.
type Confidence struct {
	Level string
	Basis string
}

// Escalation messages the resolver uses. Messages are free text on the
// wire; these are the AgentsKit wordings so both clients read the same.
const (
	MessageChoices       = "More than one exact local answer matches. Choose one to continue."
	MessageMiss          = "No exact local answer was found. A backend answer is required."
	MessageStale         = "Local knowledge is stale. A backend answer is required."
	MessageCorrupt       = "Local knowledge is corrupt. A backend answer is required."
	MessageOffline       = "This question needs the backend, which is not available."
	MessageChoiceMissing = "The selected local answer is unavailable. A backend answer is required."
)

// QueryFields returns the query and normalizedQuery an envelope carries for
// a raw question: the query cut to 512 UTF-16 units, and its normalization
// cut to 512 units (normalization can expand text past the limit).
func QueryFields(raw string) (query, normalized string) {
	query = TruncateUTF16(raw, MaxQueryLen)
	return query, TruncateUTF16(NormalizeKey(query), MaxQueryLen)
}

// Escalate returns the escalation envelope for query with the standard
// message for reason.
func Escalate(raw string, reason Reason) *Envelope {
	msg := MessageMiss
	switch reason {
	case ReasonStale:
		msg = MessageStale
	case ReasonCorrupt:
		msg = MessageCorrupt
	case ReasonOffline:
		msg = MessageOffline
	}
	return EscalateWith(raw, reason, msg)
}

// EscalateWith is Escalate with a chosen message.
func EscalateWith(raw string, reason Reason, message string) *Envelope {
	q, n := QueryFields(raw)
	return &Envelope{
		Outcome: OutcomeEscalation, Query: q, NormalizedQuery: n,
		Message: message, Reason: reason,
		Confidence: Confidence{Level: LevelLow, Basis: string(reason)},
	}
}

// DecodeEnvelope decodes an agentskit.chat.answer v1 document. The byte
// limit is checked before parsing; unknown members are stripped.
func DecodeEnvelope(data []byte) (*Envelope, error) {
	if len(data) > MaxAnswerBytes {
		return nil, limitExceeded()
	}
	root, ok := ecmajson.Parse(data)
	if !ok {
		return nil, invalidJSON()
	}
	return decodeEnvelopeValue(&root)
}

func decodeEnvelopeValue(root *ecmajson.Value) (*Envelope, error) {
	if diag := header(root, AnswerProtocol); diag != nil {
		return nil, diag
	}
	var d decoder
	e := &Envelope{
		Outcome:         Outcome(d.oneOf(d.field(root, "outcome"), string(OutcomeAnswer), string(OutcomeChoices), string(OutcomeEscalation))),
		Query:           d.raw(d.field(root, "query"), 0, MaxQueryLen),
		NormalizedQuery: d.raw(d.field(root, "normalizedQuery"), 0, MaxQueryLen),
	}
	conf := d.object(d.field(root, "confidence"))
	e.Confidence = Confidence{
		Level: d.oneOf(d.field(conf, "level"), LevelHigh, LevelMedium, LevelLow),
		Basis: d.oneOf(d.field(conf, "basis"), BasisExact, BasisAmbiguous, string(ReasonMiss), string(ReasonStale), string(ReasonCorrupt), string(ReasonOffline), BasisBackend),
	}
	switch e.Outcome {
	case OutcomeAnswer:
		ans := d.object(d.field(root, "answer"))
		e.Answer = &Answer{
			Markdown:  d.raw(d.field(ans, "markdown"), 1, MaxMarkdownLen),
			Citations: decodeCitations(&d, d.field(ans, "citations")),
		}
		for _, c := range e.Answer.Citations {
			d.check(ValidIdentifier(c.ID) && ValidHref(c.Href))
			d.length(c.Title, 1, MaxTitleLen)
		}
		e.Provenance = decodeProvenance(&d, d.field(root, "provenance"))
		if e.Provenance.Source == SourceLocal {
			d.check(e.Confidence == Confidence{LevelHigh, BasisExact} && len(e.Provenance.EntryIDs) == 1)
		} else {
			d.check(e.Confidence == Confidence{LevelHigh, BasisBackend})
		}
	case OutcomeChoices:
		e.Message = d.raw(d.field(root, "message"), 1, MaxMessageLen)
		list := d.array(d.field(root, "suggestions"), MinSuggestions, MaxSuggestions)
		e.Suggestions = make([]Suggestion, len(list))
		for i := range list {
			o := d.object(&list[i])
			e.Suggestions[i] = Suggestion{
				ID:    d.identifier(d.field(o, "id")),
				Label: d.text(d.field(o, "label"), 1, MaxLabelLen),
				Value: d.text(d.field(o, "value"), 1, MaxAliasLen),
			}
		}
		e.Provenance = decodeProvenance(&d, d.field(root, "provenance"))
		d.check(e.Provenance.Source == SourceLocal && e.Confidence == Confidence{LevelMedium, BasisAmbiguous})
		d.check(len(e.Provenance.EntryIDs) == len(e.Suggestions))
		for i := range e.Suggestions {
			d.check(i < len(e.Provenance.EntryIDs) && e.Suggestions[i].ID == e.Provenance.EntryIDs[i])
		}
	case OutcomeEscalation:
		e.Message = d.raw(d.field(root, "message"), 1, MaxMessageLen)
		e.Reason = Reason(d.oneOf(d.field(root, "reason"), string(ReasonMiss), string(ReasonStale), string(ReasonCorrupt), string(ReasonOffline)))
		if v := d.optional(root, "candidateEntryIds"); v != nil {
			e.CandidateEntryIDs = identifiers(&d, v, 0, MaxEntryIDs)
		}
		d.check(e.Confidence == Confidence{LevelLow, string(e.Reason)})
	}
	if d.failed {
		return nil, invalid()
	}
	// The normalized query must be the normalization of the query, cut to
	// 512 units, so a sender cannot claim a different key than it asked.
	if _, n := QueryFields(e.Query); n != e.NormalizedQuery {
		return nil, invalid()
	}
	return e, nil
}

func identifiers(d *decoder, v *ecmajson.Value, min, max int) []string {
	list := d.array(v, min, max)
	out := make([]string, len(list))
	for i := range list {
		out[i] = d.identifier(&list[i])
	}
	return out
}

func decodeProvenance(d *decoder, v *ecmajson.Value) *Provenance {
	o := d.object(v)
	p := &Provenance{Source: d.oneOf(d.field(o, "source"), SourceLocal, SourceBackend)}
	switch p.Source {
	case SourceLocal:
		p.ArtifactID = d.identifier(d.field(o, "artifactId"))
		p.ContentHash = d.contentHash(d.field(o, "contentHash"))
		p.EntryIDs = identifiers(d, d.field(o, "entryIds"), 1, MaxEntryIDs)
	case SourceBackend:
		if v := d.optional(o, "provider"); v != nil {
			p.Provider = d.text(v, 1, MaxProviderLen)
		}
		if v := d.optional(o, "model"); v != nil {
			p.Model = d.text(v, 1, MaxProviderLen)
		}
	}
	return p
}

// errEnvelopeShape is MarshalJSON's error for an envelope missing a part
// its outcome requires.
var errEnvelopeShape = errors.New("protocol: answer envelope needs Answer and Provenance; choices envelope needs Provenance")

// MarshalJSON writes the envelope as JSON.stringify would write the decoded
// value: keys in schema order, strings escaped as ECMAScript escapes them.
// It does not validate field values, but it refuses an answer envelope
// without Answer or Provenance and a choices envelope without Provenance:
// writing "answer":{} or leaving provenance out would produce a document
// no peer decodes, and the mistake would surface far from its cause.
func (e *Envelope) MarshalJSON() ([]byte, error) {
	switch e.Outcome {
	case OutcomeAnswer:
		if e.Answer == nil || e.Provenance == nil {
			return nil, errEnvelopeShape
		}
	case OutcomeChoices:
		if e.Provenance == nil {
			return nil, errEnvelopeShape
		}
	}
	var w ecmajson.Writer
	writeHeader(&w, AnswerProtocol)
	w.StringMember("outcome", string(e.Outcome))
	w.StringMember("query", e.Query)
	w.StringMember("normalizedQuery", e.NormalizedQuery)
	switch e.Outcome {
	case OutcomeAnswer:
		w.Key("answer")
		w.BeginObject()
		w.StringMember("markdown", e.Answer.Markdown)
		w.Key("citations")
		appendCitations(&w, e.Answer.Citations)
		w.EndObject()
		e.appendProvenance(&w)
	case OutcomeChoices:
		w.StringMember("message", e.Message)
		w.Key("suggestions")
		w.BeginArray()
		for _, s := range e.Suggestions {
			w.BeginObject()
			w.StringMember("id", s.ID)
			w.StringMember("label", s.Label)
			w.StringMember("value", s.Value)
			w.EndObject()
		}
		w.EndArray()
		e.appendProvenance(&w)
	case OutcomeEscalation:
		w.StringMember("message", e.Message)
		w.StringMember("reason", string(e.Reason))
		if e.CandidateEntryIDs != nil {
			w.Key("candidateEntryIds")
			w.Strings(e.CandidateEntryIDs)
		}
	}
	w.Key("confidence")
	w.BeginObject()
	w.StringMember("level", e.Confidence.Level)
	w.StringMember("basis", e.Confidence.Basis)
	w.EndObject()
	w.EndObject()
	return w.Bytes(), nil
}

// appendProvenance writes the provenance MarshalJSON has checked is there.
func (e *Envelope) appendProvenance(w *ecmajson.Writer) {
	p := e.Provenance
	w.Key("provenance")
	w.BeginObject()
	w.StringMember("source", p.Source)
	if p.Source == SourceLocal {
		w.StringMember("artifactId", p.ArtifactID)
		w.StringMember("contentHash", p.ContentHash)
		w.Key("entryIds")
		w.Strings(p.EntryIDs)
	} else {
		if p.Provider != "" {
			w.StringMember("provider", p.Provider)
		}
		if p.Model != "" {
			w.StringMember("model", p.Model)
		}
	}
	w.EndObject()
}
