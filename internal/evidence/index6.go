package evidence

import "github.com/askplane/askplane/internal/corpus"

// EngineID6 names askplane.bm25/6: askplane.bm25/5 with a larger synonym
// table, bm25/5's plus the general words readers type for files,
// folders and what commands do to them that reference pages name
// otherwise ("skip" for exclude, "folder" for directory, "pipe" for
// standard input; see synonyms6.go), and the opening of the page whose
// title a question asks to define put first ("what is rclone bisync";
// see defined6.go). Any change to what it returns needs a new id.
const EngineID6 = "askplane.bm25/6"

// NewIndex6 builds askplane.bm25/6's index of c: bm25/5's, with its
// own table.
func NewIndex6(c *corpus.Corpus) *Index2 {
	ru := rules4
	ru.synonyms = false
	ix := newIndex2(EngineID6, c, ru)
	ix.resolveSynonyms(synonymTable6)
	ix.rules.synonyms = true
	ix.indexDefined()
	ix.rules.defined = true
	return ix
}
