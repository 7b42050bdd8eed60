package evidence

import "github.com/askplane/askplane/internal/corpus"

// EngineID5 names askplane.bm25/5: askplane.bm25/4 (its analysis,
// chunking, weights, own-heading bonus and dated pages) with a larger
// synonym table, bm25/4's plus the general words readers type for parts
// of a page's interface that documentation names otherwise ("top bar"
// for navbar, "left nav" for sidebar, "popup" for popover; see
// synonyms5.go). Any change to what it returns needs a new id.
const EngineID5 = "askplane.bm25/5"

// NewIndex5 builds askplane.bm25/5's index of c, a corpus decoded with
// the askplane.chunk/2 rules (as bm25/3's and /4's). Its rules are
// bm25/4's; only the table the synonyms are resolved from differs. The
// rules type and newIndex2 are bm25/4's sources (index2.go), bound by
// its manifest, so the table is chosen here rather than by a field of
// rules: newIndex2 is asked for no synonyms, then synonymTable5 is
// resolved and the expansion switched on.
func NewIndex5(c *corpus.Corpus) *Index2 {
	ru := rules4
	ru.synonyms = false // newIndex2 would resolve bm25/4's table
	ix := newIndex2(EngineID5, c, ru)
	ix.resolveSynonyms(synonymTable5)
	ix.rules.synonyms = true
	return ix
}
