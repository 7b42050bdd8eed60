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
	// raw holds, per term while indexing, each record containing it with
	// its field-weighted frequency in halves (exact); contributions need
	// the average length, so they come after every record is read.
	var raw [][]rawPosting
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
				id = int32(len(raw))
				ix.terms[t] = id
				raw = append(raw, nil)
			}
			raw[id] = append(raw[id], rawPosting{rec: int32(i), tf2: counts[t]})
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
	ix.posts = make([]postings, len(raw))
	// One array of records and one of contributions hold every list.
	npost := 0
	for _, list := range raw {
		npost += len(list)
	}
	allRecs, allScores := make([]int32, 0, npost), make([]float64, 0, npost)
	for id, list := range raw {
		ps := &ix.posts[id]
		df := float64(len(list))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		from := len(allRecs)
		allRecs, allScores = allRecs[:from+len(list)], allScores[:from+len(list)]
		ps.recs = allRecs[from:len(allRecs):len(allRecs)]
		ps.score = allScores[from:len(allScores):len(allScores)]
		for j, p := range list {
			ps.recs[j] = p.rec
			ps.score[j] = contribution(idf, p.tf2, norm[p.rec])
			ps.max = max(ps.max, ps.score[j])
		}
		raw[id] = nil // let it go as soon as it is copied
	}
	return ix
}

// rawPosting is one record containing a term, while indexing.
type rawPosting struct {
	rec int32
	tf2 int32
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
