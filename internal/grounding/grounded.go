package grounding

import (
	"context"
	"errors"
	"fmt"

	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/generate"
)

// Grounded answers from one verified corpus: it is both the Retriever (a
// search of the evidence engine) and the Generator (a generate.Generator
// over the same evidence package), so the command wires one value into
// ask.Config.Retriever and ask.Config.Generator.
//
// It keeps no per-request state: the handler carries the package from
// RetrieveEvidence to Generate (Query.Evidence), and Generate keeps only
// the records the handler passed on (valid and within maxSources).
type Grounded struct {
	Engine evidence.Engine
	// Generator defaults to generate.Composer{} ("askplane.extractive/2").
	Generator generate.Generator
	// MaxBytes is the evidence package's byte budget; 0 means the engine's
	// default. The record budget is the site's maxSources.
	MaxBytes int
}

func (g *Grounded) search(q Query) evidence.Package {
	return g.Engine.Search(q.Text, evidence.Budget{MaxRecords: q.Site.Limits.MaxSources, MaxBytes: g.MaxBytes})
}

// Retrieve implements Retriever: the records of a sufficient package, as
// sources titled with their citation label. An insufficient package has
// none, which the handler answers with 422 ASK_NO_GROUNDED_SOURCES.
func (g *Grounded) Retrieve(ctx context.Context, q Query) ([]Source, error) {
	p, err := g.RetrieveEvidence(ctx, q)
	return FromPackage(p), err
}

// RetrieveEvidence implements EvidenceRetriever.
func (g *Grounded) RetrieveEvidence(ctx context.Context, q Query) (*evidence.Package, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := g.search(q)
	return &p, nil
}

// Generate implements Generator with generate.Run, which cites only
// records of the package.
func (g *Grounded) Generate(ctx context.Context, q Query, sources []Source, emit func(string) error) (Result, error) {
	var p evidence.Package
	if q.Evidence != nil {
		p = *q.Evidence
	} else {
		p = g.search(q)
	}
	keep := make(map[string]bool, len(sources))
	for _, s := range sources {
		keep[s.ID] = true
	}
	records := make([]evidence.Selected, 0, len(sources))
	for _, r := range p.Records {
		if keep[r.ID] {
			records = append(records, r)
		}
	}
	p.Records = records
	gen := g.Generator
	if gen == nil {
		gen = generate.Composer{}
	}
	res, err := generate.Run(ctx, gen, generate.Question{Text: q.Text}, &p, func(ev generate.Event) error {
		if ev.Delta == "" {
			return nil
		}
		return emit(ev.Delta)
	})
	if err != nil {
		var ge *generate.Error
		if errors.As(err, &ge) && ge.Code == generate.CodeUngrounded {
			return Result{}, fmt.Errorf("%w: %w", ErrNotGrounded, err)
		}
		return Result{}, err
	}
	out := Result{Used: res.Used, LowConfidence: res.Unsure}
	if u := res.Usage; u != nil {
		out.Model = u.Model
		out.Usage = &Usage{InputTokens: int64(u.InputTokens), OutputTokens: int64(u.OutputTokens), TotalTokens: int64(u.TotalTokens)}
	}
	return out, nil
}

var (
	_ EvidenceRetriever = (*Grounded)(nil)
	_ Generator         = (*Grounded)(nil)
)
