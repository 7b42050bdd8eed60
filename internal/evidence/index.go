package evidence

import (
	"math"
	"sort"

	"github.com/askplane/askplane/internal/corpus"
)

// Index is the BM25 index of one corpus version. It is built once, when a
// corpus is loaded, and is immutable afterwards, so any number of requests
// may search it concurrently.
type Index struct {
	version string
	records []corpus.Record
	terms   map[string]int32 // term → index into posts
	posts   []postings       // per term
}

// postings lists the records containing one term, in record order, with
// the term's BM25 contribution to each record's score. A contribution
// depends only on the corpus (the term's idf, its field-weighted
// frequency in the record, the record's length), never on the question,
// so it is computed once here rather than on every search; the
// expression is the one the engine has always used, so every value, and
// every sum of them, is bit for bit what it was.
type postings struct {
	recs  []int32
	score []float64
	// max is the largest contribution: no record gets more from this
	// term, which lets rank skip records only common terms could score.
	max float64
}

var _ Engine = (*Index)(nil)

// NewIndex indexes every record of c. Records are visited in corpus order
// and each record's terms in sorted order, so posting lists and every
// float computed from them are the same on every run.
func NewIndex(c *corpus.Corpus) *Index {
	ix := &Index{version: c.Version, records: c.Records, terms: map[string]int32{}}
	var tf2s [][]int32 // per term, parallel to posts[id].recs: weighted tf in halves (exact)
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
				ix.posts = append(ix.posts, postings{})
				tf2s = append(tf2s, nil)
			}
			ix.posts[id].recs = append(ix.posts[id].recs, int32(i))
			tf2s[id] = append(tf2s[id], counts[t])
		}
		lens[i] = n
		total += n
	}
	norm := make([]float64, len(lens)) // per record: k1·(1 − b + b·len/avgLen)
	avg := 1.0
	if len(lens) > 0 && total > 0 {
		avg = float64(total) / float64(len(lens))
	}
	for i, n := range lens {
		norm[i] = k1 * float64((1-b)+float64(b*float64(n))/avg)
	}
	n := float64(len(ix.records))
	for id := range ix.posts {
		ps := &ix.posts[id]
		df := float64(len(ps.recs))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		ps.score = make([]float64, len(ps.recs))
		for j, rec := range ps.recs {
			ps.score[j] = contribution(idf, tf2s[id][j], norm[rec])
			ps.max = max(ps.max, ps.score[j])
		}
	}
	return ix
}

// contribution is a term's BM25 score in one record. The products are
// explicitly rounded (float64(...)) so the compiler cannot fuse them into
// FMA instructions on some architectures and not others.
func contribution(idf float64, tf2 int32, norm float64) float64 {
	tf := float64(tf2) / 2
	return float64(idf*float64(tf*(k1+1))) / float64(tf+norm)
}

// ID is the engine id recorded in packages.
func (ix *Index) ID() string { return EngineID }

// SourceVersion is the contentHash of the indexed corpus.
func (ix *Index) SourceVersion() string { return ix.version }

// Len is the number of indexed records.
func (ix *Index) Len() int { return len(ix.records) }

func sortStrings(s []string) { sort.Strings(s) }
