package provider

import (
	"bytes"
	"encoding/json"
	"regexp"
	"unicode/utf8"
)

// Normalized stop reasons in Response.Stop.
const (
	StopEnd           = "end"            // the model finished (end of turn or a stop sequence)
	StopMaxTokens     = "max_tokens"     // cut at MaxOutputTokens: the text is incomplete
	StopContentFilter = "content_filter" // the provider filtered the output
	StopContextWindow = "context_window" // the context window ran out
)

var schemaName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Checked is a Request after Prepare: the model and token budget are
// resolved and everything the adapter puts on the wire is valid.
type Checked struct {
	Request
	Model           string
	MaxOutputTokens int
}

// Prepare checks r against the config and the profile before any I/O:
// model and token budget resolve from r, falling back to cfg; input must
// be present and valid UTF-8; a schema must have a valid name, be a JSON
// object and fit the profile. Nothing from r appears in an error.
func Prepare(r Request, cfg Config, p Profile) (Checked, error) {
	bad := func(msg string) (Checked, error) { return Checked{}, NewError(CodeRequestInvalid, msg) }
	c := Checked{Request: r, Model: r.Model, MaxOutputTokens: r.MaxOutputTokens}
	if c.Model == "" {
		c.Model = cfg.Model
	}
	if c.Model == "" || len(c.Model) > 256 || !printableASCII(c.Model) {
		return bad("model must be 1-256 printable ASCII bytes")
	}
	if c.MaxOutputTokens == 0 {
		c.MaxOutputTokens = cfg.MaxOutputTokens
	}
	if c.MaxOutputTokens == 0 {
		c.MaxOutputTokens = DefaultMaxOutputTokens
	}
	if c.MaxOutputTokens < 1 || c.MaxOutputTokens > MaxOutputTokensLimit {
		return bad("maxOutputTokens is out of range")
	}
	if r.Input == "" {
		return bad("input is empty")
	}
	if !utf8.ValidString(r.Input) || !utf8.ValidString(r.Instructions) {
		return bad("instructions and input must be valid UTF-8")
	}
	if r.Output != nil {
		if !p.StructuredOutput {
			return bad("this provider does not accept an output schema")
		}
		if !schemaName.MatchString(r.Output.Name) {
			return bad("output schema name must match ^[a-zA-Z0-9_-]{1,64}$")
		}
		if len(r.Output.Schema) == 0 || len(r.Output.Schema) > p.MaxSchemaBytes {
			return bad("output schema is empty or larger than the profile's maxSchemaBytes")
		}
		s := bytes.TrimSpace(r.Output.Schema)
		if len(s) == 0 || s[0] != '{' || !json.Valid(s) {
			return bad("output schema must be a JSON object")
		}
	}
	if err := checkTools(r, p); err != nil {
		return Checked{}, err
	}
	return c, nil
}

// Malformed is the error for a response that does not have the shape
// the provider documents. msg must be a fixed string.
func Malformed(msg string) *Error { return NewError(CodeResponseMalformed, msg) }

// StreamInvalid is the error for an event an accumulator refuses.
func StreamInvalid(msg string) *Error { return NewError(CodeStreamInvalid, msg) }

// StreamMismatch is the error for a terminal event that disagrees with
// the deltas that came before it.
func StreamMismatch(msg string) *Error { return NewError(CodeStreamMismatch, msg) }

// StreamingUnsupported is what Stream returns for a provider without it.
func StreamingUnsupported() *Error {
	return NewError(CodeStreamingUnsupported, "this provider binding does not stream")
}

// CheckUsage refuses negative counts and fills TotalTokens when the
// provider did not send one; a total below input+output is malformed.
func CheckUsage(u Usage, total bool) (Usage, error) {
	if u.InputTokens < 0 || u.OutputTokens < 0 || u.TotalTokens < 0 || u.CacheReadTokens < 0 || u.CacheWriteTokens < 0 {
		return u, Malformed("usage has a negative count")
	}
	if u.CacheReadTokens+u.CacheWriteTokens > u.InputTokens {
		return u, Malformed("usage cache counts exceed input tokens")
	}
	if !total {
		u.TotalTokens = u.InputTokens + u.OutputTokens
	} else if u.TotalTokens < u.InputTokens+u.OutputTokens {
		return u, Malformed("usage total is below input plus output")
	}
	return u, nil
}
