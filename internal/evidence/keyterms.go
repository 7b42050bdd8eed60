package evidence

import (
	"slices"
	"strings"
)

// KeyTerm is one content term of a question as an engine reads it: its
// stem, and whether the engine's corpus holds that stem.
type KeyTerm struct {
	Stem  string
	Known bool
}

// MaxKeyTerms bounds KeyTerms: the first this many distinct terms of a
// question count, as the engines' own query bound does.
const MaxKeyTerms = maxQueryTerms

// KeyTerms returns the distinct stems of question's content terms (the
// engines' tokenizer: NFKC, lowercasing, stopwords dropped; the corpus
// language's Snowball stemmer), sorted, each marked Known when the
// corpus e indexes holds it. An engine that keeps no vocabulary
// (askplane.bm25/1) marks none Known and stems none.
func KeyTerms(e Engine, question string) []KeyTerm {
	ix, _ := e.(*Index2)
	seen := map[string]bool{}
	var out []KeyTerm
	for _, t := range Terms(question) {
		if len(seen) == MaxKeyTerms {
			break
		}
		stem, known := t, false
		if ix != nil {
			_, stem, known = ix.lookup(t)
		}
		if seen[stem] {
			continue
		}
		seen[stem] = true
		out = append(out, KeyTerm{Stem: strings.Clone(stem), Known: known})
	}
	slices.SortFunc(out, func(a, b KeyTerm) int { return strings.Compare(a.Stem, b.Stem) })
	return out
}
