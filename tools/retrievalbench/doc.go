// Package retrievalbench measures retrieval quality on a built Hugo site
// against a labelled question set, for several systems side by side in
// one run:
//
//   - each evidence engine's records (evidence.Engine.Search, the budget
//     the sidecar uses), mapped to their pages;
//   - the pages each answer generator (Generators: today's extractive/2,
//     the sidecar's default, beside extractive/1, the generator it
//     replaced) cites, and its answers,
//     through answer.Grounded over each engine's evidence;
//   - the real Ask pipeline for the engine the sidecar serves
//     (internal/sidecar over httptest, POST /v1/ask, the NDJSON cite
//     event), with how many of its answers each generator's equal;
//   - Pagefind, indexed and searched from Node (pagefind.mjs), with the
//     same question strings.
//
// It reports hit@1, hit@3, hit@5 and MRR per system; for the systems
// that answer, the share of answers holding every nugget of their
// question (overall and per kind), the share of nuggets held and the
// median answer length in characters; and it counts what is wrong with
// the answers themselves: code the cited chunk had but the answer lost
// its fence for, front matter in an answer, answers cut inside a code
// block or inside a template tag.
//
// A question file (testdata/retrieval/*.json) is
//
//	{"site": "exampleSite", "language": "en", "about": "…",
//	 "questions": [{"q": "…", "pages": ["/docs/…/"], "kind": "howto",
//	                "nuggets": [["hugo mod get -u", "hugo mod get"], ["go.mod"]]}]}
//
// pages are URL paths of the built site that truly answer q, the one a
// reader should open first first; kind is one of Kinds. nuggets (see
// Nugget) are what a useful answer must say: 1 to 3 of them, each a list
// of alternative short strings from the docs, none already in q; an
// answer holds a nugget when it contains any alternative, ignoring case,
// backticks and runs of white space. Labels and nuggets are written from
// the pages, never from any system's results.
//
// askplane-retrievalbench (sidecar/cmd) is the command, and
// scripts/bench-retrieval.sh builds the sites and runs it.
package retrievalbench
