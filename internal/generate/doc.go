// Package generate turns an evidence package into the answer text an Ask
// response streams, behind one Generator interface. The default,
// Composer ("askplane.extractive/2"), needs no keys and no network and
// only ever repeats sentences, rows and code of the evidence (with a few
// fixed words of its own: "There are two ways (…):", "The steps (…):",
// "See also …", the line saying nothing answers well), so an answer can
// never say something the cited pages do not; it shapes them by what is
// asked and what the evidence is (composer.go, shapes.go). Extractive
// ("askplane.extractive/1") is the generator it replaced, kept for
// answers pinned to it. Model puts a language model behind the same
// interface through the typed Ask answer contract (internal/contract) and a
// provider adapter (internal/provider): every citation is checked against
// the package before any of the answer is emitted. With a provider that
// streams and keeps the schema's member order, the contract's "cites"
// arrive first and are checked as soon as they are complete, and the
// answer is then emitted as the model writes it; its whole output is
// still validated against the output schema at the end, and a failure
// there ends the generation with an error after some text was sent.
// Otherwise the whole answer is validated before any of it is emitted.
package generate
