package sidecar

import (
	"errors"
	"log/slog"
	"time"

	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/providers"
)

// GeneratorConfig says how a site's answers are written. Omitted, or with
// provider "extractive", answers are passages of the evidence (no model,
// no key, no network), composed by generate.Composer
// ("askplane.extractive/2"); with model "askplane.extractive/1" by the
// first extractive generator, generate.Extractive, which stays available
// for sites whose answers were pinned to it. Any other provider writes them with a model
// through the typed Ask answer contract: the model's whole answer is
// validated against the contract's output schema, and every citation
// checked against the evidence, before a word reaches the reader.
//
//	"generator": {
//	  "provider": "anthropic",          // extractive | openai | anthropic | deepseek | openai-compatible
//	  "model": "claude-sonnet-4-5",     // the provider's model id; for extractive, optional:
//	                                    //   askplane.extractive/2 (default) or askplane.extractive/1
//	  "apiKeyEnv": "ANTHROPIC_API_KEY", // NAME of the environment variable holding the key
//	  "baseUrl": "",                    // another endpoint: required for openai-compatible
//	                                    //   (e.g. http://127.0.0.1:11434/v1 for Ollama); https
//	                                    //   unless it is a literal loopback address
//	  "maxOutputTokens": 1024,          // default 1024
//	  "timeout": "60s"                  // one call's deadline, at most 10m; default 60s
//	}
type GeneratorConfig struct {
	Provider        string `json:"provider"`
	Model           string `json:"model"`
	APIKeyEnv       string `json:"apiKeyEnv"`
	BaseURL         string `json:"baseUrl"`
	MaxOutputTokens int    `json:"maxOutputTokens"`
	Timeout         string `json:"timeout"`
}

// extractive names the embedded default generator.
const extractive = "extractive"

// check validates the generator as the file gives it, without reading
// the environment.
func (g *GeneratorConfig) check() error {
	if g.extractive() {
		if g != nil && (g.APIKeyEnv != "" || g.BaseURL != "") {
			return errors.New("the extractive generator takes no apiKeyEnv or baseUrl")
		}
		if g != nil && g.Model != "" && g.Model != generate.ComposerModel && g.Model != generate.ExtractiveModel {
			return errors.New("the extractive generator's model is " + generate.ComposerModel + " (the default) or " + generate.ExtractiveModel)
		}
		return nil
	}
	if _, err := g.timeout(); err != nil {
		return err
	}
	return nil
}

func (g *GeneratorConfig) extractive() bool {
	return g == nil || g.Provider == "" || g.Provider == extractive
}

func (g *GeneratorConfig) timeout() (time.Duration, error) {
	if g.Timeout == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(g.Timeout)
	if err != nil || d <= 0 {
		return 0, errors.New("timeout must be a duration such as \"60s\"")
	}
	return d, nil
}

// build returns the site's generator: nil for the extractive default
// (generate.Composer), generate.Extractive for model
// "askplane.extractive/1",
// else a model generator bound (fail closed) to the provider's profile.
// It reads the API key through env now, so a missing key stops the
// sidecar before it listens. Errors never contain the key.
func (g *GeneratorConfig) build(env Env, logger *slog.Logger) (generate.Generator, error) {
	if g.extractive() {
		if g != nil && g.Model == generate.ExtractiveModel {
			return generate.Extractive{}, nil // answers pinned to the first extractive generator
		}
		return nil, nil
	}
	cfg := provider.Config{
		Provider: g.Provider, Model: g.Model, BaseURL: g.BaseURL, APIKeyEnv: g.APIKeyEnv,
		MaxOutputTokens: g.MaxOutputTokens, Logger: logger,
	}
	if cfg.MaxOutputTokens == 0 {
		cfg.MaxOutputTokens = provider.DefaultMaxOutputTokens
	}
	d, err := g.timeout()
	if err != nil {
		return nil, err
	}
	cfg.Timeout = d
	if g.APIKeyEnv != "" {
		if _, err := env.secret("apiKeyEnv", g.APIKeyEnv, 1); err != nil {
			return nil, err
		}
	}
	client, err := providers.Open(cfg, env.get)
	if err != nil {
		return nil, err
	}
	def, err := contract.DefineAskAnswer(contract.ModelDescriptor{Model: cfg.Model, MaxOutputTokens: cfg.MaxOutputTokens})
	if err != nil {
		return nil, err
	}
	b, err := contract.NewRegistryBuilder(contract.RegistryLimits{})
	if err != nil {
		return nil, err
	}
	if err := def.Register(b); err != nil {
		return nil, err
	}
	reg, err := b.Build()
	if err != nil {
		return nil, err
	}
	return generate.NewModel(def, reg, client, contract.Budget{})
}
