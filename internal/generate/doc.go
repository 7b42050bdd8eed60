// Package generate turns an evidence package into the answer text an Ask
// response streams. Generators sit behind one interface so a model-backed
// one can replace the default later; the default, Extractive, needs no
// keys and no network and only ever repeats sentences of the evidence, so
// an answer can never say something the cited pages do not.
package generate
