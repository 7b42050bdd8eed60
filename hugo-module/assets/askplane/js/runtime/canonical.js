// The bytes an artifact's content hash covers. This is the AgentsKit v1
// byte contract, not RFC 8785: JSON.stringify of a freshly built object
// with a fixed key order, from the decoded value (trimmed strings, unknown
// members dropped), with contentHash left out and arrays in the given
// order:
//
//   protocol, version, artifactId, siteId, generatedAt, [expiresAt],
//   entries: [{id, kind, label, match: {type, values},
//              answer: {markdown, citations: [{id, title, href}]}}]
//
// JSON.stringify's escaping is the contract (U+2028/9, <, > and & raw;
// C0 as \u00xx), and Go's ecmajson writer reproduces it byte for byte.

import { KNOWLEDGE_PROTOCOL, VERSION } from './limits.js';
import { Sha256 } from './sha256.js';

// PLACEHOLDER_HASH stands in for contentHash while an artifact that has
// none yet is validated, before its hash is computed.
/** @typedef {import('./knowledge.js').Artifact} Artifact */
/** @typedef {import('./knowledge.js').Entry} Entry */

/** The content hash an artifact without one is checked with. */
export const PLACEHOLDER_HASH = 'sha256:' + '0'.repeat(64);

// canonicalEntry builds one entry in canonical order.
/**
 * @param {Entry} e
 * @returns {Entry}
 */
export function canonicalEntry(e) {
  return {
    id: e.id,
    kind: e.kind,
    label: e.label,
    match: { type: 'exact', values: e.match.values.slice() },
    answer: {
      markdown: e.answer.markdown,
      citations: e.answer.citations.map((c) => ({ id: c.id, title: c.title, href: c.href })),
    },
  };
}

// artifactDocument builds the artifact object in canonical order, with
// contentHash (after siteId) only when withHash is set. Entries that are
// already canonical objects (built by this package's decoder) are reused
// as they are; pass rebuild to copy them.
/**
 * @param {Artifact} a
 * @param {boolean} withHash
 * @param {boolean} [rebuild]
 * @returns {Record<string, any>}
 */
export function artifactDocument(a, withHash, rebuild = true) {
  /** @type {Record<string, any>} */
  const doc = {
    protocol: KNOWLEDGE_PROTOCOL,
    version: VERSION,
    artifactId: a.artifactId,
    siteId: a.siteId,
  };
  if (withHash) doc.contentHash = a.contentHash;
  doc.generatedAt = a.generatedAt;
  if (a.expiresAt !== undefined) doc.expiresAt = a.expiresAt;
  doc.entries = rebuild ? a.entries.map(canonicalEntry) : a.entries;
  return doc;
}

// canonicalText returns the canonical JSON text of a decoded artifact.
/**
 * @param {Artifact} a
 * @returns {string}
 */
export function canonicalText(a) {
  return JSON.stringify(artifactDocument(a, false));
}

// canonicalDigest hashes the canonical text of a decoded artifact and
// returns {hash: "sha256:" + lowercase hex, bytes: its UTF-8 length}. The
// text is exactly canonicalText(a) (compact JSON.stringify output is the
// concatenation of its members' output), but it is hashed entry by entry:
// V8 builds a large JSON.stringify result as a rope, and flattening a
// half-megabyte rope costs more than hashing it. Entries that are already
// canonical objects (this package's decoder builds them) are stringified
// as they are; pass rebuild to copy them first.
/**
 * @param {Artifact} a
 * @param {boolean} [rebuild]
 * @returns {{hash: string, bytes: number}}
 */
export function canonicalDigest(a, rebuild = true) {
  const h = new Sha256();
  const head = JSON.stringify({ ...artifactDocument(a, false, false), entries: undefined });
  h.update(head.slice(0, -1));
  h.update(head.length > 2 ? ',"entries":[' : '"entries":[');
  const entries = a.entries;
  for (let i = 0; i < entries.length; i++) {
    if (i > 0) h.update(',');
    h.update(JSON.stringify(rebuild ? canonicalEntry(entries[i]) : entries[i]));
  }
  h.update(']}');
  const bytes = h.length;
  return { hash: 'sha256:' + h.hex(), bytes };
}

// contentHash returns the content hash of a decoded artifact.
/**
 * @param {Artifact} a
 * @returns {string}
 */
export function contentHash(a) {
  return canonicalDigest(a).hash;
}
