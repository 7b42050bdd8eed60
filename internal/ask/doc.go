// Package ask is the sidecar's Ask endpoint: an http.Handler for
// POST /v1/ask that answers a question grounded in the site's own corpus
// and streams the answer as agentskit.chat.ask v1 NDJSON events.
//
// The handler follows the reference pipeline (ADR-0026) in order: request
// id, request deadline, method, content type, then the site's rules as
// internal/access's wrappers (the address's budget, authentication,
// corpus/persona hints, the subject's budget: before the body is read), bounded
// body, strict request, session load, history merge, retrieval, source
// validation, then the stream: text deltas, exactly one cite tool event
// and done, or a single terminal error event.
//
// Authority never comes from the request: the site, its corpus and its
// limits are the server's config (protocol.BackendSite), the subject
// comes from the access.Authenticator (checked once where the config is
// loaded: access.Checked). Dependencies are small interfaces
// (Gate declared here; answer.Retriever, answer.Generator, session.Store,
// access.Authenticator, access.Limiter, metrics.Sink), so tests and the
// command can plug in their own.
//
// This package is the live answer only. A model site's durable answer is
// internal/askrun's, reached through Config.Durable with the admitted
// Turn; refusals are written by internal/apierr.
package ask
