package evidence

import (
	"math"
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
// large corpus; only touched entries are reset afterwards.
type scratch struct {
	score   []float64
	mask    []uint64
	touched []int32
}

var scratchPool sync.Pool

func getScratch(n int) *scratch {
	s, _ := scratchPool.Get().(*scratch)
	if s == nil || len(s.score) < n {
		s = &scratch{score: make([]float64, n), mask: make([]uint64, n)}
	}
	s.touched = s.touched[:0]
	return s
}

func (s *scratch) release() {
	for _, r := range s.touched {
		s.score[r], s.mask[r] = 0, 0
	}
	scratchPool.Put(s)
}

// rank scores every record that contains a query term. terms is sorted,
// so each record's score is summed in the same order on every run; the
// products are explicitly rounded (float64(...)) so the compiler cannot
// fuse them into FMA instructions on some architectures and not others.
// It returns the k best, ordered by score, then by record order.
func (ix *Index) rank(terms []string, k int) []hit {
	sc := getScratch(len(ix.records))
	defer sc.release()
	n := float64(len(ix.records))
	for i, t := range terms {
		id, ok := ix.terms[t]
		if !ok {
			continue
		}
		posts := ix.posts[id]
		df := float64(len(posts))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range posts {
			tf := float64(p.tf2) / 2
			s := float64(idf*float64(tf*(k1+1))) / float64(tf+ix.norm[p.rec])
			if sc.mask[p.rec] == 0 {
				sc.touched = append(sc.touched, p.rec)
			}
			sc.score[p.rec] += s
			sc.mask[p.rec] |= 1 << uint(i)
		}
	}
	// Keep the k best by (score desc, record asc): a total order, so the
	// result does not depend on the order records were touched in.
	hits := make([]hit, 0, k+1)
	for _, r := range sc.touched {
		micro := int64(math.Round(sc.score[r] * scoreScale))
		if micro < minScore {
			continue
		}
		h := hit{rec: r, score: micro, mask: sc.mask[r]}
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
