package contract

import "strconv"

// Code is a stable error code. Callers branch on it through errors.As,
// never on the message text.
type Code string

// Codes. Definition and registry codes happen at startup; input codes
// before any provider I/O; output codes after a provider answered.
const (
	// CodeDefinitionInvalid: metadata, model, instructions or limits are
	// out of range.
	CodeDefinitionInvalid Code = "AGENT_DEFINITION_INVALID"
	// CodeSchemaGeneration: a Go type has no usable JSON Schema (not a
	// struct, or the schema could not be serialised or canonicalised).
	CodeSchemaGeneration Code = "AGENT_SCHEMA_GENERATION"
	// CodeSchemaTooLarge: a canonical schema is over its byte bound.
	CodeSchemaTooLarge Code = "AGENT_SCHEMA_TOO_LARGE"
	// CodeSchemaConflict: two schemas claim one id (input id equal to
	// output id, or a registry already holding the id with another
	// digest or version).
	CodeSchemaConflict Code = "AGENT_SCHEMA_CONFLICT"
	// CodeSchemaInvalid: a document is not an acceptable 2020-12 schema
	// (wrong dialect, $id mismatch, not canonical, digest mismatch, or
	// rejected by the validator's compiler).
	CodeSchemaInvalid Code = "AGENT_SCHEMA_INVALID"
	// CodeRegistryLimit: the registry is over its schema count or total
	// byte bound, or its limits are out of range.
	CodeRegistryLimit Code = "AGENT_REGISTRY_LIMIT"
	// CodeSchemaUnavailable: Bind found a referenced schema missing from
	// the registry, or installed with another version or digest.
	CodeSchemaUnavailable Code = "AGENT_SCHEMA_UNAVAILABLE"
	// CodeProfileRejected: the provider profile cannot take the
	// model-visible output schema.
	CodeProfileRejected Code = "AGENT_PROFILE_REJECTED"
	// CodeInputTooLarge: the serialised input is over a JSON limit.
	CodeInputTooLarge Code = "AGENT_INPUT_TOO_LARGE"
	// CodeInputInvalid: the input did not serialise, or its JSON does not
	// match the input schema.
	CodeInputInvalid Code = "AGENT_INPUT_INVALID"
	// CodeBudgetInvalid: the request budget is negative.
	CodeBudgetInvalid Code = "AGENT_BUDGET_INVALID"
	// CodeOutputTooLarge: the model's text is over a JSON limit.
	CodeOutputTooLarge Code = "AGENT_OUTPUT_TOO_LARGE"
	// CodeOutputTruncated: the provider reports the output was cut (at
	// the token cap or the context window), so it cannot be a complete
	// answer; raising ModelDescriptor.MaxOutputTokens is the usual fix.
	CodeOutputTruncated Code = "AGENT_OUTPUT_TRUNCATED"
	// CodeOutputMalformed: the model's text is not one JSON value
	// (syntax, invalid UTF-8, duplicate member, trailing data).
	CodeOutputMalformed Code = "AGENT_OUTPUT_MALFORMED"
	// CodeOutputInvalid: the model's JSON does not match the output
	// schema, or does not decode strictly into the output type.
	CodeOutputInvalid Code = "AGENT_OUTPUT_INVALID"
)

// Error is every failure of this package. Message is a fixed, public-safe
// sentence; Schema names the schema involved (an id, never a document);
// Path is, for schema rejections, the location of the failing keyword in
// the schema (for example "/properties/cites/minItems"), taken from the
// schema side only so it can never carry instance data; Limit is the
// bound that was hit, when one was.
type Error struct {
	Code    Code
	Message string
	Schema  string
	Path    string
	Limit   int
}

func (e *Error) Error() string {
	s := "agent: " + string(e.Code) + ": " + e.Message
	if e.Schema != "" {
		s += " (schema " + e.Schema
		if e.Path != "" {
			s += " at " + e.Path
		}
		s += ")"
	}
	if e.Limit > 0 {
		s += " (limit " + strconv.Itoa(e.Limit) + ")"
	}
	return s
}

func newError(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }
