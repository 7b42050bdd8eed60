package evidence

import (
	"math"
	"strings"

	"github.com/askplane/askplane/internal/corpus"
)

// EngineID2 names askplane.bm25/2: BM25 over Snowball-stemmed, code-aware
// terms (identifiers match whole and in parts), stopwords weighed low
// rather than dropped, title, URL path and heading boosts, a bonus for
// query words adjacent or near in order, and one-edit typo tolerance for
// words missing from the corpus. Every score is an integer, so sums do
// not depend on order and ties fall to corpus order. Any change to what
// it returns needs a new id.
const EngineID2 = "askplane.bm25/2"

// Field weights of askplane.bm25/2, in quarters.
const (
	title2Weight4   = 8 // ×2
	url2Weight4     = 6 // ×1.5
	heading2Weight4 = 6 // ×1.5
	text2Weight4    = 4 // ×1

	// maxFuzzyRunes bounds the terms typo tolerance compares.
	maxFuzzyRunes = 40
)

// Index2 is askplane.bm25/2's index of one corpus version; like Index it
// is immutable once built and safe for concurrent searches.
type Index2 struct {
	id      string // EngineID2, or EngineID3 (the same index over other records)
	version string
	lang    string
	records []corpus.Record
	stem    func(string) string // nil: the language has no stemmer
	terms   map[string]int32    // stemmed form → term id
	surface map[string]int32    // lowercased form → term id (memoizes stemming)
	vocab   []string            // term id → stemmed form
	posts   []posts2            // per term id
	dels    []delEntry          // typo index (see delEntry)
	// stream holds each record's parts' term ids by position (title,
	// headings, text, with -1 between fields and for dropped parts):
	// record i's are stream[streamAt[i]:streamAt[i+1]].
	streamAt []int32
	stream   []int32
	// rules are the engine's weights and query rules (rules2 for
	// askplane.bm25/2 and /3).
	rules rules
	// own holds each record's own heading's term ids (its deepest
	// heading, or its title), for engines whose rules weigh it:
	// record i's are own[ownAt[i]:ownAt[i+1]].
	ownAt []int32
	own   []int32
	// syn maps a stemmed word or two-word phrase to the ids of its
	// synonyms in this corpus, for engines whose rules expand questions.
	syn map[string][]synonym
	// dated marks the records of dated or news pages, for engines whose
	// rules weigh them down.
	dated []bool
	// defined maps a page's title (and the title without the product's
	// name most titles open with) to the page's opening record, for
	// engines that put the page a question asks to define first.
	defined map[string]int32
}

// rules are what distinguishes engines built on Index2: field weights in
// quarters and the query-time rules a later engine adds. The zero values
// of the later fields are askplane.bm25/2's behaviour.
type rules struct {
	title, url, heading, text int32
	// ownHeading, when set, is the bonus a candidate gets for question
	// words its own heading names (see ownBonus).
	ownHeading bool
	// synonyms, when set, expands a question's words with their
	// synonyms (see synonyms4.go).
	synonyms bool
	// dated, when set, weighs down the records of dated or news pages
	// (see isDatedPath).
	dated bool
	// defined, when set, puts first the opening of the page whose title
	// a question asks to define (see pinDefined).
	defined bool
}

// rules2 are askplane.bm25/2's (and /3's) rules.
var rules2 = rules{title: title2Weight4, url: url2Weight4, heading: heading2Weight4, text: text2Weight4}

// posts2 lists the records containing a term, in record order, with the
// term's BM25 contribution to each in micro-units.
type posts2 struct {
	recs  []int32
	score []int64
	max   int64
}

var _ Engine = (*Index2)(nil)

// NewIndex2 builds askplane.bm25/2's index of c, stemming with the
// Snowball stemmer of c.Language (none for a language it lacks).
func NewIndex2(c *corpus.Corpus) *Index2 { return newIndex2(EngineID2, c, rules2) }

func newIndex2(id string, c *corpus.Corpus, ru rules) *Index2 {
	ix := &Index2{
		id: id, version: c.Version, lang: c.Language, records: c.Records,
		stem: stemmerFor(c.Language), rules: ru,
		terms: map[string]int32{}, surface: map[string]int32{},
		streamAt: make([]int32, 0, len(c.Records)+1),
	}
	var raw [][]rawPosting
	lens := make([]int64, len(c.Records))
	var total int64
	counts := map[int32]int32{}
	var toks []token
	for i := range c.Records {
		r := &c.Records[i]
		clear(counts)
		var n int64
		base := int32(len(ix.stream))
		ix.streamAt = append(ix.streamAt, base)
		var pos int32
		add := func(text string, w int32, inStream bool) {
			from := pos
			toks, pos = analyze(toks[:0], text, pos)
			n += int64(pos-from) * int64(w)
			if inStream {
				// The field's positions, and a gap after it, so no phrase
				// spans two fields.
				for int32(len(ix.stream)) < base+pos+1 {
					ix.stream = append(ix.stream, -1)
				}
			}
			for _, t := range toks {
				id := ix.termID(t.form)
				counts[id] += w
				if inStream && t.kind == kindPart {
					ix.stream[base+t.pos] = id
				}
			}
			if inStream {
				pos++
			} else {
				pos = from
			}
		}
		add(r.Title, ru.title, true)
		add(urlPath(r.URL), ru.url, false)
		for _, h := range r.Headings {
			add(h, ru.heading, true)
		}
		add(r.Text, ru.text, true)
		for id, tf := range counts {
			for int(id) >= len(raw) {
				raw = append(raw, nil)
			}
			raw[id] = append(raw[id], rawPosting{rec: int32(i), tf2: tf})
		}
		lens[i] = n
		total += n
	}
	ix.streamAt = append(ix.streamAt, int32(len(ix.stream)))
	for len(raw) < len(ix.vocab) {
		raw = append(raw, nil)
	}
	avg := 1.0
	if len(lens) > 0 && total > 0 {
		avg = float64(total) / float64(len(lens))
	}
	norm := make([]float64, len(lens))
	for i, n := range lens {
		norm[i] = k1 * float64((1-b)+float64(b*float64(n))/avg)
	}
	nrec := float64(len(c.Records))
	npost := 0
	for _, list := range raw {
		npost += len(list)
	}
	allRecs, allScores := make([]int32, npost), make([]int64, npost)
	ix.posts = make([]posts2, len(raw))
	at := 0
	for id, list := range raw {
		// counts is a map, so a record's terms were appended in no fixed
		// order, but each list got its records in record order.
		ps := &ix.posts[id]
		ps.recs, ps.score = allRecs[at:at+len(list):at+len(list)], allScores[at:at+len(list):at+len(list)]
		at += len(list)
		df := float64(len(list))
		idf := math.Log(1 + (nrec-df+0.5)/(df+0.5))
		for j, p := range list {
			ps.recs[j] = p.rec
			tf := float64(p.tf2) / 4
			s := int64(math.Round(float64(float64(idf*float64(tf*(k1+1)))/float64(tf+norm[p.rec])) * scoreScale))
			ps.score[j] = s
			ps.max = max(ps.max, s)
		}
		raw[id] = nil
	}
	ix.dels = buildDeletions(ix.vocab)
	if ru.ownHeading {
		ix.indexOwnHeadings()
	}
	if ru.synonyms {
		ix.indexSynonyms()
	}
	if ru.dated {
		ix.indexDated()
	}
	return ix
}

// termID returns the id of a lowercased form while indexing, adding its
// stem to the vocabulary if it is new.
func (ix *Index2) termID(form string) int32 {
	if id, ok := ix.surface[form]; ok {
		return id
	}
	st := ix.stemOf(form)
	id, ok := ix.terms[st]
	if !ok {
		id = int32(len(ix.vocab))
		ix.vocab = append(ix.vocab, st)
		ix.terms[st] = id
	}
	ix.surface[strings.Clone(form)] = id
	return id
}

// lookup returns the id of a lowercased form at query time, and its stem.
func (ix *Index2) lookup(form string) (int32, string, bool) {
	if id, ok := ix.surface[form]; ok {
		return id, ix.vocab[id], true
	}
	st := ix.stemOf(form)
	id, ok := ix.terms[st]
	return id, st, ok
}

func (ix *Index2) stemOf(form string) string {
	if ix.stem == nil {
		return form
	}
	return ix.stem(form)
}

// urlPath is the path of a record's URL, the part that names the page
// (/functions/collections/where/), without scheme, host or query.
func urlPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		} else {
			u = ""
		}
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	// Each path segment is its own compound (build-drafts, getremote);
	// the whole path is not a term.
	return strings.ReplaceAll(u, "/", " ")
}

// ID is the engine id recorded in packages.
func (ix *Index2) ID() string { return ix.id }

// SourceVersion is the contentHash of the indexed corpus.
func (ix *Index2) SourceVersion() string { return ix.version }

// Len is the number of indexed records.
func (ix *Index2) Len() int { return len(ix.records) }
