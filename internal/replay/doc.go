// Package replay rebuilds the evidence package a review link names, from
// a retained corpus version and a retained engine, and proves it is the
// same package: same context_id, and, across engines, the same complete
// canonical bytes. Nothing about the answer is stored; what is retained
// is the source (internal/store's Sources, by content hash) and the
// engine (internal/engines, in the binary).
//
// # Modes
//
// A recipe that names its engine replays with exactly that engine
// ("explicit-engine"). A recipe with a context_id but no engine (links
// from other producers, or a future link format) is historical
// ("historical-compatible"): the engines permitted for the source are
// tried in registry order, at most two, each result kept only if its
// context_id is the expected one; two matches must have identical
// canonical bytes, or the replay is ambiguous. The origin of a historical
// package stays unknown (null): a match proves the bytes, not who made
// them first. A recipe with neither replays with the source's default
// engine ("current-default").
//
// # Limits
//
// One allowance per replay, shared by every attempt and reserved before
// the I/O it pays for: attempts, store operations, bytes transferred (each
// source read once) and bytes decoded (every build, including a second
// engine's), and one deadline. Work that finishes after the deadline is
// discarded, never returned. Every refusal is an *Error with a stable
// Code and no evidence.
package replay
