// Package resolve is askplane's local answer plane: it answers a question
// from a verified agentskit.chat.knowledge v1 artifact, decides whether the
// result is served locally or escalated to the Ask backend, turns backend
// output into the same answer envelope, projects envelopes to ordered
// assistant content, and guards choice submissions with session-scoped
// reservations.
//
// It follows the AgentsKit Chat v1 resolver, adapter and reservation rules
// so that a question gets the same envelope from the Go sidecar as from the
// TypeScript widget. The shared vectors in
// testdata/conformance/resolver.json pin that behaviour for both.
//
// Nothing here performs I/O. Matching is exact equality of normalized keys:
// there is no prefix, token, fuzzy or semantic matching, by design.
package resolve
