// Package provider is the seam between askplane's typed generation
// contract (internal/contract) and the model providers: provider-neutral
// Request, Response, Usage, Profile and Client types, the stable *Error,
// and the shared transport control every adapter calls through. The
// adapters live in subpackages (openai — also OpenAI-compatible servers —,
// anthropic, deepseek) and providers.Open builds one from a Config.
//
// # Why net/http and not the vendor SDKs
//
// The transport contract is the product here, and the SDKs each make the
// opposite choice on most of it:
//   - No hidden retries. The SDKs retry 429 and 5xx (and connection
//     errors) by default, so one Ask could be billed twice and a rate
//     limit hidden from the sidecar's own limiter. Here a 429 or 5xx is an
//     *Error with Retry-After advice and exactly one request was sent;
//     HTTP/2 (whose transport may re-send after GOAWAY) is disabled and
//     request bodies carry no GetBody, so net/http cannot replay either.
//   - No redirects. A redirect can move the key or the prompt to another
//     origin; a 3xx is PROVIDER_REDIRECT_REFUSED.
//   - HTTPS only, except a literal loopback IP for tests and local
//     servers (ParseEndpoint), checked at config time, before any dial.
//   - Every size bounded: request body, response body, SSE line, SSE
//     event, whole stream and event count (Limits), with hard maxima.
//   - A monotonic deadline on every wait (dial, headers, each body read),
//     with the caller's cancellation reported first (PROVIDER_CANCELLED
//     beats PROVIDER_DEADLINE_EXCEEDED).
//   - A Credential scoped to one attempt: read from an environment
//     variable at config time, added to the headers of the one outgoing
//     request, and redacted by every printing and encoding path.
//   - Public-safe errors and logs: fixed messages and stable codes, never
//     a key, a prompt, an output or a provider error body.
//   - A stream is only a result once it completed properly: the per
//     provider Accumulator refuses truncated, reordered, duplicated or
//     replaced-terminal streams and cross-checks the terminal event
//     against the deltas.
//
// Three SDKs would also mean three dependency trees, three retry and
// timeout models and three ways to leak a key in a panic message, for
// what is one JSON POST and one SSE reader per provider.
package provider
