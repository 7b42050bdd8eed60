package protocol_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

func TestSiteValidate(t *testing.T) {
	good := testSite()
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*protocol.BackendSite){
		"protocol":    func(s *protocol.BackendSite) { s.Protocol = "agentskit.chat.site" },
		"version":     func(s *protocol.BackendSite) { s.Version = 2 },
		"siteId":      func(s *protocol.BackendSite) { s.SiteID = "-x" },
		"assistantId": func(s *protocol.BackendSite) { s.Assistant.ID = "" },
		"name":        func(s *protocol.BackendSite) { s.Assistant.Name = "  " },
		"long name":   func(s *protocol.BackendSite) { s.Assistant.Name = strings.Repeat("n", 257) },
		"suggestions": func(s *protocol.BackendSite) { s.Assistant.Suggestions = make([]string, 9) },
		"corpus":      func(s *protocol.BackendSite) { s.Corpus.ID = "a b" },
		"mode":        func(s *protocol.BackendSite) { s.Corpus.Mode = "remote" },
		"components":  func(s *protocol.BackendSite) { s.Components = []string{"ok", "not ok"} },
		"request":     func(s *protocol.BackendSite) { s.Limits.RequestTimeoutMs = 99 },
		"retrieval":   func(s *protocol.BackendSite) { s.Limits.RetrievalTimeoutMs = 60_001 },
		"generation":  func(s *protocol.BackendSite) { s.Limits.GenerationTimeoutMs = 120_001 },
		"sources":     func(s *protocol.BackendSite) { s.Limits.MaxSources = 0 },
		"persistence": func(s *protocol.BackendSite) { s.Persistence.Mode = "" },
	} {
		s := testSite()
		edit(&s)
		if err := s.Validate(); !errors.Is(err, protocol.ErrInvalidBackendSite) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestDecodeSite(t *testing.T) {
	const doc = `{"protocol":"agentskit.chat.backend-site","version":1,"siteId":"docs-site",
"assistant":{"id":"docs-guide","name":"Docs guide"},"corpus":{"id":"docs-public","mode":"local"},
"limits":{"requestTimeoutMs":30000,"retrievalTimeoutMs":5000,"generationTimeoutMs":20000,"maxSources":5},
"persistence":{"mode":"disabled"}}`
	s, err := protocol.DecodeBackendSite([]byte(doc))
	if err != nil || s.SiteID != "docs-site" || s.Limits.GenerationTimeoutMs != 20000 {
		t.Fatalf("%+v %v", s, err)
	}
	for _, bad := range []string{
		strings.Replace(doc, `"siteId"`, `"extra":1,"siteId"`, 1),
		doc + "{}",
		strings.Replace(doc, `"maxSources":5`, `"maxSources":9`, 1),
	} {
		if _, err := protocol.DecodeBackendSite([]byte(bad)); !errors.Is(err, protocol.ErrInvalidBackendSite) {
			t.Errorf("accepted: %v", err)
		}
	}
}

// testSite is a valid backend site record.
func testSite() protocol.BackendSite {
	return protocol.BackendSite{
		SiteID:      "docs-site",
		Assistant:   protocol.BackendAssistant{ID: "docs-guide", Name: "Docs guide"},
		Corpus:      protocol.BackendCorpus{ID: "docs-public", Mode: protocol.CorpusLocal},
		Limits:      protocol.BackendLimits{RequestTimeoutMs: 2000, RetrievalTimeoutMs: 500, GenerationTimeoutMs: 500, MaxSources: 5},
		Persistence: protocol.BackendPersistence{Mode: protocol.PersistenceDisabled},
	}
}
