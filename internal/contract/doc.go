// Package contract is askplane's typed generation contract: a model call is
// described by Go types for its input and output, and everything the
// model sees or returns is checked against JSON Schemas derived from
// those types before it crosses the provider boundary.
//
// The lifecycle has three steps, each failing closed and early:
//
//  1. Define derives JSON Schema 2020-12 documents for In and Out,
//     canonicalises them with RFC 8785 (JCS) and pins their SHA-256
//     digests in SchemaRefs. A change to the Go types changes a digest,
//     which the golden test in this package turns into a reviewed diff.
//  2. Definition.Register installs both schemas in a RegistryBuilder
//     (both or neither); RegistryBuilder.Build compiles every schema with
//     a real 2020-12 validator and returns an immutable Registry.
//  3. Definition.Bind checks, at startup, that the registry holds exactly
//     the pinned schemas and that the provider profile can accept the
//     model-visible output schema, and returns an Agent.
//
// Per request, Agent.PrepareRequest bounds and validates the typed input
// and builds a provider.Request carrying the model-visible output schema
// (the output schema minus the bounds providers' constrained decoders
// refuse); Agent.Decode bounds the model's text, validates it against the
// full output schema and only then decodes it, strictly, into Out. Errors are *Error values with a stable Code; no
// message ever contains input or output text.
//
// The package is provider-neutral: it knows provider.Request, Response
// and Profile, never a vendor API.
package contract
