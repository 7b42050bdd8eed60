package main

import (
	"crypto/rand"
	"fmt"
	"io/fs"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
)

// devConfig is askplane dev's in-memory Config: one site answering from
// the built site's own corpus for lang, served at / too, with metrics, a
// fresh random cookie secret, and the same embedded defaults as askplane
// serve (deterministic evidence engine, extractive generator, no keys, no
// network; sessions in the store the DSN names). The site record is the server's own view
// of the build (its manifest's siteId), never a request's.
func devConfig(public fs.FS, lang string, origins []string, sessions string) (*Config, error) {
	c, err := corpus.LoadDir(public, lang)
	if err != nil {
		return nil, fmt.Errorf("loading the %s corpus: %w", lang, err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	cfg := &Config{
		Addr:     defaultAddr,
		Metrics:  true,
		Sessions: sessions,
		Sites: []SiteConfig{{
			Language: lang,
			Origins:  origins,
			Static:   true,
			site: &ask.Site{
				SiteID:      c.SiteID,
				Assistant:   ask.Assistant{ID: "docs-guide", Name: "Docs guide"},
				Corpus:      ask.Corpus{ID: "docs-public", Mode: ask.CorpusLocal},
				Limits:      ask.Limits{RequestTimeoutMs: 30_000, RetrievalTimeoutMs: 5_000, GenerationTimeoutMs: 20_000, MaxSources: 5},
				Persistence: ask.Persistence{Mode: ask.PersistenceDisabled},
			},
			secret: secret,
			fsys:   public,
			corpus: c,
		}},
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}
