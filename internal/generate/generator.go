package generate

import (
	"context"

	"github.com/askplane/askplane/internal/evidence"
)

// Generator writes an answer from the evidence, calling emit for each
// piece as it is ready. It must stop and return ctx.Err() when ctx is
// done, and return emit's error unchanged when emit fails (the client
// went away). It must not read anything but q and pkg.
type Generator interface {
	Generate(ctx context.Context, q Question, pkg *evidence.Package, emit func(Event) error) error
}

// Question is what the user asked, as the handler extracted it (the
// trimmed last user turn).
type Question struct {
	Text string
}

// Event is one streamed piece of the answer: a text delta with the ids of
// the package records it was taken from, or (Delta empty) a usage report.
// Sources is how a generator says what it used, so the handler cites
// those records and no others.
type Event struct {
	Delta   string
	Sources []string
	Usage   *Usage
	// Unsure, on any event, says the generator found no passage that
	// answers the question directly and wrote the closest sections
	// instead: a typed signal, so nobody matches the answer's text.
	Unsure bool
}

// Usage reports the model and tokens of a generation, mapped by the
// handler onto the Ask protocol's usage (done.model, usage metrics).
type Usage struct {
	Model        string
	InputTokens  int
	OutputTokens int
	TotalTokens  int
}
