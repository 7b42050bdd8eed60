package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/askplane/askplane/internal/provider"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Agent is a contract bound to a registry and a provider profile. It
// holds no request data, is immutable and is safe for concurrent use.
type Agent[In, Out any] struct {
	def     *Definition[In, Out]
	in, out compiled
	profile string
}

// Bind checks, before any request, that reg holds exactly the pinned
// input and output schemas (same id, version and digest) and that
// profile can carry the output schema to the model: StructuredOutput
// must be true and the model-visible schema must fit MaxSchemaBytes
// (a profile with MaxSchemaBytes 0 accepts nothing, so an unset profile
// fails closed). Any miss is an error, never a degraded agent.
func (d *Definition[In, Out]) Bind(reg *Registry, profile provider.Profile) (*Agent[In, Out], error) {
	if reg == nil {
		return nil, &Error{Code: CodeSchemaUnavailable, Message: "no registry", Schema: d.input.ref.ID}
	}
	var got [2]compiled
	for i, want := range []SchemaRef{d.input.ref, d.output.ref} {
		e, ok := reg.entries[want.ID]
		switch {
		case !ok:
			return nil, &Error{Code: CodeSchemaUnavailable, Message: "the registry does not hold the schema", Schema: want.ID}
		case e.ref != want:
			return nil, &Error{Code: CodeSchemaUnavailable, Message: "the registry holds the schema with another version or digest", Schema: want.ID}
		}
		got[i] = e
	}
	switch n := len(d.visible); {
	case !profile.StructuredOutput:
		return nil, &Error{Code: CodeProfileRejected, Message: "the provider profile does not accept a model-visible JSON schema", Schema: d.output.ref.ID}
	case n > profile.MaxSchemaBytes:
		return nil, &Error{Code: CodeProfileRejected, Message: "the output schema is larger than the provider profile accepts", Schema: d.output.ref.ID, Limit: profile.MaxSchemaBytes}
	}
	return &Agent[In, Out]{def: d, in: got[0], out: got[1], profile: profile.Name}, nil
}

// Definition returns the contract the agent was bound from.
func (a *Agent[In, Out]) Definition() *Definition[In, Out] { return a.def }

// String names the agent, its schemas and model; never instructions or
// request data.
func (a *Agent[In, Out]) String() string {
	return "agent " + a.def.meta.Name + "/" + strconv.Itoa(a.def.meta.Version) +
		" (model " + a.def.model.Model + ", provider " + a.profile + ", output " + a.out.ref.Digest + ")"
}

// GoString keeps %#v as short as %v.
func (a *Agent[In, Out]) GoString() string { return a.String() }

// Budget narrows one request below the definition's limits. A zero field
// keeps the definition's value; a larger one is clamped to it, so a
// budget can only tighten a call.
type Budget struct {
	MaxOutputTokens int
}

// PrepareRequest turns a typed input into a provider request: it
// serialises in (HTML characters left unescaped: the model reads this,
// not a browser), bounds the JSON with the input limits, validates it
// against the input schema, and attaches the model-visible output schema
// (Definition.ModelSchema); the answer is held to the full output schema
// by Decode.
// No provider I/O happens here, so every failure is before dispatch.
func (a *Agent[In, Out]) PrepareRequest(in In, budget Budget) (provider.Request, error) {
	if budget.MaxOutputTokens < 0 {
		return provider.Request{}, newError(CodeBudgetInvalid, "the budget's MaxOutputTokens is negative")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(in); err != nil {
		return provider.Request{}, &Error{Code: CodeInputInvalid, Message: "the input does not serialise to JSON", Schema: a.in.ref.ID}
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if err := a.check(b, a.def.limits.Input, inputCodes, a.in, CodeInputInvalid, "the input does not match its schema"); err != nil {
		return provider.Request{}, err
	}
	tokens := a.def.model.MaxOutputTokens
	if budget.MaxOutputTokens > 0 {
		tokens = min(tokens, budget.MaxOutputTokens)
	}
	return provider.Request{
		Model:        a.def.model.Model,
		Instructions: string(a.def.instructions),
		Input:        string(b),
		Output: &provider.OutputSchema{
			Name: a.def.meta.Name,
			// A copy per request: a provider adapter that rewrites the
			// schema for its API cannot change the next request's.
			Schema: json.RawMessage(bytes.Clone(a.def.visible)),
		},
		MaxOutputTokens: tokens,
	}, nil
}

// Decode turns a provider response into Out. A response the provider
// reports as cut short is refused whatever its text. Otherwise the text
// is bounded and scanned, then validated against the full output schema
// (bounds included, whatever the model was shown), and only a valid
// document is decoded, strictly (unknown members refused), so json's
// lenient habits (case-insensitive names, null into a string) can never
// accept what the schema refused. Errors say which keyword failed, never
// what the model wrote.
func (a *Agent[In, Out]) Decode(resp provider.Response) (Out, error) {
	var out Out
	if resp.Stop == provider.StopMaxTokens || resp.Stop == provider.StopContextWindow {
		return out, &Error{Code: CodeOutputTruncated, Message: "the provider cut the output short", Schema: a.out.ref.ID}
	}
	b := []byte(resp.Text)
	if strings.TrimSpace(resp.Text) == "" {
		return out, &Error{Code: CodeOutputMalformed, Message: "the model returned no text", Schema: a.out.ref.ID}
	}
	if err := a.check(b, a.def.limits.Output, outputCodes, a.out, CodeOutputInvalid, "the output does not match its schema"); err != nil {
		return out, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		var zero Out
		return zero, &Error{Code: CodeOutputInvalid, Message: "the output does not decode into its Go type", Schema: a.out.ref.ID}
	}
	return out, nil
}

// check scans b within l, parses it and validates it against s.
func (a *Agent[In, Out]) check(b []byte, l JSONLimits, codes scanCodes, s compiled, code Code, msg string) error {
	if err := scan(b, l, codes); err != nil {
		err.Schema = s.ref.ID
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return &Error{Code: codes.malformed, Message: "the text is not well-formed JSON", Schema: s.ref.ID}
	}
	if err := s.schema.Validate(v); err != nil {
		return &Error{Code: code, Message: msg, Schema: s.ref.ID, Path: keywordPath(err)}
	}
	return nil
}

// keywordPath is the schema location of the first failing keyword, as a
// JSON pointer within the schema document ("/properties/cites/minItems").
// It is built from the schema side of the error only (its location and
// keyword), never from the instance location or the message, which can
// quote instance data.
func keywordPath(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ""
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	p := ""
	if i := strings.IndexByte(ve.SchemaURL, '#'); i >= 0 {
		p = ve.SchemaURL[i+1:]
	}
	if ve.ErrorKind != nil {
		for _, k := range ve.ErrorKind.KeywordPath() {
			p += "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
		}
	}
	return p
}
