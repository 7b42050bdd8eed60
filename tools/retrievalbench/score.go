package retrievalbench

import "strings"

// Rank returns the 1-based position of the first page in got that is
// labelled in want, or 0 when none is.
func Rank(got, want []string) int {
	for i, g := range got {
		for _, w := range want {
			if g == w {
				return i + 1
			}
		}
	}
	return 0
}

// Score sums ranks over questions.
type Score struct {
	N                int
	Hit1, Hit3, Hit5 int
	RR               float64 // sum of reciprocal ranks
}

// Add counts one question answered at rank (0: not at all).
func (s *Score) Add(rank int) {
	s.N++
	if rank == 0 {
		return
	}
	if rank <= 1 {
		s.Hit1++
	}
	if rank <= 3 {
		s.Hit3++
	}
	if rank <= 5 {
		s.Hit5++
	}
	s.RR += 1 / float64(rank)
}

// MRR is the mean reciprocal rank (a miss counts 0).
func (s Score) MRR() float64 {
	if s.N == 0 {
		return 0
	}
	return s.RR / float64(s.N)
}

// Rate returns hits over questions as a fraction.
func (s Score) Rate(hits int) float64 {
	if s.N == 0 {
		return 0
	}
	return float64(hits) / float64(s.N)
}

// pagePath turns a record URL or a cited path into the page path the
// labels use: no fragment, no query, a trailing slash.
func pagePath(u string) string {
	if i := strings.IndexAny(u, "#?"); i >= 0 {
		u = u[:i]
	}
	if i := strings.Index(u, "://"); i >= 0 { // an absolute URL: keep its path
		if j := strings.IndexByte(u[i+3:], '/'); j >= 0 {
			u = u[i+3+j:]
		} else {
			u = "/"
		}
	}
	if !strings.HasSuffix(u, "/") {
		u = strings.TrimSuffix(u, "index.html")
		if !strings.HasSuffix(u, "/") {
			u += "/"
		}
	}
	return u
}

// distinctPages maps URLs to page paths, keeping the first of each, in
// order.
func distinctPages(urls []string) []string {
	out := make([]string, 0, len(urls))
	for _, u := range urls {
		p := pagePath(u)
		dup := false
		for _, o := range out {
			if o == p {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}
