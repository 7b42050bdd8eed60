package resolve

import (
	"strings"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/protocol"
)

// Action says where a resolved question goes next.
type Action uint8

const (
	// Local: serve Decision.Envelope to the user as is.
	Local Action = iota
	// Escalate: call the Ask backend, passing Decision.Envelope as the
	// escalation that explains why the local plane did not answer.
	Escalate
)

func (a Action) String() string {
	if a == Escalate {
		return "escalate"
	}
	return "local"
}

// Decision is the adapter's verdict on one resolved envelope.
type Decision struct {
	Action   Action
	Envelope *protocol.Envelope
}

// Decide applies the site's fallback mode to a resolver result. Answers and
// choices are always served locally. An escalation goes to the backend only
// when the site allows it (mode backend) and a backend is there; otherwise
// it is served locally, with a miss turned into offline, since "a backend
// answer is required" is no use to a reader when there is no backend. Stale
// and corrupt keep their reason even offline: they say what is wrong with
// the local knowledge, which stays true.
//
// env is not modified; a nil env is treated as a corrupt escalation.
func Decide(env *protocol.Envelope, mode protocol.FallbackMode, backendAvailable bool) Decision {
	if env == nil {
		env = protocol.Escalate("", protocol.ReasonCorrupt)
	}
	if env.Outcome != protocol.OutcomeEscalation {
		return Decision{Action: Local, Envelope: env}
	}
	if mode == protocol.FallbackBackend && backendAvailable {
		return Decision{Action: Escalate, Envelope: env}
	}
	if env.Reason == protocol.ReasonMiss {
		off := &protocol.Envelope{
			Outcome: protocol.OutcomeEscalation, Query: env.Query, NormalizedQuery: env.NormalizedQuery,
			Message: protocol.MessageOffline, Reason: protocol.ReasonOffline,
			Confidence: protocol.Confidence{Level: protocol.LevelLow, Basis: string(protocol.ReasonOffline)},
		}
		return Decision{Action: Local, Envelope: off}
	}
	return Decision{Action: Local, Envelope: env}
}

// BackendInfo names the backend in the provenance of its answers. Empty
// fields are left out.
type BackendInfo struct {
	Provider string
	Model    string
}

// MaxObservation is how much backend output, in UTF-16 units, the adapter
// buffers to build the backend envelope. Longer output is not answered
// from: its envelope is a corrupt escalation.
const MaxObservation = 262_144

// Messages of the corrupt escalations BackendEnvelope returns. They are
// the AgentsKit wordings; the visible stream is never altered, only the
// envelope attached to it.
const (
	MessageBackendInvalidContent    = "Backend answer contained invalid ordered content."
	MessageBackendIncompleteContent = "Backend answer ended with incomplete ordered content."
	MessageBackendTooLong           = "Backend answer exceeded the unified response limit."
	MessageBackendOverflow          = "Backend stream exceeded the observation limit."
)

// BackendEnvelope builds the answer envelope for what the backend streamed
// for query (the escalation's query). content is the buffered text output
// and overflow reports that more than MaxObservation units arrived (content
// that is itself longer counts as overflow too).
//
// Output that cannot be trusted to be whole is a corrupt escalation: an
// overflow, content that claims to be ordered content but does not decode
// or stops mid-record, or markdown over 16,384 units. Otherwise the
// markdown is the text records joined (or the raw content when it is not
// ordered content), trimmed, and the citations come from source-list
// frames. ok is false when the markdown is empty: there is no answer to
// describe, so no envelope is attached.
func BackendEnvelope(query, content string, overflow bool, backend BackendInfo) (env *protocol.Envelope, ok bool) {
	query = validUTF8(query)
	content = validUTF8(content)
	if overflow || protocol.UTF16Len(content) > MaxObservation {
		return protocol.EscalateWith(query, protocol.ReasonCorrupt, MessageBackendOverflow), true
	}
	var parts []Part
	ordered := IsContentCandidate(content)
	markdown := content
	if ordered {
		var complete bool
		var err error
		parts, complete, err = DecodeContent(content)
		if err != nil {
			return protocol.EscalateWith(query, protocol.ReasonCorrupt, MessageBackendInvalidContent), true
		}
		if !complete {
			return protocol.EscalateWith(query, protocol.ReasonCorrupt, MessageBackendIncompleteContent), true
		}
		var sb strings.Builder
		for _, p := range parts {
			if p.Kind == PartText {
				sb.WriteString(p.Text)
			}
		}
		markdown = sb.String()
	}
	markdown = protocol.Trim(markdown)
	if markdown == "" {
		return nil, false
	}
	if protocol.UTF16Len(markdown) > protocol.MaxMarkdownLen {
		return protocol.EscalateWith(query, protocol.ReasonCorrupt, MessageBackendTooLong), true
	}
	q, n := protocol.QueryFields(query)
	prov := &protocol.Provenance{Source: protocol.SourceBackend}
	prov.Provider, _ = providerName(backend.Provider)
	prov.Model, _ = providerName(backend.Model)
	return &protocol.Envelope{
		Outcome: protocol.OutcomeAnswer, Query: q, NormalizedQuery: n,
		Answer:     &protocol.Answer{Markdown: markdown, Citations: citations(parts)},
		Provenance: prov,
		Confidence: protocol.Confidence{Level: protocol.LevelHigh, Basis: protocol.BasisBackend},
	}, true
}

// providerName trims a provenance provider or model; one that is empty or
// over 128 units after trimming is left out rather than failing the answer,
// since it is host configuration, not backend output.
func providerName(s string) (string, bool) {
	s = protocol.Trim(validUTF8(s))
	if !lenBetween(s, 1, protocol.MaxProviderLen) {
		return "", false
	}
	return s, true
}

// citations collects, in order, the sources with a url from the
// source-list frames in parts, keeping at most 8 that are valid citations.
// A frame whose props are not a valid source list contributes nothing; a
// source whose id, title or url is not valid as a citation is dropped.
func citations(parts []Part) []protocol.Citation {
	out := []protocol.Citation{}
	for _, p := range parts {
		if p.Kind != PartComponent || p.Frame.ComponentKey != SourceListKey {
			continue
		}
		sources, ok := sourceList(&p.Frame.props)
		if !ok {
			continue
		}
		for _, s := range sources {
			url, hasURL := s.StringMember("url")
			if !hasURL {
				continue
			}
			id, _ := s.StringMember("id")
			title, _ := s.StringMember("title")
			title = protocol.Trim(title)
			if !protocol.ValidIdentifier(id) || !lenBetween(title, 1, protocol.MaxTitleLen) || !protocol.ValidHref(url) {
				continue
			}
			out = append(out, protocol.Citation{ID: id, Title: title, Href: url})
			if len(out) == protocol.MaxCitations {
				return out
			}
		}
	}
	return out
}

// Bounds of the catalog's source-list props.
const (
	maxSources        = 50
	maxSourceLabelLen = 256
	maxSnippetLen     = 4096
)

// sourceList checks props against the catalog's strict source-list shape,
// {label, sources:[{id, title, url?, snippet?}]} with no other members and
// unique ids, and returns the sources. The catalog's url rule (root-relative
// or an http(s) URL without credentials) is approximated by "root-relative
// or a valid SafeHref"; since every citation must be a SafeHref anyway, the
// two differ only on which frames are dropped whole.
func sourceList(props *ecmajson.Value) ([]ecmajson.Value, bool) {
	if !onlyKeys(props, "label", "sources") {
		return nil, false
	}
	label, ok := props.StringMember("label")
	if !ok || !lenBetween(label, 1, maxSourceLabelLen) {
		return nil, false
	}
	list, _ := props.Member("sources")
	if list == nil || list.Kind != ecmajson.Array || len(list.Items) < 1 || len(list.Items) > maxSources {
		return nil, false
	}
	seen := make(map[string]struct{}, len(list.Items))
	for i := range list.Items {
		s := &list.Items[i]
		if !onlyKeys(s, "id", "title", "url", "snippet") {
			return nil, false
		}
		id, ok := s.StringMember("id")
		if !ok || !protocol.ValidIdentifier(id) {
			return nil, false
		}
		if _, dup := seen[id]; dup {
			return nil, false
		}
		seen[id] = struct{}{}
		if title, ok := s.StringMember("title"); !ok || !lenBetween(title, 1, maxSourceLabelLen) {
			return nil, false
		}
		if v, present := s.Member("url"); present {
			if v.Kind != ecmajson.String || !portableURL(v.Str) {
				return nil, false
			}
		}
		if v, present := s.Member("snippet"); present {
			if v.Kind != ecmajson.String || !lenBetween(v.Str, 1, maxSnippetLen) {
				return nil, false
			}
		}
	}
	return list.Items, true
}

func portableURL(s string) bool {
	if protocol.UTF16Len(s) > protocol.MaxHrefLen {
		return false
	}
	return (len(s) > 0 && s[0] == '/' && (len(s) == 1 || s[1] != '/')) || protocol.ValidHref(s)
}

// onlyKeys reports whether v is an object whose members are all named in
// keys (a strict schema).
func onlyKeys(v *ecmajson.Value, keys ...string) bool {
	if v == nil || v.Kind != ecmajson.Object {
		return false
	}
next:
	for m := range v.Members() {
		for _, k := range keys {
			if m == k {
				continue next
			}
		}
		return false
	}
	return true
}
