// Package generate turns an evidence package into the answer text an Ask
// response streams, behind one Generator interface. The default,
// Extractive, needs no keys and no network and only ever repeats
// sentences of the evidence, so an answer can never say something the
// cited pages do not. Model puts a language model behind the same
// interface through the typed Ask answer contract (internal/agent) and a
// provider adapter (internal/provider): every citation is checked against
// the package before any of the answer is emitted. With a provider that
// streams and keeps the schema's member order, the contract's "cites"
// arrive first and are checked as soon as they are complete, and the
// answer is then emitted as the model writes it; its whole output is
// still validated against the output schema at the end, and a failure
// there ends the generation with an error after some text was sent.
// Otherwise the whole answer is validated before any of it is emitted.
package generate
