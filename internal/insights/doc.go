// Package insights records how the questions a site is asked end, without
// keeping what readers typed, and reports the coverage gaps: clusters of
// questions the docs did not answer well, largest first.
//
// A question is recorded as its key (the sorted stems of its content
// terms, by the evidence engine's tokenizer and stemmer), how it ended,
// its language, the pages it cited or that came closest, and a keyed hash
// of the reader under a key that rotates each UTC day. A stem the site's
// own corpus does not hold is recorded as a keyed hash, and its stem is
// written only once at least MinCrowd distinct readers used it within the
// window ("privacy by crowd"); the report counts the others as rare
// terms. The question's text, the client address and the subject are
// never stored.
package insights
