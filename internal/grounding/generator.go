package grounding

import (
	"context"
	"errors"
)

// ErrNotGrounded is what a Generator returns (or wraps) when the answer it
// produced cannot be tied to the sources: it cites none, or cites one it
// was not given. The handler ends such a request with
// ASK_NO_GROUNDED_SOURCES, not as a generation failure, and sends none of
// its text.
var ErrNotGrounded = errors.New("ask: answer not grounded in the sources")

// Generator writes an answer from the sources. It calls emit with each
// piece of text as it is produced (emit returns an error once the request
// is over; the generator should then stop) and reports which sources it
// used. It must return promptly once ctx is done.
type Generator interface {
	Generate(ctx context.Context, q Query, sources []Source, emit func(delta string) error) (Result, error)
}

// Result is what a generator reports when it finishes.
type Result struct {
	// Used lists the ids of the sources the answer cites. Ids not among
	// the sources given are ignored. An answer that used none ends in
	// ASK_NO_GROUNDED_SOURCES: askplane never answers without a citation.
	Used []string
	// Model names the model that answered, or "". It is trimmed and must
	// be at most 256 UTF-16 units.
	Model string
	// Usage is the token and cost accounting, or nil when not reported.
	Usage *Usage
	// LowConfidence says the answer is not a direct one: the generator
	// found no passage that answers the question and listed the closest
	// sections (generate.Result.Unsure).
	LowConfidence bool
}

// Usage is a generator's accounting; every value must be non-negative and
// CostUSD finite.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	TotalTokens  int64
	CostUSD      float64
}

// GeneratorFunc adapts a function to Generator.
type GeneratorFunc func(ctx context.Context, q Query, sources []Source, emit func(delta string) error) (Result, error)

// Generate implements Generator.
func (f GeneratorFunc) Generate(ctx context.Context, q Query, sources []Source, emit func(string) error) (Result, error) {
	return f(ctx, q, sources, emit)
}
