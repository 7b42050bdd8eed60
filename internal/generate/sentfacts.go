package generate

import "strings"

// The Composer scores the same records' sentences for question after
// question, and most of what it reads of a sentence does not depend on
// the question: its lower-cased and plain forms and whether it leans on
// what came before, closes a guide, sends the reader elsewhere or
// defines something. Lower-casing and scanning each sentence for those
// phrases was about half of composing an answer; textFacts keeps them
// per sentence text, and sentencesOf keeps a block's split into
// sentences, both bounded (textcache.go). Every field is
// exactly what the function it names returns for the text, so answers
// are byte for byte those computed without the cache.

// textFacts are the question-independent facts of one sentence.
type textFacts struct {
	lower string // strings.ToLower(s)
	plain string // plain(s)
	// quotable(s), leansLower(lower), anaphoric(lower), pointer(lower),
	// definitional(lower), namesPlace(s), and whether lower holds a
	// closing phrase.
	quotable, leans, anaphoric, pointer, definitional, place, closing bool
}

var (
	facts     = newTextCache[*textFacts]()
	sentenceS = newTextCache[[]string]()
)

// factsOf returns s's facts. Callers must not modify them.
func factsOf(s string) *textFacts {
	return facts.of(s, func(s string) *textFacts {
		l := strings.ToLower(s)
		f := &textFacts{
			lower: l, plain: plain(s), quotable: quotable(s),
			leans: leansLower(l), anaphoric: anaphoric(l), pointer: pointer(l), definitional: definitional(l),
			place: namesPlace(s),
		}
		for _, d := range closing {
			if strings.Contains(l, d) {
				f.closing = true
				break
			}
		}
		return f
	})
}

// sentencesOf returns sentences(text). Callers must not modify the slice.
func sentencesOf(text string) []string {
	return sentenceS.of(text, sentences)
}
