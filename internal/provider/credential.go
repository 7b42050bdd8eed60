package provider

import (
	"fmt"
	"net/http"
	"strings"
)

// Credential is an API key. It is read once, at config time, from an
// environment variable and only ever leaves this package as a header on
// one outgoing request (Transport.do). Every way of printing or encoding
// it redacts, so a Config or Client can be logged with %v, %+v, %#v or
// encoding/json without leaking the key.
type Credential struct {
	key string
}

const redacted = "[REDACTED]"

// maxCredentialBytes bounds a key: real provider keys are well under 1 KiB.
const maxCredentialBytes = 8192

// LoadCredential reads the key named by env through getenv (os.Getenv in
// production, a map in tests). The key must be 1–8192 printable ASCII bytes
// without spaces, so it can never split or inject a header.
func LoadCredential(env string, getenv func(string) string) (Credential, error) {
	if env == "" {
		return Credential{}, NewError(CodeCredentialMissing, "no API key environment variable is configured")
	}
	v := getenv(env)
	if v == "" {
		return Credential{}, NewError(CodeCredentialMissing, "the configured API key environment variable is empty or unset")
	}
	if len(v) > maxCredentialBytes {
		return Credential{}, NewError(CodeCredentialMissing, "the API key is longer than 8192 bytes")
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x21 || v[i] > 0x7e {
			return Credential{}, NewError(CodeCredentialMissing, "the API key contains whitespace, control or non-ASCII bytes")
		}
	}
	return Credential{key: v}, nil
}

// IsSet reports whether a key is present (an OpenAI-compatible loopback
// server such as Ollama may run without one).
func (c Credential) IsSet() bool { return c.key != "" }

// apply sets the key on exactly one request's headers.
func (c Credential) apply(h http.Header, a Auth) {
	if c.key == "" || a.Header == "" {
		return
	}
	h.Set(a.Header, a.Prefix+c.key)
}

// minLeakRun is the shortest run of the key that counts as the key when
// a provider-supplied value is checked: a value holding any 16 consecutive
// bytes of the key (or the whole key, if it is shorter) is treated as
// holding the key, so a truncated, prefixed ("Bearer …") or suffixed echo
// is caught as well as a verbatim one.
const minLeakRun = 16

// maxLeakCheckBytes bounds the work of one check: a longer value is
// treated as carrying the key. No value the transport keeps (a request id,
// Retry-After, a model name) is legitimately that long.
const maxLeakCheckBytes = 4096

// leaks reports whether v, a value the provider supplied (a response
// header, a field of a response body), carries the key or a run of it,
// compared case-insensitively. Every provider-supplied value that can
// reach a log line, an error or a Response is checked with it, so a
// provider that echoes the key cannot get it written anywhere.
func (c Credential) leaks(v string) bool {
	if c.key == "" || v == "" {
		return false
	}
	if len(v) > maxLeakCheckBytes {
		return true
	}
	key, v := strings.ToLower(c.key), strings.ToLower(v)
	run := min(len(key), minLeakRun)
	for i := 0; i+run <= len(v); i++ {
		if strings.Contains(key, v[i:i+run]) {
			return true
		}
	}
	return false
}

// String redacts.
func (c Credential) String() string { return redacted }

// GoString redacts (%#v).
func (c Credential) GoString() string { return "provider.Credential(" + redacted + ")" }

// Format redacts for every verb, including %s, %q, %x and %+v.
func (c Credential) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		_, _ = f.Write([]byte(c.GoString()))
		return
	}
	_, _ = f.Write([]byte(redacted))
}

// MarshalJSON redacts.
func (c Credential) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText redacts (slog's text handler and encoding/xml use it).
func (c Credential) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// Auth says how a provider carries the key: the header name and a prefix
// ("Authorization", "Bearer " for OpenAI; "x-api-key", "" for Anthropic).
type Auth struct {
	Header string
	Prefix string
}

func (a Auth) valid() bool {
	return a.Header != "" && !strings.ContainsAny(a.Header+a.Prefix, "\r\n")
}
