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
package evidence
