package ask_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/ask"
)

func TestSiteValidate(t *testing.T) {
	good := testSite()
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*ask.Site){
		"protocol":    func(s *ask.Site) { s.Protocol = "agentskit.chat.site" },
		"version":     func(s *ask.Site) { s.Version = 2 },
		"siteId":      func(s *ask.Site) { s.SiteID = "-x" },
		"assistantId": func(s *ask.Site) { s.Assistant.ID = "" },
		"name":        func(s *ask.Site) { s.Assistant.Name = "  " },
		"long name":   func(s *ask.Site) { s.Assistant.Name = strings.Repeat("n", 257) },
		"suggestions": func(s *ask.Site) { s.Assistant.Suggestions = make([]string, 9) },
		"corpus":      func(s *ask.Site) { s.Corpus.ID = "a b" },
		"mode":        func(s *ask.Site) { s.Corpus.Mode = "remote" },
		"components":  func(s *ask.Site) { s.Components = []string{"ok", "not ok"} },
		"request":     func(s *ask.Site) { s.Limits.RequestTimeoutMs = 99 },
		"retrieval":   func(s *ask.Site) { s.Limits.RetrievalTimeoutMs = 60_001 },
		"generation":  func(s *ask.Site) { s.Limits.GenerationTimeoutMs = 120_001 },
		"sources":     func(s *ask.Site) { s.Limits.MaxSources = 0 },
		"persistence": func(s *ask.Site) { s.Persistence.Mode = "" },
	} {
		s := testSite()
		edit(&s)
		if err := s.Validate(); !errors.Is(err, ask.ErrInvalidSite) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestDecodeSite(t *testing.T) {
	const doc = `{"protocol":"agentskit.chat.backend-site","version":1,"siteId":"docs-site",
"assistant":{"id":"docs-guide","name":"Docs guide"},"corpus":{"id":"docs-public","mode":"local"},
"limits":{"requestTimeoutMs":30000,"retrievalTimeoutMs":5000,"generationTimeoutMs":20000,"maxSources":5},
"persistence":{"mode":"disabled"}}`
	s, err := ask.DecodeSite([]byte(doc))
	if err != nil || s.SiteID != "docs-site" || s.Limits.GenerationTimeoutMs != 20000 {
		t.Fatalf("%+v %v", s, err)
	}
	for _, bad := range []string{
		strings.Replace(doc, `"siteId"`, `"extra":1,"siteId"`, 1),
		doc + "{}",
		strings.Replace(doc, `"maxSources":5`, `"maxSources":9`, 1),
	} {
		if _, err := ask.DecodeSite([]byte(bad)); !errors.Is(err, ask.ErrInvalidSite) {
			t.Errorf("accepted: %v", err)
		}
	}
}
