package evidence

import (
	"math"
	"math/bits"
	"slices"
	"sync"
)

// hit is one record's BM25 score and which query terms (bit i = terms[i])
// it matched.
type hit struct {
	rec   int32
	score int64 // micro-units
	mask  uint64
}

// scratch holds per-record accumulators for one search. Dense arrays
// (reused through a pool) beat a map when common terms touch most of a
// large corpus; only touched entries are reset afterwards. A record is
// touched (a candidate) exactly when its mask is not zero.
type scratch struct {
	acc     []acc
	touched []int32
	spare   []int32 // for merging touched into record order
}

// acc is one record's running score and term mask, side by side so
// adding a posting touches one cache line.
type acc struct {
	score float64
	mask  uint64
}

var scratchPool sync.Pool

func getScratch(n int) *scratch {
	s, _ := scratchPool.Get().(*scratch)
	if s == nil || len(s.acc) < n {
		s = &scratch{acc: make([]acc, n)}
	}
	s.touched = s.touched[:0]
	return s
}

func (s *scratch) release() {
	for _, r := range s.touched {
		s.acc[r] = acc{}
	}
	scratchPool.Put(s)
}

// rank scores the records that can qualify for the question. terms is
// sorted, and each record's score is the sum of its terms'
// contributions in that order, so it is the same float on every run.
// It returns the k best scoring at least minScore, ordered by score, then
// by record order.
//
// Common terms (see commonTerms) cannot lift a record to minScore on
// their own, so only the other ("rare") terms make a record a candidate;
// a common term then adds its contribution to candidates only, which
// spares walking a posting list that may span the whole corpus. Every
// candidate still gets every term's contribution, in term order, so its
// score and mask are exactly those of scoring all records, and the
// records left out are exactly records that would have scored under
// minScore.
func (ix *Index) rank(terms []string, k int) []hit {
	var lists [64]*postings
	for i, t := range terms {
		if id, ok := ix.terms[t]; ok {
			lists[i] = &ix.posts[id]
		}
	}
	common := commonTerms(lists[:len(terms)])
	// Rare terms before the first common one add as they mark; those after
	// it must wait until every candidate is known.
	firstCommon := len(terms)
	if common != 0 {
		firstCommon = bits.TrailingZeros64(common)
	}
	sc := getScratch(len(ix.records))
	defer sc.release()
	// Each pass appends the records it touches first in record order, so
	// touched is a series of sorted runs; runs records where each ends.
	var runs [64]int
	nruns := 0
	for i, ps := range lists[:len(terms)] {
		if ps == nil || common&(1<<uint(i)) != 0 {
			continue
		}
		before := len(sc.touched)
		if i < firstCommon {
			sc.touched = addMark(sc.acc, sc.touched, ps, uint64(1)<<uint(i))
		} else {
			sc.touched = mark(sc.acc, sc.touched, ps, uint64(1)<<uint(i))
		}
		if len(sc.touched) > before {
			runs[nruns] = len(sc.touched)
			nruns++
		}
	}
	if len(sc.touched) == 0 {
		return nil
	}
	sorted := false
	for i := firstCommon; i < len(terms); i++ {
		ps := lists[i]
		switch {
		case ps == nil:
		case common&(1<<uint(i)) == 0:
			add(sc.acc, ps)
		case len(ps.recs) == len(ix.records):
			// In every record: record r is posting r.
			addEvery(sc.acc, sc.touched, ps, uint64(1)<<uint(i))
		case len(sc.touched)*8 >= len(ps.recs):
			// Few postings per candidate: walk the list.
			addCandidates(sc.acc, ps, uint64(1)<<uint(i))
		default:
			// Few candidates: look each up in the list.
			if !sorted {
				sc.touched, sc.spare = mergeRuns(sc.touched, sc.spare, runs[:nruns])
				sorted = true
			}
			lookUp(sc.acc, sc.touched, ps, uint64(1)<<uint(i))
		}
	}
	return sc.best(k)
}

// The loops below take the scratch slices as arguments so they stay in
// registers (sc.touched grows inside them), and reslice the scores to the
// records' length so indexing them needs no bounds check.

// addMark adds ps's contributions and bit to every record in it, making
// each a candidate.
func addMark(acc []acc, touched []int32, ps *postings, bit uint64) []int32 {
	scores := ps.score[:len(ps.recs)]
	for j, r := range ps.recs {
		a := &acc[r]
		if a.mask == 0 {
			touched = append(touched, r)
		}
		a.score += scores[j]
		a.mask |= bit
	}
	return touched
}

// mark makes every record in ps a candidate with bit, adding nothing yet.
func mark(acc []acc, touched []int32, ps *postings, bit uint64) []int32 {
	for _, r := range ps.recs {
		a := &acc[r]
		if a.mask == 0 {
			touched = append(touched, r)
		}
		a.mask |= bit
	}
	return touched
}

// add adds ps's contributions to records already marked.
func add(acc []acc, ps *postings) {
	scores := ps.score[:len(ps.recs)]
	for j, r := range ps.recs {
		acc[r].score += scores[j]
	}
}

// addCandidates adds ps's contributions and bit to the candidates in it.
func addCandidates(acc []acc, ps *postings, bit uint64) {
	scores := ps.score[:len(ps.recs)]
	for j, r := range ps.recs {
		if a := &acc[r]; a.mask != 0 {
			a.score += scores[j]
			a.mask |= bit
		}
	}
}

// addEvery adds the contributions and bit of ps, a term in every record,
// to the candidates.
func addEvery(acc []acc, cands []int32, ps *postings, bit uint64) {
	scores := ps.score
	for _, r := range cands {
		acc[r].score += scores[r]
		acc[r].mask |= bit
	}
}

// lookUp adds ps's contributions and bit to the candidates in it, given
// the candidates in record order. Each is found by galloping from where
// the previous one was: steps of 1, 2, 4… past smaller records, then a
// binary search in the last step, so a dense list (a word in every
// record) costs a few comparisons per candidate, not a search of the
// whole list.
func lookUp(acc []acc, cands []int32, ps *postings, bit uint64) {
	recs := ps.recs
	scores := ps.score[:len(recs)]
	lo := 0
	for _, r := range cands {
		hi, step := lo, 1
		for hi < len(recs) && recs[hi] < r {
			lo = hi + 1
			hi += step
			step <<= 1
		}
		end := min(hi+1, len(recs))
		j, found := slices.BinarySearch(recs[lo:end], r)
		lo += j
		if found {
			acc[r].score += scores[lo]
			acc[r].mask |= bit
		}
		if lo >= len(recs) {
			return
		}
	}
}

// mergeRuns returns s, made of sorted runs ending at ends, in order,
// merging the runs pairwise through spare; it returns the other buffer
// as the new spare.
func mergeRuns(s, spare []int32, ends []int) (sorted, rest []int32) {
	for len(ends) > 1 {
		spare = spare[:0]
		start, w := 0, 0
		for i := 0; i < len(ends); i += 2 {
			if i+1 == len(ends) {
				spare = append(spare, s[start:ends[i]]...)
			} else {
				spare = mergeTwo(spare, s[start:ends[i]], s[ends[i]:ends[i+1]])
				start = ends[i+1]
			}
			ends[w] = len(spare)
			w++
		}
		ends = ends[:w]
		s, spare = spare, s
	}
	return s, spare
}

// mergeTwo appends the sorted union of x and y (disjoint) to dst.
func mergeTwo(dst, x, y []int32) []int32 {
	n := len(dst)
	dst = slices.Grow(dst, len(x)+len(y))[:n+len(x)+len(y)]
	out := dst[n:]
	i, j, k := 0, 0, 0
	for i < len(x) && j < len(y) {
		if x[i] < y[j] {
			out[k] = x[i]
			i++
		} else {
			out[k] = y[j]
			j++
		}
		k++
	}
	k += copy(out[k:], x[i:])
	copy(out[k:], y[j:])
	return dst
}

// best keeps the k best candidates by (score desc, record asc) among
// those scoring at least minScore: a total order, so the result does not
// depend on the order records were touched in.
func (sc *scratch) best(k int) []hit {
	hits := make([]hit, 0, k+1)
	// floor is the least micro score that can still enter hits; a score
	// y rounds to at least floor exactly when y ≥ floor − 0.5 (math.Round
	// rounds halves up for positive y), so the comparison below skips the
	// rounding for most records without changing which ones qualify.
	floor := int64(minScore)
	for _, r := range sc.touched {
		a := &sc.acc[r]
		y := a.score * scoreScale
		if y < float64(floor)-0.5 {
			continue
		}
		h := hit{rec: r, score: int64(math.Round(y)), mask: a.mask}
		if len(hits) == k && !better(h, hits[k-1]) {
			continue
		}
		j, _ := slices.BinarySearchFunc(hits, h, func(x, y hit) int {
			if better(x, y) {
				return -1
			}
			return 1
		})
		hits = slices.Insert(hits, j, h)
		if len(hits) > k {
			hits = hits[:k]
		}
		if len(hits) == k {
			floor = hits[k-1].score
		}
	}
	return hits
}

// better orders hits by score, then by record order.
func better(x, y hit) bool {
	if x.score != y.score {
		return x.score > y.score
	}
	return x.rec < y.rec
}
