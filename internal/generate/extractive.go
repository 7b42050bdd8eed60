package generate

import (
	"context"
	"math/bits"
	"slices"

	"github.com/askplane/askplane/internal/evidence"
)

// ExtractiveModel is reported as the usage model, so done events and
// metrics say the answer was extracted, not written by a model.
const ExtractiveModel = "askplane.extractive/1"

// Extractive bounds: a short answer that points to the sources rather
// than repeating them.
const (
	DefaultMaxSentences = 5
	DefaultMaxBytes     = 1200
)

// Extractive answers with text copied verbatim from the package's
// records. When the records carry blocks (a v3 corpus) it composes
// markdown: a lead sentence from the best record, the relevant code block
// in a fence with its language, and a few supporting sentences (see
// structured). Otherwise it answers with the excerpts' sentences that
// together cover the most question terms. It is deterministic (the same
// package and question give the same deltas) and the zero value is ready
// to use.
type Extractive struct {
	MaxSentences int // 0: DefaultMaxSentences
	MaxBytes     int // 0: DefaultMaxBytes; the answer's length in bytes
}

var _ Generator = Extractive{}

// candidate is one sentence of one selected record.
type candidate struct {
	rec, pos int // record rank in the package, sentence position in it
	text     string
	mask     uint64 // question terms it contains
}

// Generate picks sentences greedily: each round takes the sentence adding
// the most question terms not yet covered, then the one matching most
// terms, then the best-ranked record, then the earliest sentence; it
// stops when nothing new is covered or a bound is reached. The chosen
// sentences are streamed in reading order (record rank, then position),
// one delta each, cancellation checked before every delta.
func (e Extractive) Generate(ctx context.Context, q Question, pkg *evidence.Package, emit func(Event) error) error {
	if pkg == nil || len(pkg.Records) == 0 {
		return ErrNoEvidence
	}
	maxN, maxBytes := e.MaxSentences, e.MaxBytes
	if maxN <= 0 {
		maxN = DefaultMaxSentences
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	terms := distinctTerms(q.Text)
	// Records from a v3 corpus carry their blocks: the answer is composed
	// as markdown (structured.go). Without blocks (v1, v2), or when the
	// blocks give nothing to quote, it is the sentences below.
	if pkg.Records[0].Blocks != nil {
		if c := e.structured(terms, pkg, maxBytes); c != nil {
			return emitComposed(ctx, c, emit)
		}
	}
	var cands []candidate
	for ri, r := range pkg.Records {
		for si, s := range evidence.Sentences(r.Excerpt) {
			cands = append(cands, candidate{rec: ri, pos: si, text: s, mask: maskOf(s, terms)})
		}
	}
	chosen := pick(cands, maxN, maxBytes)
	if len(chosen) == 0 {
		// The records matched on their titles or headings only: their
		// opening sentence is what the page says about the question.
		for _, c := range cands {
			if len(c.text) <= maxBytes {
				chosen = append(chosen, c)
				break
			}
		}
	}
	if len(chosen) == 0 {
		return ErrEmpty
	}
	slices.SortFunc(chosen, func(a, b candidate) int {
		if a.rec != b.rec {
			return a.rec - b.rec
		}
		return a.pos - b.pos
	})
	for i, c := range chosen {
		if err := ctx.Err(); err != nil {
			return err
		}
		delta := c.text
		switch {
		case i == 0:
		case chosen[i-1].rec == c.rec:
			delta = " " + delta
		default:
			delta = "\n\n" + delta
		}
		if err := emit(Event{Delta: delta, Sources: []string{pkg.Records[c.rec].ID}}); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return emit(Event{Usage: &Usage{Model: ExtractiveModel}})
}

// pick runs the greedy cover described on Generate. Separators count
// in the byte bound as two bytes, the longer of " " and "\n\n".
func pick(cands []candidate, maxN, maxBytes int) []candidate {
	var chosen []candidate
	var covered uint64
	taken := make([]bool, len(cands))
	size := 0
	for len(chosen) < maxN {
		sep := 2
		if len(chosen) == 0 {
			sep = 0
		}
		best, bestNew, bestAll := -1, 0, 0
		for i, c := range cands {
			if taken[i] || size+sep+len(c.text) > maxBytes {
				continue
			}
			n, all := bits.OnesCount64(c.mask&^covered), bits.OnesCount64(c.mask)
			if n > bestNew || (n == bestNew && n > 0 && all > bestAll) {
				best, bestNew, bestAll = i, n, all
			}
		}
		if best < 0 {
			break
		}
		taken[best] = true
		covered |= cands[best].mask
		size += sep + len(cands[best].text)
		chosen = append(chosen, cands[best])
	}
	return chosen
}

// distinctTerms is the question's terms, sorted and distinct, at most 64
// (one bit each).
func distinctTerms(q string) []string {
	t := evidence.Terms(q)
	slices.Sort(t)
	t = slices.Compact(t)
	return t[:min(len(t), 64)]
}

func maskOf(s string, terms []string) uint64 {
	var m uint64
	for _, t := range evidence.Terms(s) {
		if i, ok := slices.BinarySearch(terms, t); ok {
			m |= 1 << uint(i)
		}
	}
	return m
}
