package provider

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"

	"github.com/gowebpki/jcs"
)

// A tool loop continues a model call with the model's own output and the
// tools' results. Sending back a reconstruction of that output is how
// continuations go wrong (a provider-native order lost, a reasoning item
// dropped, a call id swapped), so a turn keeps the provider's output as
// replay evidence, byte for byte under a digest, beside the ordered
// outcomes of the calls it proposed. The adapter re-checks the whole
// transcript (Transcript.Verify) before any I/O of the next call: a
// tampered payload, a substituted or reused call id, or another
// provider's replay is refused there, never sent.
//
// This is the provider-neutral half; tools.go has the request and
// response halves, and the adapters map them to their wire (OpenAI
// function_call / function_call_output, Anthropic tool_use /
// tool_result), re-reading each replay's calls before I/O
// (CheckReplayCalls). A payload is sealed compact (json.Compact of the
// provider's bytes): those are exactly the bytes the continuation sends.

// Transcript errors, all before I/O.
const (
	CodeTranscriptCorrupt  = "PROVIDER_TRANSCRIPT_CORRUPT"  // a replay does not match its digest
	CodeTranscriptInvalid  = "PROVIDER_TRANSCRIPT_INVALID"  // outcomes do not answer the calls, in order, once
	CodeTranscriptProvider = "PROVIDER_TRANSCRIPT_PROVIDER" // the replay is another provider's format
)

// Transcript bounds.
const (
	MaxTranscriptTurns = 16
	MaxTurnCalls       = 8
	MaxTranscriptBytes = 1 << 20
	maxCallIDLen       = 128
)

// Replay formats of the adapters.
const (
	ReplayOpenAI    = "openai.responses.output.v1"
	ReplayAnthropic = "anthropic.messages.content.v1"
)

var replayFormat = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z0-9]+){2,7}$`)

// replayDomain separates replay digests from every other digest.
const replayDomain = "askplane.model-provider-replay.v1\x00"

// Replay is a provider's complete output of one call, as it must be sent
// back: Format names its wire shape, Payload is the JSON array itself.
type Replay struct {
	Format  string          `json:"format"`
	Payload json.RawMessage `json:"payload"`
	Digest  string          `json:"digest"`
}

// NewReplay seals payload: Digest is SHA-256 over the domain and the RFC
// 8785 canonical bytes of {format, payload}.
func NewReplay(format string, payload json.RawMessage) (Replay, error) {
	r := Replay{Format: format, Payload: payload}
	d, err := r.digest()
	if err != nil {
		return Replay{}, err
	}
	r.Digest = d
	return r, nil
}

func (r Replay) digest() (string, error) {
	if len(r.Format) > 128 || !replayFormat.MatchString(r.Format) {
		return "", NewError(CodeTranscriptInvalid, "the replay format is not a format id")
	}
	p := bytes.TrimSpace(r.Payload)
	if len(p) == 0 || p[0] != '[' {
		return "", NewError(CodeTranscriptInvalid, "the replay payload is not a JSON array")
	}
	raw, err := json.Marshal(struct {
		Format  string          `json:"format"`
		Payload json.RawMessage `json:"payload"`
	}{r.Format, p})
	if err != nil {
		return "", NewError(CodeTranscriptInvalid, "the replay payload is not JSON")
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		return "", NewError(CodeTranscriptInvalid, "the replay payload is not JSON")
	}
	sum := sha256.Sum256(append([]byte(replayDomain), canon...))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// ToolCall is one call the model proposed, in the order it proposed it.
type ToolCall struct {
	ID        string          `json:"id"` // the provider's call id
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolOutcome answers one call: Result (the tool's JSON output) or Error
// (a fixed public message), never both.
type ToolOutcome struct {
	CallID string          `json:"callId"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// Turn is one round: the provider's output, the calls read from it and
// their outcomes.
type Turn struct {
	Replay   Replay        `json:"replay"`
	Calls    []ToolCall    `json:"calls"`
	Outcomes []ToolOutcome `json:"outcomes"`
}

// Transcript is the tool loop so far.
type Transcript struct {
	Turns []Turn `json:"turns"`
}

// Verify re-checks every turn before the next call's I/O: each replay is
// in format and matches its digest; each turn has 1..MaxTurnCalls calls,
// with ids unique in the whole transcript, and exactly one outcome per
// call, in the calls' order, naming its call; outcomes are a result or an
// error; and the whole fits MaxTranscriptBytes.
func (t Transcript) Verify(format string) error {
	if len(t.Turns) > MaxTranscriptTurns {
		return NewError(CodeTranscriptInvalid, "the transcript has too many turns")
	}
	seen := map[string]bool{}
	size := 0
	for _, turn := range t.Turns {
		if turn.Replay.Format != format {
			return NewError(CodeTranscriptProvider, "the transcript holds another provider's replay")
		}
		d, err := turn.Replay.digest()
		if err != nil {
			return err
		}
		if d != turn.Replay.Digest {
			return NewError(CodeTranscriptCorrupt, "a replay does not match its digest")
		}
		if len(turn.Calls) == 0 || len(turn.Calls) > MaxTurnCalls || len(turn.Outcomes) != len(turn.Calls) {
			return NewError(CodeTranscriptInvalid, "a turn's outcomes do not answer its calls one to one")
		}
		for i, c := range turn.Calls {
			o := turn.Outcomes[i]
			switch {
			case c.ID == "" || len(c.ID) > maxCallIDLen || seen[c.ID]:
				return NewError(CodeTranscriptInvalid, "a call id is empty, too long or reused")
			case o.CallID != c.ID:
				return NewError(CodeTranscriptInvalid, "an outcome does not name its call, in order")
			case (len(o.Result) == 0) == (o.Error == ""):
				return NewError(CodeTranscriptInvalid, "an outcome is not exactly a result or an error")
			case len(o.Result) > 0 && !json.Valid(o.Result):
				return NewError(CodeTranscriptInvalid, "an outcome's result is not JSON")
			}
			// The call must be one the replay proposed: its id appears in
			// the sealed payload, so a call cannot be substituted beside an
			// untouched replay.
			if !bytes.Contains(turn.Replay.Payload, []byte(`"`+c.ID+`"`)) {
				return NewError(CodeTranscriptInvalid, "a call is not in the turn's replay")
			}
			seen[c.ID] = true
			size += len(c.Arguments) + len(o.Result) + len(o.Error)
		}
		size += len(turn.Replay.Payload)
		if size > MaxTranscriptBytes {
			return NewError(CodeTranscriptInvalid, "the transcript is too large")
		}
	}
	return nil
}
