package evidence

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// Query bounds and weights of askplane.bm25/2.
const (
	// maxQueryTerms2 bounds the distinct terms (and typo groups) a question
	// is searched for, taken in question order.
	maxQueryTerms2 = 32
	// maxFuzzyTerms bounds how many typed words get typo expansion, and
	// maxExpansions how many vocabulary terms each may expand to.
	maxFuzzyTerms = 4
	maxExpansions = 3
	// minFuzzyRunes: only words of five letters or more are corrected.
	minFuzzyRunes = 5
	// fuzzyDiv: a corrected word scores a third of what the word would.
	fuzzyDiv = 3
	// maxContentForStop: with at most this many content words, stopwords
	// weigh half; with more, a quarter; alone, they weigh fully.
	maxContentForStop = 3
	// proxCandidates is how many of the best records (by BM25) are
	// checked for phrase and proximity bonuses, at least; proxWindow is
	// the farthest two query words may be, in order, to count as near.
	proxCandidates = 32
	proxWindow     = 3
	// maxProxPositions bounds the positions of one record scanned for
	// phrases.
	maxProxPositions = 4096
)

// qterm is one thing a question is searched for: an index term, or a
// typed word missing from the vocabulary with its corrections merged into
// one posting list.
type qterm struct {
	reason string
	weight int64 // quarters
	stop   bool
	list   *posts2
	ids    []int32 // the term ids it stands for (excerpts match these)
	pos    int     // position in the question of its first part occurrence, -1 if none
	syn    bool    // a synonym of a question word (askplane.bm25/4), not one typed
}

// query is an analyzed question.
type query struct {
	terms []qterm
	// seq is the question's part terms in order (indexes into terms), for
	// phrase bonuses.
	seq []int
}

func (ix *Index2) parse(question string) query {
	toks, _ := analyze(nil, question, 0)
	var q query
	byID := map[int32]int{}
	absent := map[string]int{}
	fuzzy := 0
	for _, t := range toks {
		weight := int64(4)
		if t.multi && t.kind != kindWhole {
			weight = 2
		}
		_, isStop := stopwords[t.form]
		stop := t.kind == kindPart && !t.multi && isStop
		id, st, ok := ix.lookup(t.form)
		var at int
		switch {
		case ok:
			j, seen := byID[id]
			if !seen {
				if len(q.terms) == maxQueryTerms2 {
					continue
				}
				j = len(q.terms)
				byID[id] = j
				q.terms = append(q.terms, qterm{reason: t.form, stop: stop, list: &ix.posts[id], ids: []int32{id}, pos: -1})
			}
			q.terms[j].weight = max(q.terms[j].weight, weight)
			q.terms[j].stop = q.terms[j].stop && stop
			at = j
		default:
			j, seen := absent[st]
			if !seen {
				if len(q.terms) == maxQueryTerms2 {
					continue
				}
				j = len(q.terms)
				absent[st] = j
				qt := qterm{reason: t.form, stop: stop, weight: weight, pos: -1}
				if t.kind == kindPart && !t.multi && fuzzy < maxFuzzyTerms && isFuzzyWord(t.form) {
					fuzzy++
					ix.correct(&qt, st)
				}
				q.terms = append(q.terms, qt)
			}
			at = j
		}
		if t.kind == kindPart {
			q.seq = append(q.seq, at)
		}
	}
	content := 0
	for i := range q.terms {
		if !q.terms[i].stop {
			content++
		}
	}
	for i := range q.terms {
		if t := &q.terms[i]; t.stop && content > 0 {
			if content <= maxContentForStop {
				t.weight = min(t.weight, 2)
			} else {
				t.weight = 1
			}
		}
	}
	// Phrases run over content words when there are any.
	seq := q.seq[:0]
	for _, j := range q.seq {
		if q.terms[j].list == nil || content > 0 && q.terms[j].stop {
			continue
		}
		if len(seq) > 0 && seq[len(seq)-1] == j {
			continue
		}
		seq = append(seq, j)
	}
	q.seq = seq
	return q
}

// isFuzzyWord reports whether a typed word is long enough, and a word
// (letters only), to be corrected.
func isFuzzyWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			return false
		}
		n++
	}
	return n >= minFuzzyRunes
}

// correct finds up to maxExpansions vocabulary terms one edit (insertion,
// deletion, substitution or transposition of neighbours) from stem, the
// most frequent first, then by spelling, and gives qt their merged
// posting list: per record the best of their contributions, divided by
// fuzzyDiv. The word itself is not in the corpus, so no exact match of it
// exists to be outranked.
func (ix *Index2) correct(qt *qterm, stem string) {
	found := ix.neighbours(stem)
	if len(found) == 0 {
		return
	}
	slices.SortFunc(found, func(x, y int32) int {
		if dx, dy := len(ix.posts[x].recs), len(ix.posts[y].recs); dx != dy {
			return dy - dx
		}
		return strings.Compare(ix.vocab[x], ix.vocab[y])
	})
	found = found[:min(len(found), maxExpansions)]
	best := map[int32]int64{}
	for _, id := range found {
		ps := &ix.posts[id]
		for j, r := range ps.recs {
			best[r] = max(best[r], ps.score[j]/fuzzyDiv)
		}
	}
	merged := &posts2{recs: make([]int32, 0, len(best)), score: make([]int64, 0, len(best))}
	for r := range best {
		merged.recs = append(merged.recs, r)
	}
	slices.Sort(merged.recs)
	for _, r := range merged.recs {
		merged.score = append(merged.score, best[r])
		merged.max = max(merged.max, best[r])
	}
	qt.list, qt.ids = merged, found
	qt.reason += "~" + ix.vocab[found[0]]
}

// oneEdit reports whether a and b (which differ) are one insertion,
// deletion, substitution or adjacent transposition apart (optimal string
// alignment distance 1).
func oneEdit(a, b string) bool {
	if a == b {
		return false
	}
	if !isASCIIString(a) || !isASCIIString(b) {
		return oneEditRunes([]rune(a), []rune(b))
	}
	return oneEditBytes(a, b)
}

func oneEditBytes(a, b string) bool {
	la, lb := len(a), len(b)
	if la < lb {
		a, b, la, lb = b, a, lb, la
	}
	if la-lb > 1 {
		return false
	}
	i := 0
	for i < lb && a[i] == b[i] {
		i++
	}
	if la == lb {
		if a[i+1:] == b[i+1:] {
			return true // substitution
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	}
	return a[i+1:] == b[i:] // a has one more
}

func oneEditRunes(a, b []rune) bool {
	la, lb := len(a), len(b)
	if la < lb {
		a, b, la, lb = b, a, lb, la
	}
	if la-lb > 1 {
		return false
	}
	i := 0
	for i < lb && a[i] == b[i] {
		i++
	}
	if i == la {
		return false
	}
	if la == lb {
		if slices.Equal(a[i+1:], b[i+1:]) {
			return true
		}
		return i+1 < la && a[i] == b[i+1] && a[i+1] == b[i] && slices.Equal(a[i+2:], b[i+2:])
	}
	return slices.Equal(a[i+1:], b[i:])
}

// hit2 is one record's integer score and matched terms.
type hit2 struct {
	rec   int32
	score int64
	mask  uint64
}

type acc2 struct {
	score int64
	mask  uint64
}

type scratch2 struct {
	acc     []acc2
	touched []int32
	spare   []int32
}

var scratch2Pool sync.Pool

func (ix *Index2) rank(q *query, k int) []hit2 {
	sc, _ := scratch2Pool.Get().(*scratch2)
	if sc == nil || len(sc.acc) < len(ix.records) {
		sc = &scratch2{acc: make([]acc2, len(ix.records))}
	}
	sc.touched = sc.touched[:0]
	defer func() {
		for _, r := range sc.touched {
			sc.acc[r] = acc2{}
		}
		scratch2Pool.Put(sc)
	}()
	// Common terms are those whose largest weighted contributions add up
	// to less than minScore: they cannot qualify a record alone, so they
	// only add to records a rarer term found. Integer sums make this
	// exact, whatever the order.
	order := make([]int, 0, len(q.terms))
	for i := range q.terms {
		if q.terms[i].list != nil {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(x, y int) int {
		mx, my := q.terms[x].scaledMax(), q.terms[y].scaledMax()
		if mx != my {
			if mx < my {
				return -1
			}
			return 1
		}
		return x - y
	})
	var common uint64
	var bound int64
	for _, i := range order {
		bound += q.terms[i].scaledMax()
		if bound >= minScore {
			break
		}
		common |= 1 << uint(i)
	}
	// Each rare pass appends the records it touches first, in record
	// order, so touched is a series of sorted runs, ending at runs.
	var runs [maxQueryTerms2]int
	nruns := 0
	for _, i := range order {
		if common&(1<<uint(i)) != 0 {
			continue
		}
		t := &q.terms[i]
		bit := uint64(1) << uint(i)
		scores := t.list.score[:len(t.list.recs)]
		before := len(sc.touched)
		for j, r := range t.list.recs {
			a := &sc.acc[r]
			if a.mask == 0 {
				sc.touched = append(sc.touched, r)
			}
			a.score += scale(scores[j], t.weight)
			a.mask |= bit
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
	for _, i := range order {
		if common&(1<<uint(i)) == 0 {
			continue
		}
		t := &q.terms[i]
		bit := uint64(1) << uint(i)
		recs, scores := t.list.recs, t.list.score[:len(t.list.recs)]
		switch {
		case len(recs) == len(ix.records):
			// In every record: record r is posting r.
			for _, r := range sc.touched {
				sc.acc[r].score += scale(scores[r], t.weight)
				sc.acc[r].mask |= bit
			}
		case len(sc.touched)*8 >= len(recs):
			for j, r := range recs {
				if a := &sc.acc[r]; a.mask != 0 {
					a.score += scale(scores[j], t.weight)
					a.mask |= bit
				}
			}
		default:
			if !sorted {
				sc.touched, sc.spare = mergeRuns(sc.touched, sc.spare, runs[:nruns])
				sorted = true
			}
			lookUp2(sc.acc, sc.touched, recs, scores, t.weight, bit)
		}
	}
	n := max(proxCandidates, 4*k)
	hits := make([]hit2, 0, n+1)
	for _, r := range sc.touched {
		a := &sc.acc[r]
		if a.score < minScore {
			continue
		}
		h := hit2{rec: r, score: a.score, mask: a.mask}
		if len(hits) == n && !better2(h, hits[n-1]) {
			continue
		}
		j, _ := slices.BinarySearchFunc(hits, h, func(x, y hit2) int {
			if better2(x, y) {
				return -1
			}
			return 1
		})
		hits = slices.Insert(hits, j, h)
		if len(hits) > n {
			hits = hits[:n]
		}
	}
	if len(q.seq) > 1 || ix.rules.ownHeading || ix.dated != nil {
		for i := range hits {
			if len(q.seq) > 1 {
				hits[i].score += ix.proximity(q, hits[i].rec)
			}
			if ix.rules.ownHeading {
				hits[i].score += ix.ownBonus(q, hits[i].rec)
			}
			if ix.dated != nil && ix.dated[hits[i].rec] {
				hits[i].score = hits[i].score * datedNum / datedDen
			}
		}
		slices.SortFunc(hits, func(x, y hit2) int {
			if better2(x, y) {
				return -1
			}
			return 1
		})
	}
	return hits[:min(len(hits), k)]
}

// lookUp2 adds a posting list's weighted contributions and bit to the
// candidates (in record order) it holds, galloping from one to the next
// as lookUp does.
func lookUp2(acc []acc2, cands, recs []int32, scores []int64, w int64, bit uint64) {
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
			acc[r].score += scale(scores[lo], w)
			acc[r].mask |= bit
		}
		if lo >= len(recs) {
			return
		}
	}
}

func (t *qterm) scaledMax() int64 { return scale(t.list.max, t.weight) }

// scale weighs a contribution by a query weight in quarters.
func scale(c, w int64) int64 {
	if w == 4 {
		return c
	}
	return c * w / 4
}

func better2(x, y hit2) bool {
	if x.score != y.score {
		return x.score > y.score
	}
	return x.rec < y.rec
}

// proximity is the phrase bonus of a record: for each pair of consecutive
// content words of the question (a, b), half the smaller of their largest
// weighted contributions when b directly follows a somewhere in the
// record's title, a heading or its text, a quarter when it follows within
// proxWindow positions. Only records that qualified by BM25 get it, so it
// reorders evidence but never admits any.
func (ix *Index2) proximity(q *query, rec int32) int64 {
	stream := ix.stream[ix.streamAt[rec]:ix.streamAt[rec+1]]
	stream = stream[:min(len(stream), maxProxPositions)]
	seq := q.seq
	if len(seq) > maxQueryTerms2 {
		seq = seq[:maxQueryTerms2]
	}
	var last [maxQueryTerms2]int
	var best [maxQueryTerms2]int // best distance of pair (seq[i], seq[i+1])
	var filter uint64            // bit id%64 of every id in seq: most positions fail it
	for i, j := range seq {
		last[i], best[i] = -1<<30, 1<<30
		for _, id := range q.terms[j].ids {
			filter |= 1 << uint(id&63)
		}
	}
	for p, id := range stream {
		if id < 0 || filter&(1<<uint(id&63)) == 0 {
			continue
		}
		for i, j := range seq {
			if !q.terms[j].has(id) {
				continue
			}
			if i > 0 {
				if d := p - last[i-1]; d > 0 && d < best[i-1] {
					best[i-1] = d
				}
			}
		}
		for i, j := range seq {
			if q.terms[j].has(id) {
				last[i] = p
			}
		}
	}
	var bonus int64
	for i := 0; i+1 < len(seq); i++ {
		a, b := &q.terms[seq[i]], &q.terms[seq[i+1]]
		v := min(a.scaledMax(), b.scaledMax())
		switch {
		case best[i] == 1:
			bonus += v / 2
		case best[i] <= proxWindow:
			bonus += v / 4
		}
	}
	return bonus
}

func (t *qterm) has(id int32) bool {
	for _, x := range t.ids {
		if x == id {
			return true
		}
	}
	return false
}

// Search ranks the corpus against question with askplane.bm25/2 and
// returns the sealed package, shaped, budgeted and identified exactly as
// Index.Search's, with this engine's id.
func (ix *Index2) Search(question string, budget Budget) Package {
	budget = budget.normalize()
	p := Package{
		Protocol:      Protocol,
		Version:       Version,
		SourceVersion: ix.version,
		Engine:        ix.id,
		Question:      question,
		Budget:        budget,
		Records:       []Selected{},
	}
	q := ix.parse(question)
	if ix.rules.synonyms {
		ix.expand(&q, question)
	}
	hits := ix.rank(&q, budget.MaxRecords)
	if ix.rules.defined {
		hits = ix.pinDefined(question, &q, hits, budget.MaxRecords)
	}
	for _, h := range hits {
		if len(p.Records) == budget.MaxRecords || h.score*relativeCut < hits[0].score {
			break
		}
		r := &ix.records[h.rec]
		reasons := make([]string, 0, bits.OnesCount64(h.mask))
		for i := range q.terms {
			if h.mask&(1<<uint(i)) != 0 {
				reasons = append(reasons, q.terms[i].reason)
			}
		}
		slices.Sort(reasons)
		headings := r.Headings
		if headings == nil {
			headings = []string{}
		}
		p.Records = append(p.Records, Selected{
			ID: r.ID, URL: r.URL, Anchor: r.Anchor, Title: r.Title, Headings: headings,
			Excerpt: ix.excerpt(r.Text, &q),
			Score:   formatScore(h.score),
			Reasons: reasons,
			Blocks:  r.Blocks,
			Order:   int(h.rec),
			Page:    pageOf(ix.records, int(h.rec)),
		})
	}
	p.sealMeasured(p.fit())
	return p
}

// excerpt is engine 1's excerpt rule with this engine's terms: the
// sentence matching the most query terms picks the window.
func (ix *Index2) excerpt(text string, q *query) string {
	if len(text) <= MaxExcerptBytes {
		return text
	}
	spans := sentenceSpans(text)
	if len(spans) == 0 {
		return cutRunes(text, MaxExcerptBytes)
	}
	bit := make(map[int32]uint64, len(q.terms))
	for i := range q.terms {
		for _, id := range q.terms[i].ids {
			bit[id] |= 1 << uint(i)
		}
	}
	best, bestN := 0, -1
	var toks []token
	for i, s := range spans {
		toks, _ = analyze(toks[:0], text[s[0]:s[1]], 0)
		var seen uint64
		for _, t := range toks {
			if id, ok := ix.surface[t.form]; ok {
				seen |= bit[id]
			}
		}
		if n := bits.OnesCount64(seen); n > bestN {
			best, bestN = i, n
		}
	}
	from, to := best, best
	if spans[best][1]-spans[best][0] > MaxExcerptBytes {
		return cutRunes(text[spans[best][0]:spans[best][1]], MaxExcerptBytes)
	}
	for to+1 < len(spans) && spans[to+1][1]-spans[from][0] <= MaxExcerptBytes {
		to++
	}
	for from > 0 && spans[to][1]-spans[from-1][0] <= MaxExcerptBytes {
		from--
	}
	return text[spans[from][0]:spans[to][1]]
}
