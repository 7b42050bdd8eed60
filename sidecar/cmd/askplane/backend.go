package main

import (
	"crypto/rand"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
)

// devBackend is the embedded-defaults Ask backend of askplane dev: the
// built site's own corpus, the deterministic evidence engine, the
// extractive generator (no keys, no network), in-memory sessions and an
// anonymous signed cookie for the subject. The site record comes from the
// server's own view of the build (its manifest), never from a request.
type devBackend struct {
	ask     http.Handler
	metrics *ask.Prometheus
}

func newDevBackend(public fs.FS, lang string, origins []string) (*devBackend, error) {
	c, err := corpus.LoadDir(public, lang)
	if err != nil {
		return nil, fmt.Errorf("loading the %s corpus: %w", lang, err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	grounded := &ask.Grounded{Engine: evidence.NewIndex(c)}
	metrics := &ask.Prometheus{}
	h, err := ask.New(ask.Config{
		Site: ask.Site{
			SiteID:      c.SiteID,
			Assistant:   ask.Assistant{ID: "docs-guide", Name: "Docs guide"},
			Corpus:      ask.Corpus{ID: "docs-public", Mode: ask.CorpusLocal},
			Limits:      ask.Limits{RequestTimeoutMs: 30_000, RetrievalTimeoutMs: 5_000, GenerationTimeoutMs: 20_000, MaxSources: 5},
			Persistence: ask.Persistence{Mode: ask.PersistenceDisabled},
		},
		Retriever:   grounded,
		Generator:   grounded,
		Auth:        &ask.CookieAuth{Origins: origins, Secret: secret},
		Sessions:    ask.NewMemoryStore(),
		RateLimiter: &ask.WindowLimiter{Limit: 60, Window: time.Minute},
		Metrics:     metrics,
		Logger:      slog.Default(),
	})
	if err != nil {
		return nil, fmt.Errorf("ask backend: %w", err)
	}
	return &devBackend{ask: h, metrics: metrics}, nil
}
