package ask

import "github.com/askplane/askplane/internal/grounding"

// The answer contract's names, as the live stream (stream.go) reads them.
// Everything else names them in internal/grounding.
type (
	Source = grounding.Source
	Result = grounding.Result
	Usage  = grounding.Usage
)

// ErrNotGrounded is grounding.ErrNotGrounded.
var ErrNotGrounded = grounding.ErrNotGrounded

// Outcome kinds, as stream.go reports them.
const (
	OutcomeAnswered      = grounding.OutcomeAnswered
	OutcomeLowConfidence = grounding.OutcomeLowConfidence
	OutcomeRefused       = grounding.OutcomeRefused
	OutcomeFailed        = grounding.OutcomeFailed
)

// Cited returns the sources whose ids used names, in sources' order,
// each once; CiteArgs is their cite event's args. For internal/askrun,
// whose answers cite as the live ones do.
func Cited(sources []grounding.Source, used []string) []grounding.Source {
	return citedSources(sources, used)
}

// CiteArgs writes the cite event's {"sources":[{"id","title","path"}]}.
func CiteArgs(cited []grounding.Source) []byte { return citeArgs(cited) }
