package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/protocol"
)

// devConfig is askplane dev's in-memory Config: one site per language the
// build emitted a corpus for (askplane/<lang>/manifest.json), each
// answering from its own corpus under the corpus id "docs-<lang>" (what
// exampleSite's per-language endpoint names in its ?corpus= hint), the
// first also serving the built site at /. Metrics on, a fresh random
// cookie secret, and the same embedded defaults as askplane serve
// (deterministic evidence engine, extractive generator, no keys, no
// network; sessions in the store the DSN names). Each site record is the
// server's own view of the build (its manifest's siteId), never a
// request's.
func devConfig(public fs.FS, origins []string, sessions string) (*Config, error) {
	langs, err := builtLanguages(public)
	if err != nil {
		return nil, err
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	cfg := &Config{Addr: defaultAddr, Metrics: true, Sessions: sessions}
	for i, lang := range langs {
		c, err := corpus.LoadDir(public, lang)
		if err != nil {
			return nil, fmt.Errorf("loading the %s corpus: %w", lang, err)
		}
		cfg.Sites = append(cfg.Sites, SiteConfig{
			Language: lang,
			Origins:  origins,
			Static:   i == 0,
			site: &ask.Site{
				SiteID:      c.SiteID,
				Assistant:   ask.Assistant{ID: "docs-guide", Name: "Docs guide"},
				Corpus:      ask.Corpus{ID: "docs-" + lang, Mode: ask.CorpusLocal},
				Limits:      ask.Limits{RequestTimeoutMs: 30_000, RetrievalTimeoutMs: 5_000, GenerationTimeoutMs: 20_000, MaxSources: 5},
				Persistence: ask.Persistence{Mode: ask.PersistenceDisabled},
			},
			secret: secret,
			fsys:   public,
			corpus: c,
		})
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// builtLanguages lists the languages a built site has a corpus manifest
// for, sorted, at most maxConfigSites.
func builtLanguages(public fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(public, "askplane")
	if err != nil {
		return nil, fmt.Errorf("the built site has no askplane folder: %w", err)
	}
	var langs []string
	for _, e := range entries {
		if !e.IsDir() || !protocol.ValidIdentifier(e.Name()) {
			continue
		}
		if _, err := fs.Stat(public, "askplane/"+e.Name()+"/manifest.json"); err == nil {
			langs = append(langs, e.Name())
		}
	}
	switch {
	case len(langs) == 0:
		return nil, errors.New("the built site has no corpus (askplane/<lang>/manifest.json): is its fallback the backend?")
	case len(langs) > maxConfigSites:
		return nil, fmt.Errorf("the built site has more than %d languages", maxConfigSites)
	}
	return langs, nil
}
