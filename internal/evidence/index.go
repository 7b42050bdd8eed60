package evidence

import (
	"sort"

	"github.com/askplane/askplane/internal/corpus"
)

// Index is the BM25 index of one corpus version. It is built once, when a
// corpus is loaded, and is immutable afterwards, so any number of requests
// may search it concurrently.
type Index struct {
	version string
	records []corpus.Record
	terms   map[string]int32 // term → index into postings
	posts   [][]posting      // per term, in record order
	norm    []float64        // per record: k1·(1 − b + b·len/avgLen)
}

// posting is one record containing a term, with the field-weighted term
// frequency (in halves, so exact).
type posting struct {
	rec int32
	tf2 int32
}

var _ Engine = (*Index)(nil)

// NewIndex indexes every record of c. Records are visited in corpus order
// and each record's terms in sorted order, so posting lists and every
// float computed from them are the same on every run.
func NewIndex(c *corpus.Corpus) *Index {
	ix := &Index{version: c.Version, records: c.Records, terms: map[string]int32{}}
	lens := make([]int64, len(c.Records))
	var total int64
	counts := map[string]int32{}
	var keys []string
	var buf []string
	for i := range c.Records {
		r := &c.Records[i]
		clear(counts)
		var n int64
		add := func(text string, w int32) {
			buf = appendTerms(buf[:0], text)
			for _, t := range buf {
				counts[t] += w
			}
			n += int64(len(buf)) * int64(w)
		}
		add(r.Title, titleWeight2)
		for _, h := range r.Headings {
			add(h, headingWeight2)
		}
		add(r.Text, textWeight2)
		keys = keys[:0]
		for t := range counts {
			keys = append(keys, t)
		}
		sort.Strings(keys)
		for _, t := range keys {
			id, ok := ix.terms[t]
			if !ok {
				id = int32(len(ix.posts))
				ix.terms[t] = id
				ix.posts = append(ix.posts, nil)
			}
			ix.posts[id] = append(ix.posts[id], posting{rec: int32(i), tf2: counts[t]})
		}
		lens[i] = n
		total += n
	}
	ix.norm = make([]float64, len(lens))
	avg := 1.0
	if len(lens) > 0 && total > 0 {
		avg = float64(total) / float64(len(lens))
	}
	for i, n := range lens {
		ix.norm[i] = k1 * float64((1-b)+float64(b*float64(n))/avg)
	}
	return ix
}

// ID is the engine id recorded in packages.
func (ix *Index) ID() string { return EngineID }

// SourceVersion is the contentHash of the indexed corpus.
func (ix *Index) SourceVersion() string { return ix.version }

// Len is the number of indexed records.
func (ix *Index) Len() int { return len(ix.records) }

func sortStrings(s []string) { sort.Strings(s) }
