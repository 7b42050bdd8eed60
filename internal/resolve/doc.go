// Package resolve is askplane's local answer plane: it answers a question
// from a verified agentskit.chat.knowledge v1 artifact and decides whether
// the result is served locally or escalated to the Ask backend.
//
// It follows the AgentsKit Chat v1 resolver and fallback rules so that a
// question gets the same envelope from the Go sidecar as from the
// TypeScript widget. The shared vectors in
// testdata/conformance/resolver.json pin that behaviour for both.
//
// Nothing here performs I/O. Matching is exact equality of normalized keys:
// there is no prefix, token, fuzzy or semantic matching, by design.
package resolve
