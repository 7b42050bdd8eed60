// Package engines is the registry of the evidence engines this binary
// retains: each one's id, the manifest that binds it to its exact Go
// source files, and how to build it over a corpus version. Replay
// (internal/replay) rebuilds a package only with an engine listed here;
// the Ask handler and MCP search with Current.
//
// # Identity
//
// An engine's id is the name packages and review links already carry
// ("askplane.bm25/1"): it was published before manifests existed, and a
// link must keep naming the same engine. Beside it, each engine has a
// manifest, committed in manifests/<id>.json, listing every source file
// whose bytes decide what the engine returns (path from the module root,
// length, SHA-256), with the Unicode version of the tables the tokenizer
// reads. Its digest, "sha256:" + hex SHA-256 of the manifest's RFC 8785
// (JCS) form, is what Digest reports and the catalogue publishes: two
// binaries with the same engine id and the same digest run the same code.
//
// TestManifestsMatchSources recomputes every manifest from the files on
// disk and fails on any difference, so an engine's code cannot change
// unnoticed. A change that alters what Search returns needs a new engine:
// a new id and entry, with the old engine's files kept (frozen, in a
// package of their own) so its links still replay. A change proven not to
// alter one output byte (internal/evidence's reference and differential
// tests) may refresh the manifest with `go test ./internal/engines
// -update`; the new digest is then reviewed in the diff, like a golden
// file.
//
// Adding an engine is one entry in registry.go, its source list, and its
// generated manifest.
package engines
