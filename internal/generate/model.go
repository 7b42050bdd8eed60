package generate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/provider"
)

// CodeUngrounded marks a model answer that cannot be tied to the
// evidence: it cites nothing, or cites a record the package does not
// hold. The whole answer is dropped, never streamed, because its text may
// rest on the citation that failed: a streamed answer's cites are checked
// before its first word.
const CodeUngrounded = "generate.ungrounded"

// The two ungrounded cases, both with CodeUngrounded, so callers branch
// on the code (errors.As) and logs still tell them apart.
var (
	ErrUncited     error = &Error{Code: CodeUngrounded, Message: "the model's answer cites no evidence record"}
	ErrUnknownCite error = &Error{Code: CodeUngrounded, Message: "the model's answer cites a record that is not in the evidence package"}
)

// CodeStreamMismatch marks a streamed answer whose emitted text or cites
// are not those of the output that was validated at the end. It means a
// bug in the incremental parser; the answer fails closed.
const CodeStreamMismatch = "generate.stream-mismatch"

// ErrStreamMismatch is the CodeStreamMismatch error.
var ErrStreamMismatch error = &Error{Code: CodeStreamMismatch, Message: "the streamed answer differs from the validated output"}

// maxModelDeltas bounds the deltas one answer is emitted in.
const maxModelDeltas = 8

// Model is a Generator backed by a language model through the Ask answer
// contract (contract.AskInput → contract.AskOutput). It makes one provider call
// per question, in one of two ways, chosen once by NewModel from the
// client's profile:
//
//   - Streamed, when the profile has Streaming and OrderedOutput (the
//     provider's structured output writes members in schema order, and
//     the contract lists "cites" before "answer"). The growing output is
//     parsed as it arrives: as soon as the cites array is complete, every
//     cite is checked against the package by the same rule as the unary
//     path (each must be a record the model was shown; none is
//     ErrUncited, an unknown one ErrUnknownCite), and a failure ends the
//     call before any text is emitted. Then the answer string's text is
//     emitted as it arrives, each provider delta's decoded text one
//     delta. At the end the whole output is still validated against the
//     full output schema and decoded, exactly as the unary path does, and
//     any failure is returned, closed. By then some text has reached the
//     reader (the handler ends the stream with an error event): text is
//     only ever emitted under citations that were checked, but a bound
//     of the schema (answer length, a stop at max tokens, trailing data)
//     can only be judged on the complete output. If the model writes the
//     members in another order, or anything but the expected shape, the
//     parser stands aside and nothing is emitted until the complete
//     output has been validated, as unary.
//   - Unary otherwise (DeepSeek, which has no stream; OpenAI-compatible
//     servers, which promise no key order): one Complete call, the whole
//     answer validated and its citations checked, and only then emitted,
//     paragraph by paragraph.
type Model struct {
	agent  *contract.Agent[contract.AskInput, contract.AskOutput]
	client provider.Client
	budget contract.Budget
	stream bool
}

var _ Generator = (*Model)(nil)

// NewModel binds def to reg with the client's own profile, so the agent
// is checked against exactly the provider that will run it, and returns
// the generator. budget narrows every call (zero: the definition's).
func NewModel(def *contract.Definition[contract.AskInput, contract.AskOutput], reg *contract.Registry, client provider.Client, budget contract.Budget) (*Model, error) {
	if def == nil || client == nil {
		return nil, errors.New("generate: NewModel needs a definition and a client")
	}
	p := client.Profile()
	a, err := def.Bind(reg, p)
	if err != nil {
		return nil, err
	}
	return &Model{agent: a, client: client, budget: budget, stream: p.Streaming && p.OrderedOutput}, nil
}

// Streams reports whether the model's answers are streamed as they are
// generated (see Model).
func (m *Model) Streams() bool { return m != nil && m.stream }

// Generate implements Generator. Failures are returned as the typed
// errors of the layer that failed: *contract.Error (request or output
// contract), *provider.Error (the call), ErrUncited or ErrUnknownCite
// (grounding), ErrEmpty, ErrStreamMismatch, emit's own error unchanged,
// or ctx.Err() once ctx is done.
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
	if m.stream {
		return m.generateStream(ctx, req, in, emit)
	}
	resp, err := m.client.Complete(ctx, req)
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if err != nil {
		return err
	}
	out, sources, err := m.decode(resp, in)
	if err != nil {
		return err
	}
	if err := emitParagraphs(ctx, out.Answer, sources, emit); err != nil {
		return err
	}
	return m.emitUsage(ctx, resp, req, emit)
}

// generateStream is the streamed path described on Model.
func (m *Model) generateStream(ctx context.Context, req provider.Request, in contract.AskInput, emit func(Event) error) error {
	res, err := m.streamed(ctx, req, in, func(text string, sources []string) error {
		return emit(Event{Delta: text, Sources: sources})
	})
	if err != nil {
		return err
	}
	if res.sent == "" {
		// Not the streamable shape (or an empty answer): nothing was
		// emitted, as unary.
		if err := emitParagraphs(ctx, res.out.Answer, res.ids, emit); err != nil {
			return err
		}
		return m.emitUsage(ctx, res.resp, req, emit)
	}
	if rest := res.out.Answer[len(res.sent):]; rest != "" {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(Event{Delta: rest, Sources: res.ids}); err != nil {
			return err
		}
	}
	return m.emitUsage(ctx, res.resp, req, emit)
}

// streamedCall is a completed streaming call: the response, its decoded
// output and cited ids, and the answer text already handed to onText (a
// prefix of out.Answer; "" when the parser stood aside).
type streamedCall struct {
	resp provider.Response
	out  contract.AskOutput
	ids  []string
	sent string
}

// streamed makes one streaming call for req. onText gets the answer's
// text as it arrives, only once the cites were checked, with the cited
// ids; the complete output is then validated and decoded as the unary
// path does, and what was handed on must be a prefix of it under the
// same cites (else ErrStreamMismatch).
func (m *Model) streamed(ctx context.Context, req provider.Request, in contract.AskInput, onText func(text string, sources []string) error) (streamedCall, error) {
	var (
		sources []string
		sent    strings.Builder // the answer text handed on so far
		runes   int             // its length in code points
		stopped error           // why a callback stopped the stream
	)
	p := &answerParser{
		onCites: func(cites []string) error {
			ids, err := checkCites(cites, in.Records)
			if err != nil {
				return err
			}
			sources = ids
			return nil
		},
		onText: func(text string) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if runes += utf8.RuneCountInString(text); runes > contract.AskMaxAnswerLen {
				return m.outputInvalid("/properties/answer/maxLength")
			}
			sent.WriteString(text)
			return onText(text, sources)
		},
	}
	resp, err := m.client.Stream(ctx, req, func(d string) error {
		if err := p.Feed(d); err != nil {
			stopped = err
			return err
		}
		return nil
	})
	if cerr := ctx.Err(); cerr != nil {
		return streamedCall{}, cerr
	}
	if stopped != nil {
		return streamedCall{}, stopped
	}
	if err != nil {
		return streamedCall{}, err
	}
	out, ids, err := m.decode(resp, in)
	if err != nil {
		return streamedCall{}, err
	}
	if p.Checked() && (!slices.Equal(p.Cites(), out.Cites) || !strings.HasPrefix(out.Answer, sent.String())) {
		return streamedCall{}, ErrStreamMismatch
	}
	return streamedCall{resp: resp, out: out, ids: ids, sent: sent.String()}, nil
}

// decode validates and decodes a complete output and checks its cites.
func (m *Model) decode(resp provider.Response, in contract.AskInput) (contract.AskOutput, []string, error) {
	return m.decodeShown(resp, in.Records)
}

// decodeShown is decode against every record the model was shown.
func (m *Model) decodeShown(resp provider.Response, shown []contract.AskRecord) (contract.AskOutput, []string, error) {
	out, err := m.agent.Decode(resp)
	if err != nil {
		// An empty cites array is the schema's minItems; it is the
		// ungrounded case, not a malformed answer.
		var ae *contract.Error
		if errors.As(err, &ae) && ae.Code == contract.CodeOutputInvalid && ae.Path == "/properties/cites/minItems" {
			return out, nil, ErrUncited
		}
		return out, nil, err
	}
	sources, err := citedIDs(out.Cites, shown)
	if err != nil {
		return out, nil, err
	}
	if strings.TrimSpace(out.Answer) == "" {
		return out, nil, ErrEmpty
	}
	return out, sources, nil
}

// checkCites is the streamed path's check of a complete cites array,
// before any answer text: the unary rule (citedIDs), and the array's
// item bound, which the full schema would refuse at the end anyway.
func checkCites(cites []string, shown []contract.AskRecord) ([]string, error) {
	ids, err := citedIDs(cites, shown)
	if err != nil {
		return nil, err
	}
	if len(cites) > contract.AskMaxRecords {
		return nil, &contract.Error{Code: contract.CodeOutputInvalid, Message: "the output does not match its schema", Path: "/properties/cites/maxItems"}
	}
	return ids, nil
}

// outputInvalid is the output contract's error for a bound the stream
// broke before it completed.
func (m *Model) outputInvalid(path string) error {
	return &contract.Error{Code: contract.CodeOutputInvalid, Message: "the output does not match its schema", Schema: m.agent.Definition().OutputRef().ID, Path: path}
}

// emitParagraphs emits a checked answer in at most maxModelDeltas pieces.
func emitParagraphs(ctx context.Context, answer string, sources []string, emit func(Event) error) error {
	for _, d := range strings.SplitAfterN(answer, "\n\n", maxModelDeltas) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := emit(Event{Delta: d, Sources: sources}); err != nil {
			return err
		}
	}
	return nil
}

func (m *Model) emitUsage(ctx context.Context, resp provider.Response, req provider.Request, emit func(Event) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	u := callUsage(resp, req)
	return emit(Event{Usage: &u})
}

// callUsage is a call's accounting: the model the provider reports (or
// the one asked for) and its token counts.
func callUsage(resp provider.Response, req provider.Request) Usage {
	return Usage{
		Model:        usageModel(resp.Model, req.Model),
		InputTokens:  resp.Usage.InputTokens,
		OutputTokens: resp.Usage.OutputTokens,
		TotalTokens:  resp.Usage.TotalTokens,
	}
}

// askInput is the contract input for a package: the question and the
// package's records in rank order, each titled with its label and, when
// the record carries its page, what it is among the page's sections
// (sectionHint: a step, one of several ways, the page's opening, as the
// Composer reads them), each cut to the contract's bounds on
// a character boundary (the evidence engine's own bounds are tighter, so
// cutting is a safeguard, not a normal path). Records with no text are
// left out: there is nothing in them to cite.
func askInput(q Question, pkg *evidence.Package) contract.AskInput {
	in := contract.AskInput{Question: q.Text, Records: make([]contract.AskRecord, 0, min(len(pkg.Records), contract.AskMaxRecords))}
	for i := range pkg.Records {
		if len(in.Records) == contract.AskMaxRecords {
			break
		}
		r := &pkg.Records[i]
		text := protocol.TruncateRunes(strings.TrimSpace(r.Excerpt), contract.AskMaxTextLen)
		if text == "" {
			continue
		}
		in.Records = append(in.Records, contract.AskRecord{
			ID:    r.ID,
			Title: protocol.TruncateRunes(r.Label()+sectionHint(r), contract.AskMaxTitleLen),
			Text:  text,
		})
	}
	return in
}

// citedIDs returns the cited records' ids in the order the model was
// shown them (package order), each once. Every cite must name a record
// the model was shown.
func citedIDs(cites []string, shown []contract.AskRecord) ([]string, error) {
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
