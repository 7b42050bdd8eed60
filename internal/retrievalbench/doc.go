// Package retrievalbench measures retrieval quality on a built Hugo site
// against a labelled question set, for several systems side by side in
// one run:
//
//   - each evidence engine's records (evidence.Engine.Search, the budget
//     the sidecar uses), mapped to their pages;
//   - the pages the answer cites: the engine behind the real Ask
//     pipeline (internal/sidecar over httptest, POST /v1/ask, the NDJSON
//     cite event) for the engine the sidecar serves, ask.Grounded with
//     the same extractive generator for any other;
//   - Pagefind, indexed and searched from Node (pagefind.mjs), with the
//     same question strings.
//
// It reports hit@1, hit@3, hit@5 and MRR per system, and counts what is
// wrong with the extractive answers themselves: code the cited chunk had
// but the answer lost its fence for, front matter in an answer, answers
// cut inside a code block or inside a template tag.
//
// A question file (testdata/retrieval/*.json) is
//
//	{"site": "exampleSite", "language": "en", "about": "…",
//	 "questions": [{"q": "…", "pages": ["/docs/…/"], "kind": "howto"}]}
//
// pages are URL paths of the built site that truly answer q, the one a
// reader should open first first; kind is one of Kinds. Labels are written
// from the pages, never from any system's results.
//
// askplane-retrievalbench (sidecar/cmd) is the command, and
// scripts/bench-retrieval.sh builds the sites and runs it.
package retrievalbench
