package protocol

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
	root, ok := parseJSON(data)
	if !ok {
		return nil, invalidJSON()
	}
	return decodeEnvelopeValue(&root)
}

func decodeEnvelopeValue(root *jsonValue) (*Envelope, error) {
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

func identifiers(d *decoder, v *jsonValue, min, max int) []string {
	list := d.array(v, min, max)
	out := make([]string, len(list))
	for i := range list {
		out[i] = d.identifier(&list[i])
	}
	return out
}

func decodeProvenance(d *decoder, v *jsonValue) *Provenance {
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

// MarshalJSON writes the envelope as JSON.stringify would write the decoded
// value: keys in schema order, strings escaped as ECMAScript escapes them.
func (e *Envelope) MarshalJSON() ([]byte, error) {
	var w jsonWriter
	w.open('{')
	w.member("protocol", AnswerProtocol)
	w.key("version")
	w.int(Version)
	w.member("outcome", string(e.Outcome))
	w.member("query", e.Query)
	w.member("normalizedQuery", e.NormalizedQuery)
	switch e.Outcome {
	case OutcomeAnswer:
		w.key("answer")
		w.open('{')
		if e.Answer != nil {
			w.member("markdown", e.Answer.Markdown)
			w.key("citations")
			appendCitations(&w, e.Answer.Citations)
		}
		w.close('}')
		e.appendProvenance(&w)
	case OutcomeChoices:
		w.member("message", e.Message)
		w.key("suggestions")
		w.open('[')
		for _, s := range e.Suggestions {
			w.open('{')
			w.member("id", s.ID)
			w.member("label", s.Label)
			w.member("value", s.Value)
			w.close('}')
		}
		w.close(']')
		e.appendProvenance(&w)
	case OutcomeEscalation:
		w.member("message", e.Message)
		w.member("reason", string(e.Reason))
		if e.CandidateEntryIDs != nil {
			w.key("candidateEntryIds")
			w.strs(e.CandidateEntryIDs)
		}
	}
	w.key("confidence")
	w.open('{')
	w.member("level", e.Confidence.Level)
	w.member("basis", e.Confidence.Basis)
	w.close('}')
	w.close('}')
	return w.b, nil
}

func (e *Envelope) appendProvenance(w *jsonWriter) {
	p := e.Provenance
	if p == nil {
		return
	}
	w.key("provenance")
	w.open('{')
	w.member("source", p.Source)
	if p.Source == SourceLocal {
		w.member("artifactId", p.ArtifactID)
		w.member("contentHash", p.ContentHash)
		w.key("entryIds")
		w.strs(p.EntryIDs)
	} else {
		if p.Provider != "" {
			w.member("provider", p.Provider)
		}
		if p.Model != "" {
			w.member("model", p.Model)
		}
	}
	w.close('}')
}
