package provider

import (
	"fmt"
	"log/slog"
	"time"
)

// Provider names accepted in Config.Provider.
const (
	NameOpenAI           = "openai"
	NameAnthropic        = "anthropic"
	NameDeepSeek         = "deepseek"
	NameOpenAICompatible = "openai-compatible"
)

// Default and maximum values for Config. Defaults are what a call gets
// when a field is zero; maxima bound what an operator may configure.
const (
	DefaultTimeout         = 60 * time.Second
	MaxTimeout             = 10 * time.Minute
	DefaultMaxOutputTokens = 1024
	MaxOutputTokensLimit   = 128_000
)

// Config is one provider binding as the sidecar's trusted config states
// it. Credential is filled from APIKeyEnv by WithCredential (config time)
// and never serialized; Logger receives one record per call.
type Config struct {
	Provider        string        `json:"provider"`
	Model           string        `json:"model"`
	BaseURL         string        `json:"baseURL,omitempty"`
	APIKeyEnv       string        `json:"apiKeyEnv,omitempty"`
	MaxOutputTokens int           `json:"maxOutputTokens,omitempty"`
	Timeout         time.Duration `json:"timeout,omitempty"`
	Limits          Limits        `json:"limits,omitzero"`

	Credential Credential   `json:"-"`
	Logger     *slog.Logger `json:"-"`
}

// Validate checks the config before any I/O. The endpoint itself is
// checked by NewTransport, which knows the provider's default base URL.
func (c Config) Validate() error {
	switch c.Provider {
	case NameOpenAI, NameAnthropic, NameDeepSeek:
	case NameOpenAICompatible:
		if c.BaseURL == "" {
			return NewError(CodeConfigInvalid, "openai-compatible needs a baseURL")
		}
	case "":
		return NewError(CodeConfigInvalid, "provider is required")
	default:
		return NewError(CodeConfigInvalid, "unknown provider (want openai, anthropic, deepseek or openai-compatible)")
	}
	if c.Model == "" || len(c.Model) > 256 || !printableASCII(c.Model) {
		return NewError(CodeConfigInvalid, "model must be 1-256 printable ASCII bytes")
	}
	if c.MaxOutputTokens < 0 || c.MaxOutputTokens > MaxOutputTokensLimit {
		return NewError(CodeConfigInvalid, fmt.Sprintf("maxOutputTokens must be within 0..%d", MaxOutputTokensLimit))
	}
	if c.Timeout < 0 || c.Timeout > MaxTimeout {
		return NewError(CodeConfigInvalid, "timeout must be within 0..10m")
	}
	if c.APIKeyEnv == "" && c.Provider != NameOpenAICompatible {
		return NewError(CodeConfigInvalid, "apiKeyEnv is required for this provider")
	}
	if len(c.APIKeyEnv) > 128 || !printableASCII(c.APIKeyEnv) {
		return NewError(CodeConfigInvalid, "apiKeyEnv must be a short environment variable name")
	}
	return c.Limits.Validate()
}

// WithCredential returns c with Credential read from APIKeyEnv. An
// openai-compatible config without APIKeyEnv gets no credential (local
// servers such as Ollama need none).
func (c Config) WithCredential(getenv func(string) string) (Config, error) {
	if c.APIKeyEnv == "" && c.Provider == NameOpenAICompatible {
		return c, nil
	}
	cred, err := LoadCredential(c.APIKeyEnv, getenv)
	if err != nil {
		return c, err
	}
	c.Credential = cred
	return c, nil
}

// EffectiveTimeout is Timeout or DefaultTimeout.
func (c Config) EffectiveTimeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// logger returns the configured logger or slog.Default().
func (c Config) logger() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.Default()
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
