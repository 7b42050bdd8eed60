package grounding

import (
	"context"

	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/protocol"
)

// Query is what retrieval and generation see: the trusted site, the
// question and the merged history. Nothing else of the request reaches
// them.
type Query struct {
	// RequestID is the request's id, the key under which the evidence an
	// answer used can be kept for the review page.
	RequestID string
	Site      *protocol.BackendSite
	Text      string                // the latest user turn, trimmed, never empty
	Messages  []protocol.AskMessage // merged history, oldest first, ending with the question
	// Evidence is, for generation only, the package an EvidenceRetriever
	// returned for this request; nil otherwise. A generator reads it
	// instead of searching again.
	Evidence *evidence.Package
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

// EvidenceRetriever is a Retriever whose sources come from an evidence
// package. When ask.Config.Retriever is one, the handler calls
// RetrieveEvidence instead of Retrieve, cites the package's records,
// hands the package to the generator in Query.Evidence, and links the
// answer to it (the Link header's review fragment is the package's
// recipe). A package that is not sufficient has no sources.
type EvidenceRetriever interface {
	Retriever
	RetrieveEvidence(ctx context.Context, q Query) (*evidence.Package, error)
}

// FromPackage returns the records of a sufficient package as sources
// titled with their citation label.
func FromPackage(p *evidence.Package) []Source {
	if p == nil || p.Status != evidence.Sufficient {
		return nil
	}
	out := make([]Source, len(p.Records))
	for i := range p.Records {
		r := &p.Records[i]
		out[i] = Source{ID: r.ID, Title: r.Label(), Href: r.Href(), Excerpt: r.Excerpt}
	}
	return out
}

// Limits of a source, as AskBackendSourceSchema bounds it.
const (
	MaxSourceTitleLen   = 256
	MaxSourceExcerptLen = 4096
)

// Valid returns the candidates that pass the strict source schema,
// trimmed, in order, at most max of them. The rest are dropped silently.
func Valid(list []Source, max int) []Source {
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

func within(n, lo, hi int) bool { return n >= lo && n <= hi }
