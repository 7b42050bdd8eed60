package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// BackendSiteProtocol names the trusted backend site record.
const BackendSiteProtocol = "agentskit.chat.backend-site"

// Corpus modes of a backend site.
const (
	CorpusLocal     = "local"
	CorpusFederated = "federated"
)

// Persistence modes of a backend site.
const (
	PersistenceRequired = "required"
	PersistenceDisabled = "disabled"
)

// BackendSite is an agentskit.chat.backend-site v1 record: the trusted,
// server-side description of one site's Ask backend. It comes from the
// server's config, never from a request. It is validated once, at load
// time, into a TrustedSite (Trust, TrustBackendSite), which the handlers
// take.
type BackendSite struct {
	Protocol    string             `json:"protocol,omitempty"` // BackendSiteProtocol or ""
	Version     int                `json:"version,omitempty"`  // 1 or 0
	SiteID      string             `json:"siteId"`
	Assistant   BackendAssistant   `json:"assistant"`
	Corpus      BackendCorpus      `json:"corpus"`
	Components  []string           `json:"components,omitempty"`
	Actions     []string           `json:"actions,omitempty"`
	Limits      BackendLimits      `json:"limits"`
	Persistence BackendPersistence `json:"persistence"`
}

// BackendAssistant is the persona that answers; its ID is what ?persona= must name.
type BackendAssistant struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Suggestions []string `json:"suggestions,omitempty"`
}

// BackendCorpus is the site's corpus; its ID is what ?corpus= must name.
type BackendCorpus struct {
	ID   string `json:"id"`
	Mode string `json:"mode"` // CorpusLocal or CorpusFederated
}

// BackendLimits are the site's deadlines, in milliseconds, and its source cap.
type BackendLimits struct {
	RequestTimeoutMs    int `json:"requestTimeoutMs"`    // 100–120,000
	RetrievalTimeoutMs  int `json:"retrievalTimeoutMs"`  // 100–60,000
	GenerationTimeoutMs int `json:"generationTimeoutMs"` // 100–120,000
	MaxSources          int `json:"maxSources"`          // 1–8
}

// BackendPersistence says whether every request must carry a session.
type BackendPersistence struct {
	Mode string `json:"mode"` // PersistenceRequired or PersistenceDisabled
}

// Bounds of a backend site record.
const (
	MaxBackendSources = 8
	maxSiteListItems  = 64
)

// ErrInvalidBackendSite is wrapped by every Validate and DecodeBackendSite failure.
var ErrInvalidBackendSite = errors.New("protocol: invalid backend site")

func siteErr(field string) error { return fmt.Errorf("%w: %s", ErrInvalidBackendSite, field) }

// Validate checks the record against the backend-site v1 schema. Names are
// checked trimmed; Validate does not rewrite them.
func (s *BackendSite) Validate() error {
	switch {
	case s.Protocol != "" && s.Protocol != BackendSiteProtocol:
		return siteErr("protocol")
	case s.Version != 0 && s.Version != Version:
		return siteErr("version")
	case !ValidIdentifier(s.SiteID):
		return siteErr("siteId")
	case !ValidIdentifier(s.Assistant.ID):
		return siteErr("assistant.id")
	case !trimmedLen(s.Assistant.Name, 1, MaxLabelLen):
		return siteErr("assistant.name")
	case len(s.Assistant.Suggestions) > MaxSuggestions:
		return siteErr("assistant.suggestions")
	case !ValidIdentifier(s.Corpus.ID):
		return siteErr("corpus.id")
	case s.Corpus.Mode != CorpusLocal && s.Corpus.Mode != CorpusFederated:
		return siteErr("corpus.mode")
	case !validIDs(s.Components):
		return siteErr("components")
	case !validIDs(s.Actions):
		return siteErr("actions")
	case !within(s.Limits.RequestTimeoutMs, 100, 120_000):
		return siteErr("limits.requestTimeoutMs")
	case !within(s.Limits.RetrievalTimeoutMs, 100, 60_000):
		return siteErr("limits.retrievalTimeoutMs")
	case !within(s.Limits.GenerationTimeoutMs, 100, 120_000):
		return siteErr("limits.generationTimeoutMs")
	case !within(s.Limits.MaxSources, 1, MaxBackendSources):
		return siteErr("limits.maxSources")
	case s.Persistence.Mode != PersistenceRequired && s.Persistence.Mode != PersistenceDisabled:
		return siteErr("persistence.mode")
	}
	for _, l := range s.Assistant.Suggestions {
		if !trimmedLen(l, 1, MaxLabelLen) {
			return siteErr("assistant.suggestions")
		}
	}
	return nil
}

// DecodeBackendSite decodes a backend site record strictly (unknown members and
// trailing data are errors) and validates it.
func DecodeBackendSite(data []byte) (*BackendSite, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s BackendSite
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidBackendSite, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, siteErr("trailing data")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

func validIDs(list []string) bool {
	if len(list) > maxSiteListItems {
		return false
	}
	for _, id := range list {
		if !ValidIdentifier(id) {
			return false
		}
	}
	return true
}

func within(n, lo, hi int) bool { return n >= lo && n <= hi }

func trimmedLen(s string, lo, hi int) bool {
	return within(UTF16Len(Trim(s)), lo, hi)
}
