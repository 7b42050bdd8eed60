// Package providers opens a provider.Client from a provider.Config. It is
// the one place that knows every adapter, kept apart from package
// provider so the adapters can import provider without a cycle.
package providers

import (
	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/anthropic"
	"github.com/askplane/askplane/internal/provider/deepseek"
	"github.com/askplane/askplane/internal/provider/openai"
)

// Open validates cfg, reads its API key through getenv (os.Getenv in the
// sidecar) and builds the adapter. Nothing dials here; every failure is a
// *provider.Error with a stable code and a public-safe message.
func Open(cfg provider.Config, getenv func(string) string) (provider.Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg, err := cfg.WithCredential(getenv)
	if err != nil {
		return nil, err
	}
	// Each case checks err itself: returning a nil *Client through the
	// interface would give callers a non-nil Client that panics.
	switch cfg.Provider {
	case provider.NameOpenAI, provider.NameOpenAICompatible:
		c, err := openai.New(cfg)
		if err != nil {
			return nil, err
		}
		return c, nil
	case provider.NameAnthropic:
		c, err := anthropic.New(cfg)
		if err != nil {
			return nil, err
		}
		return c, nil
	case provider.NameDeepSeek:
		c, err := deepseek.New(cfg)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	return nil, provider.NewError(provider.CodeConfigInvalid, "unknown provider")
}
