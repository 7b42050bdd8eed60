package sidecar

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/protocol"
)

// devSecretEnv names the cookie secret Dev makes up for each run.
const devSecretEnv = "ASKPLANE_DEV_COOKIE_SECRET"

// Dev is askplane dev's config for the built site in the folder public:
// one site per language the build emitted a corpus for
// (askplane/<lang>/manifest.json), each answering from its own corpus
// under the corpus id "docs-<lang>" (what exampleSite's per-language
// endpoint names in its ?corpus= hint), the first also serving the built
// site at /. Metrics on, every route answering under hosts, a fresh random
// cookie secret (in the Env it returns, which reads everything else from
// the process), and the same embedded defaults as askplane serve. Each
// site record is the server's own view of the build (its manifest's siteId),
// never a request's.
func Dev(public string, hosts, origins []string, sessions string) (*Config, Env, error) {
	fsys := os.DirFS(public)
	langs, err := builtLanguages(fsys)
	if err != nil {
		return nil, nil, err
	}
	secret := rand.Text() + rand.Text() // 52 base32 characters, 260 bits
	cfg := &Config{Addr: DefaultAddr, Metrics: true, Sessions: sessions, Hosts: hosts}
	for i, lang := range langs {
		// The site id only; New loads and verifies the corpus itself.
		siteID, err := corpus.ManifestSiteID(fsys, lang)
		if err != nil {
			return nil, nil, fmt.Errorf("loading the %s corpus: %w", lang, err)
		}
		record, err := json.Marshal(protocol.BackendSite{
			Protocol:    protocol.BackendSiteProtocol,
			Version:     1,
			SiteID:      siteID,
			Assistant:   protocol.BackendAssistant{ID: "docs-guide", Name: "Docs guide"},
			Corpus:      protocol.BackendCorpus{ID: "docs-" + lang, Mode: protocol.CorpusLocal},
			Limits:      protocol.BackendLimits{RequestTimeoutMs: 30_000, RetrievalTimeoutMs: 5_000, GenerationTimeoutMs: 20_000, MaxSources: 5},
			Persistence: protocol.BackendPersistence{Mode: protocol.PersistenceDisabled},
		})
		if err != nil {
			return nil, nil, err
		}
		cfg.Sites = append(cfg.Sites, SiteConfig{
			Site:            record,
			Public:          public,
			Language:        lang,
			Origins:         origins,
			CookieSecretEnv: devSecretEnv,
			Static:          i == 0,
		})
	}
	env := func(name string) (string, bool) {
		if name == devSecretEnv {
			return secret, true
		}
		return os.LookupEnv(name)
	}
	return cfg, env, nil
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
