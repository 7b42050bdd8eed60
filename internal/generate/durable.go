package generate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"

	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/provider"
)

// Answer is one checked, complete model answer: its text, the ids of the
// records it cites (in the order the model was shown them) and the
// call's accounting.
type Answer struct {
	Text    string   `json:"text"`
	Sources []string `json:"sources"`
	Model   string   `json:"model"`
	Usage   Usage    `json:"usage"`
}

// Input is the contract input the model is shown for pkg: what a durable
// run freezes in its initial checkpoint, so a resumed run asks the very
// same question of the very same records.
func (m *Model) Input(q Question, pkg *evidence.Package) (contract.AskInput, error) {
	if pkg == nil || len(pkg.Records) == 0 {
		return contract.AskInput{}, ErrNoEvidence
	}
	in := askInput(q, pkg)
	if len(in.Records) == 0 {
		return contract.AskInput{}, ErrNoEvidence
	}
	return in, nil
}

// Complete makes one unary call for in and returns the answer, validated
// against the output schema and its cites checked against in.Records, or
// the typed error of the layer that failed.
func (m *Model) Complete(ctx context.Context, in contract.AskInput) (Answer, error) {
	if m == nil || m.agent == nil {
		return Answer{}, errors.New("generate: Model was not built with NewModel")
	}
	req, err := m.agent.PrepareRequest(in, m.budget)
	if err != nil {
		return Answer{}, err
	}
	resp, err := m.client.Complete(ctx, req)
	if cerr := ctx.Err(); cerr != nil {
		return Answer{}, cerr
	}
	if err != nil {
		return Answer{}, err
	}
	out, ids, err := m.decode(resp, in)
	if err != nil {
		return Answer{}, err
	}
	u := callUsage(resp, req)
	return Answer{Text: out.Answer, Sources: ids, Model: u.Model, Usage: u}, nil
}

// CompleteStreaming is Complete for a durable run whose reader should see
// the answer as it is written: when the model streams (see Model), onText
// gets the answer's text as it arrives, only after its cites were
// checked (what it got is a prefix of the answer); when it does not, it
// is Complete and onText is never called. The answer is checked in full
// either way. A caller that handed text on cannot retry the call without
// contradicting it.
func (m *Model) CompleteStreaming(ctx context.Context, in contract.AskInput, onText func(string) error) (Answer, error) {
	if m == nil || m.agent == nil {
		return Answer{}, errors.New("generate: Model was not built with NewModel")
	}
	if !m.stream {
		return m.Complete(ctx, in)
	}
	req, err := m.agent.PrepareRequest(in, m.budget)
	if err != nil {
		return Answer{}, err
	}
	res, err := m.streamed(ctx, req, in, func(text string, _ []string) error { return onText(text) })
	if err != nil {
		return Answer{}, err
	}
	u := callUsage(res.resp, req)
	return Answer{Text: res.out.Answer, Sources: res.ids, Model: u.Model, Usage: u}, nil
}

// MaxOutputTokens is the output token cap of one call: what an attempt
// reserves besides its input.
func (m *Model) MaxOutputTokens() int {
	t := m.agent.Definition().Model().MaxOutputTokens
	if b := m.budget.MaxOutputTokens; b > 0 {
		t = min(t, b)
	}
	return t
}

// Identity is a model's frozen identity, as digests: the contract (name,
// version and both schema digests), the model-visible schema, the
// provider profile and model, and the tool set's digest given. It is an
// unnamed struct of durable.Snapshot's very fields and tags, so a value is
// assignable to durable.Snapshot (what a durable run is admitted under)
// while generators import nothing of durable runs. A sidecar restarted
// with another of any of them refuses to resume a run rather than finish
// it with something it was not admitted for.
type Identity = struct {
	Agent  string `json:"agent"`  // agent name/version and instructions digest
	Schema string `json:"schema"` // output schema digest
	Model  string `json:"model"`  // provider profile and model id digest
	Tool   string `json:"tool"`   // tool set digest, "" without tools
}

// Snapshot is m's Identity with the tool set digest tools.
func (m *Model) Snapshot(tools string) Identity {
	d := m.agent.Definition()
	meta := d.Metadata()
	p := m.client.Profile()
	return Identity{
		Agent:  digest([]byte(meta.Name + "/" + strconv.Itoa(meta.Version) + "\x00" + d.InputRef().Digest + "\x00" + d.OutputRef().Digest)),
		Schema: digest(d.ModelSchema()),
		Model:  digest([]byte(p.Name + "\x00" + d.Model().Model + "\x00" + strconv.Itoa(m.MaxOutputTokens()))),
		Tool:   tools,
	}
}

// digest spells a SHA-256 as durable.Digest does ("sha256:" and hex).
func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Paragraphs splits a checked answer into the deltas it is emitted in.
func Paragraphs(answer string) []string {
	return strings.SplitAfterN(answer, "\n\n", maxModelDeltas)
}

// Retryable reports whether a failed call may be tried again within a
// run's budget: the provider was unavailable or rate limited, or the
// connection failed. A refusal, a malformed or an ungrounded answer would
// fail the same way again. ambiguous is true when the call may still have
// reached the provider and been billed (a transport failure): its attempt
// is recorded unknown, not failed.
func Retryable(err error) (retry, ambiguous bool) {
	var pe *provider.Error
	if !errors.As(err, &pe) {
		return false, false
	}
	switch pe.Code {
	case provider.CodeTransport:
		return true, true
	case provider.CodeRateLimited, provider.CodeUnavailable:
		return true, false
	}
	return false, false
}
