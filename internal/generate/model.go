package generate

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/agent"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/provider"
)

// CodeUngrounded marks a model answer that cannot be tied to the
// evidence: it cites nothing, or cites a record the package does not
// hold. The whole answer is dropped, never streamed, because its text may
// rest on the citation that failed.
const CodeUngrounded = "generate.ungrounded"

// The two ungrounded cases, both with CodeUngrounded, so callers branch
// on the code (errors.As) and logs still tell them apart.
var (
	ErrUncited     error = &Error{Code: CodeUngrounded, Message: "the model's answer cites no evidence record"}
	ErrUnknownCite error = &Error{Code: CodeUngrounded, Message: "the model's answer cites a record that is not in the evidence package"}
)

// maxModelDeltas bounds the deltas one answer is emitted in.
const maxModelDeltas = 8

// Model is a Generator backed by a language model through the Ask answer
// contract (agent.AskInput → agent.AskOutput). It makes one Complete
// call, validates and decodes the whole answer, checks every cited id
// against the package, and only then emits the answer, paragraph by
// paragraph, so no unvalidated model text ever reaches a reader. (A
// provider's stream would give an earlier first token, but its text could
// not be checked until the end; that trade is left for a later change.)
type Model struct {
	agent  *agent.Agent[agent.AskInput, agent.AskOutput]
	client provider.Client
	budget agent.Budget
}

var _ Generator = (*Model)(nil)

// NewModel binds def to reg with the client's own profile, so the agent
// is checked against exactly the provider that will run it, and returns
// the generator. budget narrows every call (zero: the definition's).
func NewModel(def *agent.Definition[agent.AskInput, agent.AskOutput], reg *agent.Registry, client provider.Client, budget agent.Budget) (*Model, error) {
	if def == nil || client == nil {
		return nil, errors.New("generate: NewModel needs a definition and a client")
	}
	a, err := def.Bind(reg, client.Profile())
	if err != nil {
		return nil, err
	}
	return &Model{agent: a, client: client, budget: budget}, nil
}

// Generate implements Generator. Failures are returned as the typed
// errors of the layer that failed: *agent.Error (request or output
// contract), *provider.Error (the call), ErrUncited or ErrUnknownCite
// (grounding), ErrEmpty, or ctx.Err() once ctx is done.
func (m *Model) Generate(ctx context.Context, q Question, pkg *evidence.Package, emit func(Event) error) error {
	if pkg == nil || len(pkg.Records) == 0 {
		return ErrNoEvidence
	}
	if m == nil || m.agent == nil {
		return errors.New("generate: Model was not built with NewModel")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	in := askInput(q, pkg)
	if len(in.Records) == 0 {
		return ErrNoEvidence
	}
	req, err := m.agent.PrepareRequest(in, m.budget)
	if err != nil {
		return err
	}
	resp, err := m.client.Complete(ctx, req)
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if err != nil {
		return err
	}
	out, err := m.agent.Decode(resp)
	if err != nil {
		// An empty cites array is the schema's minItems; it is the
		// ungrounded case, not a malformed answer.
		var ae *agent.Error
		if errors.As(err, &ae) && ae.Code == agent.CodeOutputInvalid && ae.Path == "/properties/cites/minItems" {
			return ErrUncited
		}
		return err
	}
	sources, err := citedIDs(out.Cites, in.Records)
	if err != nil {
		return err
	}
	if strings.TrimSpace(out.Answer) == "" {
		return ErrEmpty
	}
	for _, d := range strings.SplitAfterN(out.Answer, "\n\n", maxModelDeltas) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(Event{Delta: d, Sources: sources}); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return emit(Event{Usage: &Usage{
		Model:        usageModel(resp.Model, req.Model),
		InputTokens:  resp.Usage.InputTokens,
		OutputTokens: resp.Usage.OutputTokens,
		TotalTokens:  resp.Usage.TotalTokens,
	}})
}

// askInput is the contract input for a package: the question and the
// package's records in rank order, each cut to the contract's bounds on
// a character boundary (the evidence engine's own bounds are tighter, so
// cutting is a safeguard, not a normal path). Records with no text are
// left out: there is nothing in them to cite.
func askInput(q Question, pkg *evidence.Package) agent.AskInput {
	in := agent.AskInput{Question: q.Text, Records: make([]agent.AskRecord, 0, min(len(pkg.Records), agent.AskMaxRecords))}
	for i := range pkg.Records {
		if len(in.Records) == agent.AskMaxRecords {
			break
		}
		r := &pkg.Records[i]
		text := cutRunes(strings.TrimSpace(r.Excerpt), agent.AskMaxTextLen)
		if text == "" {
			continue
		}
		in.Records = append(in.Records, agent.AskRecord{
			ID:    r.ID,
			Title: cutRunes(r.Label(), agent.AskMaxTitleLen),
			Text:  text,
		})
	}
	return in
}

// citedIDs returns the cited records' ids in the order the model was
// shown them (package order), each once. Every cite must name a record
// the model was shown.
func citedIDs(cites []string, shown []agent.AskRecord) ([]string, error) {
	cited := make(map[string]bool, len(cites))
	for _, id := range cites {
		cited[id] = true
	}
	ids := make([]string, 0, len(cited))
	for _, r := range shown {
		if id := r.ID; cited[id] {
			ids = append(ids, id)
			delete(cited, id)
		}
	}
	switch {
	case len(cited) > 0:
		return nil, ErrUnknownCite
	case len(ids) == 0:
		return nil, ErrUncited
	}
	return ids, nil
}

// usageModel is the model the provider reports, or the requested one when
// the report is empty or would break the Ask protocol's bound on a model
// name (256 UTF-16 units; 256 bytes is stricter).
func usageModel(reported, requested string) string {
	if m := strings.TrimSpace(reported); m != "" && len(m) <= 256 && utf8.ValidString(m) {
		return m
	}
	return requested
}

// cutRunes returns s cut to at most n code points.
func cutRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}
