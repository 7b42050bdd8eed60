// Package ecmajson is JSON with ECMAScript semantics: JSON.parse-compatible
// reading and JSON.stringify-compatible writing.
//
// The askplane protocols are defined by what a JavaScript client does with
// the bytes: it parses them with JSON.parse, and it hashes or compares what
// JSON.stringify writes. encoding/json differs from both in ways that change
// what a payload means or which bytes are hashed: it matches object keys
// case-insensitively, cannot tell null from an absent member, has no depth
// bound, escapes <, >, &, U+2028 and U+2029, and formats numbers its own
// way. This package reads and writes exactly as ECMAScript does, with two
// documented differences a Go string forces or a server needs: lone
// surrogate escapes and invalid UTF-8 become U+FFFD, and nesting is bounded
// by MaxDepth.
package ecmajson
