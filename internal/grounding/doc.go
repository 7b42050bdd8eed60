// Package grounding is what answering one question takes and gives, shared
// by the live endpoint (internal/ask), the durable one (internal/askrun)
// and what they report to (internal/insights): the Query retrieval and
// generation see, the Sources an answer may cite, the Retriever and
// Generator contracts and their Result, how the question ended
// (Outcome), and Grounded, which implements both contracts over one
// evidence engine and a generate.Generator.
//
// It holds no HTTP and no state: the endpoints decide what reaches it.
package grounding
