package evidence

import (
	"math"
	"slices"
)

// commonTerms returns, as a mask over lists (nil for a term not in the
// corpus), the terms that together cannot give any record minScore: the
// float sum of their largest contributions, in term order, rounds below
// it. Float addition and rounding are monotonic and contributions are
// positive, so no record's sum over any subset of these terms, in the
// same order, can round higher: a record matching only common terms never
// qualifies, and rank need not look at it. Terms are taken from the
// smallest maximum up while the bound holds, which makes a word found in
// every record (a site name in every title) common, and keeps every term
// that can matter on its own rare.
func commonTerms(lists []*postings) uint64 {
	var order [64]int
	n := 0
	for i, ps := range lists {
		if ps != nil {
			order[n] = i
			n++
		}
	}
	slices.SortFunc(order[:n], func(x, y int) int {
		if c := cmpFloat(lists[x].max, lists[y].max); c != 0 {
			return c
		}
		return x - y
	})
	var common uint64
	for _, i := range order[:n] {
		try := common | 1<<uint(i)
		var bound float64
		for j, ps := range lists {
			if try&(1<<uint(j)) != 0 {
				bound += ps.max
			}
		}
		if int64(math.Round(bound*scoreScale)) >= minScore {
			break
		}
		common = try
	}
	return common
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
