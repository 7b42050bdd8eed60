package evidence

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// mergeRuns must sort any series of sorted, disjoint runs, and lookUp
// must find exactly the candidates a list holds, however sparse or dense
// either is.
func TestMergeRunsAndLookUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for round := 0; round < 500; round++ {
		n := 1 + rng.IntN(3000)
		perm := rng.Perm(n)
		var s []int32
		var ends []int
		for len(perm) > 0 {
			k := 1 + rng.IntN(len(perm))
			run := make([]int32, 0, k)
			for _, v := range perm[:k] {
				run = append(run, int32(v))
			}
			perm = perm[k:]
			slices.Sort(run)
			s = append(s, run...)
			ends = append(ends, len(s))
		}
		want := slices.Sorted(slices.Values(s))
		got, _ := mergeRuns(slices.Clone(s), nil, ends)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: merged %v, want %v", round, got, want)
		}
		var ps postings
		for r := 0; r < n; r++ {
			if rng.IntN(1+round%5) == 0 {
				ps.recs = append(ps.recs, int32(r))
				ps.score = append(ps.score, float64(r)+1)
			}
		}
		cands := want[:rng.IntN(len(want)+1)]
		acc := make([]acc, n)
		lookUp(acc, cands, &ps, 4)
		for r := range acc {
			_, inList := slices.BinarySearch(ps.recs, int32(r))
			_, isCand := slices.BinarySearch(cands, int32(r))
			if hit := inList && isCand; hit != (acc[r].mask == 4) || hit && acc[r].score != float64(r)+1 {
				t.Fatalf("round %d: record %d in list %v, candidate %v, got %+v", round, r, inList, isCand, acc[r])
			}
		}
	}
}
