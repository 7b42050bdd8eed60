// Package evidence ranks a verified corpus against a question and records
// the result as an evidence package: what was searched (the corpus
// contentHash), how (the engine id), with which limits, what was selected
// and why. The package, not the answer, is what makes an Ask response
// reviewable and replayable: the same corpus, engine, question and budget
// always give the same bytes, so the same context_id.
//
// Everything here is deterministic on purpose: no map iteration decides
// an order, floating-point sums run in a fixed order, and scores leave the
// package as fixed-precision decimal strings, so two machines (or two
// releases that keep the engine id) produce identical packages.
//
// Search runs for every question, so its path is also built for speed:
// BM25 contributions are computed once per index, terms too common to
// qualify a record alone score only records a rarer term found, and the
// wire and canonical JSON are written directly. None of that may change
// a byte: reference_test.go keeps the plain engine, and the differential
// tests hold the fast one to it.
//
// Two engines are kept, by id (New builds either): askplane.bm25/1
// (Index), the first, frozen for replaying its packages, and
// askplane.bm25/2 (Index2), the default, which stems with the Snowball
// stemmer of the corpus language, matches code identifiers whole and in
// parts, weighs stopwords low instead of dropping them, boosts title, URL
// path and headings, rewards query words adjacent in order and corrects
// one-letter typos, with integer scores throughout.
package evidence
