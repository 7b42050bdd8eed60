package ask

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/askplane/askplane/internal/protocol"
)

// SiteProtocol names the trusted backend site record.
const SiteProtocol = "agentskit.chat.backend-site"

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

// Site is an agentskit.chat.backend-site v1 record: the trusted,
// server-side description of one site's Ask backend. It comes from the
// server's config, never from a request. Call Validate at load time; New
// does.
type Site struct {
	Protocol    string      `json:"protocol,omitempty"` // SiteProtocol or ""
	Version     int         `json:"version,omitempty"`  // 1 or 0
	SiteID      string      `json:"siteId"`
	Assistant   Assistant   `json:"assistant"`
	Corpus      Corpus      `json:"corpus"`
	Components  []string    `json:"components,omitempty"`
	Actions     []string    `json:"actions,omitempty"`
	Limits      Limits      `json:"limits"`
	Persistence Persistence `json:"persistence"`
}

// Assistant is the persona that answers; its ID is what ?persona= must name.
type Assistant struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Suggestions []string `json:"suggestions,omitempty"`
}

// Corpus is the site's corpus; its ID is what ?corpus= must name.
type Corpus struct {
	ID   string `json:"id"`
	Mode string `json:"mode"` // CorpusLocal or CorpusFederated
}

// Limits are the site's deadlines, in milliseconds, and its source cap.
type Limits struct {
	RequestTimeoutMs    int `json:"requestTimeoutMs"`    // 100–120,000
	RetrievalTimeoutMs  int `json:"retrievalTimeoutMs"`  // 100–60,000
	GenerationTimeoutMs int `json:"generationTimeoutMs"` // 100–120,000
	MaxSources          int `json:"maxSources"`          // 1–8
}

// Persistence says whether every request must carry a session.
type Persistence struct {
	Mode string `json:"mode"` // PersistenceRequired or PersistenceDisabled
}

// Bounds of a backend site record.
const (
	MaxSiteSources   = 8
	maxSiteListItems = 64
)

// ErrInvalidSite is wrapped by every Validate and DecodeSite failure.
var ErrInvalidSite = errors.New("ask: invalid backend site")

func siteErr(field string) error { return fmt.Errorf("%w: %s", ErrInvalidSite, field) }

// Validate checks the record against the backend-site v1 schema. Names are
// checked trimmed; Validate does not rewrite them.
func (s *Site) Validate() error {
	switch {
	case s.Protocol != "" && s.Protocol != SiteProtocol:
		return siteErr("protocol")
	case s.Version != 0 && s.Version != protocol.Version:
		return siteErr("version")
	case !protocol.ValidIdentifier(s.SiteID):
		return siteErr("siteId")
	case !protocol.ValidIdentifier(s.Assistant.ID):
		return siteErr("assistant.id")
	case !trimmedLen(s.Assistant.Name, 1, protocol.MaxLabelLen):
		return siteErr("assistant.name")
	case len(s.Assistant.Suggestions) > protocol.MaxSuggestions:
		return siteErr("assistant.suggestions")
	case !protocol.ValidIdentifier(s.Corpus.ID):
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
	case !within(s.Limits.MaxSources, 1, MaxSiteSources):
		return siteErr("limits.maxSources")
	case s.Persistence.Mode != PersistenceRequired && s.Persistence.Mode != PersistenceDisabled:
		return siteErr("persistence.mode")
	}
	for _, l := range s.Assistant.Suggestions {
		if !trimmedLen(l, 1, protocol.MaxLabelLen) {
			return siteErr("assistant.suggestions")
		}
	}
	return nil
}

// DecodeSite decodes a backend site record strictly (unknown members and
// trailing data are errors) and validates it.
func DecodeSite(data []byte) (*Site, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Site
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidSite, err)
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
		if !protocol.ValidIdentifier(id) {
			return false
		}
	}
	return true
}

func within(n, lo, hi int) bool { return n >= lo && n <= hi }

func trimmedLen(s string, lo, hi int) bool {
	return within(protocol.UTF16Len(protocol.Trim(s)), lo, hi)
}
