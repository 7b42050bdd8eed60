package ask

import (
	"context"

	"github.com/askplane/askplane/internal/protocol"
)

// Query is what retrieval and generation see: the trusted site, the
// question and the merged history. Nothing else of the request reaches
// them.
type Query struct {
	// RequestID is the request's id, the key under which the evidence an
	// answer used can be kept for the review page.
	RequestID string
	Site      *Site
	Text      string                // the latest user turn, trimmed, never empty
	Messages  []protocol.AskMessage // merged history, oldest first, ending with the question
}

// Source is one retrieved record an answer may cite.
type Source struct {
	ID      string // SafeIdentifier
	Title   string // trimmed, 1–256 UTF-16 units
	Href    string // SafeHref; sent to the client as the cite event's path
	Excerpt string // trimmed, 1–4096 UTF-16 units; never sent to the client
}

// Retriever finds the sources for a question in the site's corpus. It must
// return promptly once ctx is done.
type Retriever interface {
	Retrieve(ctx context.Context, q Query) ([]Source, error)
}

// Limits of a source, as AskBackendSourceSchema bounds it.
const (
	MaxSourceTitleLen   = 256
	MaxSourceExcerptLen = 4096
)

// validSources returns the candidates that pass the strict source schema,
// trimmed, in order, at most max of them. The rest are dropped silently.
func validSources(list []Source, max int) []Source {
	out := make([]Source, 0, min(len(list), max))
	for _, s := range list {
		if len(out) == max {
			break
		}
		s.Title = protocol.Trim(s.Title)
		s.Excerpt = protocol.Trim(s.Excerpt)
		if !protocol.ValidIdentifier(s.ID) ||
			!within(protocol.UTF16Len(s.Title), 1, MaxSourceTitleLen) ||
			!protocol.ValidHref(s.Href) ||
			!within(protocol.UTF16Len(s.Excerpt), 1, MaxSourceExcerptLen) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// RetrieverFunc adapts a function to Retriever.
type RetrieverFunc func(ctx context.Context, q Query) ([]Source, error)

// Retrieve implements Retriever.
func (f RetrieverFunc) Retrieve(ctx context.Context, q Query) ([]Source, error) { return f(ctx, q) }
