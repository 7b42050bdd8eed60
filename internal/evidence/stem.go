package evidence

import (
	"strings"

	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/arabic"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/irish"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/tamil"
	"github.com/blevesearch/snowballstem/turkish"
)

// snowballStemmers are the Snowball project's stemmers (generated Go, from
// github.com/blevesearch/snowballstem) by primary language subtag, as
// Hugo sites name their languages ("en", "pt-br", "nb"). The table is
// part of askplane.bm25/2's identity: adding a language changes what a
// corpus in it returns, so it needs a new engine id.
var snowballStemmers = map[string]func(*snowball.Env) bool{
	"ar": arabic.Stem,
	"da": danish.Stem,
	"de": german.Stem,
	"en": english.Stem,
	"es": spanish.Stem,
	"fi": finnish.Stem,
	"fr": french.Stem,
	"ga": irish.Stem,
	"hu": hungarian.Stem,
	"it": italian.Stem,
	"nb": norwegian.Stem,
	"nl": dutch.Stem,
	"nn": norwegian.Stem,
	"no": norwegian.Stem,
	"pt": portuguese.Stem,
	"ro": romanian.Stem,
	"ru": russian.Stem,
	"sv": swedish.Stem,
	"ta": tamil.Stem,
	"tr": turkish.Stem,
}

// stemmerFor returns the stemmer of a corpus language, or nil (no
// stemming) for a language Snowball does not cover.
func stemmerFor(lang string) func(string) string {
	lang = strings.ToLower(lang)
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	stem := snowballStemmers[lang]
	if stem == nil {
		return nil
	}
	return func(w string) (out string) {
		defer func() {
			// A generated stemmer is not expected to panic; if one does on
			// some odd input, the word is kept as it is (the same on
			// every run, so determinism holds).
			if recover() != nil {
				out = w
			}
		}()
		env := snowball.NewEnv(w)
		stem(env)
		if s := env.Current(); s != "" {
			return s
		}
		return w
	}
}
