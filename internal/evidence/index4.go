package evidence

import (
	"strings"

	"github.com/askplane/askplane/internal/corpus"
)

// EngineID4 names askplane.bm25/4: askplane.bm25/3's analysis, chunking
// and packages, ranked so that the section which answers wins more
// often. A title weighs ×3 and a heading ×2 (bm25/3: ×2 and ×1.5); a
// candidate whose own heading (its deepest heading, or the page title
// for a page's intro) names what is asked gets a bonus (ownBonus); a
// question's how-to verbs and common doc words are also found in their
// synonyms (synonyms4.go); and records of dated or news pages (a blog,
// release notes, a changelog) weigh 7/8. Any change to what it returns needs a new id.
const EngineID4 = "askplane.bm25/4"

// Rules of askplane.bm25/4.
const (
	title4Weight4   = 12 // ×3
	heading4Weight4 = 8  // ×2
	// ownDiv: a question word the own heading names adds 1/ownDiv of
	// its largest weighted contribution, scaled by the share of the
	// heading's words the question holds.
	ownDiv = 8
	// datedNum/datedDen weigh a dated page's record.
	datedNum, datedDen = 7, 8
)

var rules4 = rules{
	title: title4Weight4, url: url2Weight4, heading: heading4Weight4, text: text2Weight4,
	ownHeading: true, synonyms: true, dated: true,
}

// NewIndex4 builds askplane.bm25/4's index of c, a corpus decoded with
// the askplane.chunk/2 rules (as bm25/3's).
func NewIndex4(c *corpus.Corpus) *Index2 { return newIndex2(EngineID4, c, rules4) }

// indexOwnHeadings records each record's own heading's term ids: its
// deepest heading, or its title when it has none (a page's intro).
func (ix *Index2) indexOwnHeadings() {
	ix.ownAt = make([]int32, 0, len(ix.records)+1)
	var toks []token
	for i := range ix.records {
		r := &ix.records[i]
		ix.ownAt = append(ix.ownAt, int32(len(ix.own)))
		h := r.Title
		if n := len(r.Headings); n > 0 {
			h = r.Headings[n-1]
		}
		toks, _ = analyze(toks[:0], h, 0)
		for _, t := range toks {
			if id, _, ok := ix.lookup(t.form); ok {
				ix.own = append(ix.own, id)
			}
		}
	}
	ix.ownAt = append(ix.ownAt, int32(len(ix.own)))
}

// ownBonus is what a candidate's own heading adds: for each content word
// of the question it names (or a synonym or correction of it), 1/ownDiv
// of the word's largest weighted contribution, all scaled by the share
// of the heading's terms the question holds. So among a page's sections
// the one whose heading is what was asked ("Hide feedback on a single
// page" for "hide feedback on a page") outranks one that only uses the
// words, and a long heading that shares one word with the question gains
// little. A page's intro, whose own heading is the title, gains only
// when the title names more than half the question's content words
// ("knowledge artifact", "where is the sidecar configuration page"): the
// title is every section's too, and a question asking more than it
// ("the steps of the quickstart") is answered by the sections.
func (ix *Index2) ownBonus(q *query, rec int32) int64 {
	own := ix.own[ix.ownAt[rec]:ix.ownAt[rec+1]]
	if len(own) == 0 {
		return 0
	}
	covered := 0
	for _, id := range own {
		for i := range q.terms {
			if q.terms[i].list != nil && q.terms[i].has(id) {
				covered++
				break
			}
		}
	}
	if covered == 0 {
		return 0
	}
	var named int64
	asked, hits := 0, 0
	for i := range q.terms {
		t := &q.terms[i]
		if t.list == nil || t.stop {
			continue
		}
		hit := false
		for _, id := range own {
			if t.has(id) {
				named += t.scaledMax()
				hit = true
				break
			}
		}
		if !t.syn {
			asked++
			if hit {
				hits++
			}
		}
	}
	if len(ix.records[rec].Headings) < 2 && 2*hits <= asked {
		return 0 // an intro whose title names half the question or less
	}
	return named * int64(covered) / (int64(len(own)) * ownDiv)
}

// isDatedPath reports whether a record's URL path names a dated or news
// page: a segment that is a year (/blog/2024/…), or a blog, news,
// release-notes or changelog folder. Such pages announce what changed
// and repeat the documentation's words, but the documentation itself is
// what answers "how do I". No question word lifts the weight: one that
// names a release or a blog is no sign it wants one ("update the
// submodule to a new release", "my blog lost its feed" both want the
// documentation).
func isDatedPath(u string) bool {
	for _, seg := range strings.Fields(urlPath(u)) {
		switch strings.ToLower(seg) {
		case "blog", "blogs", "news", "changelog", "changelogs", "releases", "release-notes", "releasenotes", "announcements":
			return true
		}
		if len(seg) == 4 && (seg[:2] == "19" || seg[:2] == "20") && isDigit(seg[2]) && isDigit(seg[3]) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// indexDated marks the records of dated pages.
func (ix *Index2) indexDated() {
	ix.dated = make([]bool, len(ix.records))
	for i := range ix.records {
		ix.dated[i] = isDatedPath(ix.records[i].URL)
	}
}
