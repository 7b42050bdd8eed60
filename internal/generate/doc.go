// Package generate turns an evidence package into the answer text an Ask
// response streams, behind one Generator interface. The default,
// Extractive, needs no keys and no network and only ever repeats
// sentences of the evidence, so an answer can never say something the
// cited pages do not. Model puts a language model behind the same
// interface through the typed Ask answer contract (internal/agent) and a
// provider adapter (internal/provider): the model's whole answer is
// validated against the output schema and every citation checked against
// the package before any of it is emitted.
package generate
