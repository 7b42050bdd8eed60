// Package corpus loads the askplane.corpus v1 documents the Hugo module
// publishes under askplane/<lang>/, so the Ask backend retrieves from
// exactly the bytes the build pinned in its manifest and nothing else.
//
// A corpus is trusted only after its SHA-256 matches the manifest's
// contentHash: the hash is what evidence packages record as their source
// version, so a corpus that does not match it must never be searched.
// Reads are bounded because a built site folder or URL is still input.
package corpus
