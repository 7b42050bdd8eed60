// Package protocol holds askplane's wire contracts: the AgentsKit Chat v1
// site config, knowledge artifact, answer envelope, Ask request and Ask
// NDJSON events, with their limits, diagnostics, key normalization, canonical
// bytes and content hash.
//
// Everything here is pure: no I/O, no clocks, no globals that change. The
// contracts are byte-compatible with the AgentsKit TypeScript implementation,
// so the rules follow ECMAScript semantics where Go's defaults differ:
// lengths count UTF-16 code units, whitespace is the ECMAScript set, and
// JSON is read as JSON.parse reads it and written as JSON.stringify writes
// it (package ecmajson), so object keys match case-sensitively and strings
// are escaped the way JSON.stringify escapes them.
//
// Decoders never echo the rejected payload in a diagnostic: a message says
// what rule failed, never what the input was.
package protocol
