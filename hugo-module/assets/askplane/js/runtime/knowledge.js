// agentskit.chat.knowledge v1: the hashed set of exact facts the widget
// answers from. Decoding checks every schema rule (Go: knowledge.go's
// decodeArtifactValue and validate); verifying also checks the hash
// against the trusted site config (Go: hash.go's VerifyArtifact), in the
// protocol's order:
//
//   1. the trusted anchors are themselves valid      else INVALID_PAYLOAD
//   2. the document decodes                          else its diagnostic
//   3. declared contentHash = trusted contentHash    else HASH_MISMATCH
//   4. siteId = trusted siteId                       else INVALID_PAYLOAD
//   5. recomputed digest = declared contentHash      else HASH_MISMATCH
//
// Unknown members are stripped; a present null is never "absent". The
// decoded value is a fresh object in the protocol's key order with the
// trimmed fields trimmed.

import {
  KNOWLEDGE_PROTOCOL,
  MAX_ALIASES,
  MAX_ALIAS_LEN,
  MAX_ARTIFACT_BYTES,
  MAX_CITATIONS,
  MAX_ENTRIES,
  MAX_LABEL_LEN,
  MAX_MARKDOWN_LEN,
  MAX_TITLE_LEN,
  VERSION,
} from './limits.js';
import { isContentHash, isSafeIdentifier } from './text.js';
import { isSafeHref } from './href.js';
import { parseDateTime } from './datetime.js';
import { normalizeKnowledgeKey } from './normalize.js';
import { PLACEHOLDER_HASH, artifactDocument, canonicalDigest } from './canonical.js';
import {
  array,
  fail,
  field,
  has,
  hashMismatch,
  header,
  invalid,
  isObject,
  limitExceeded,
  need,
  object,
  ok,
  parseDocument,
  readText,
  schema,
  text,
} from './json.js';

/**
 * A citation: where an answer comes from.
 * @typedef {{id: string, title: string, href: string}} Citation
 */

/**
 * One exact fact of an artifact.
 * @typedef {object} Entry
 * @property {string} id
 * @property {string} kind
 * @property {string} label
 * @property {{type: string, values: string[]}} match
 * @property {{markdown: string, citations: Citation[]}} answer
 */

/**
 * A decoded artifact, in the protocol's key order.
 * @typedef {object} Artifact
 * @property {string} protocol
 * @property {number} version
 * @property {string} artifactId
 * @property {string} siteId
 * @property {string} contentHash
 * @property {string} generatedAt
 * @property {string} [expiresAt]
 * @property {Entry[]} entries
 */

/**
 * What an artifact must match: a site config's anchors (see siteTrust).
 * @typedef {{contentHash: string, siteId: string}} Trust
 */

/**
 * A verified artifact with the key index the resolver answers from:
 * keys[i] holds entry i's normalized values, owners maps a key to the
 * entries that own it, in artifact order; expiresMs is its expiry in epoch
 * milliseconds, or null.
 * @typedef {object} ArtifactIndex
 * @property {Artifact} artifact
 * @property {string[][]} keys
 * @property {Map<string, number[]>} owners
 * @property {number | null} expiresMs
 * @property {{hash: string, bytes: number}} [digest]
 */

/** @template T @typedef {import('./json.js').Result<T>} Result */

/**
 * Entry kinds, in protocol order. Informational: the resolver never
 * reads them.
 */
export const KINDS = Object.freeze(['command', 'package', 'navigation', 'contribution', 'ecosystem', 'restricted-faq', 'document']);

// checkArtifact maps a parsed document (or an object) onto a fresh
// artifact, checking every rule, and builds the key index the unique-alias
// rule needs and the resolver reuses: keys[i] holds entry i's normalized
// values, owners maps a key to the entries that own it, in artifact order.
// It throws (see need). Free text must be well-formed (see text).
/**
 * @param {Record<string, any>} root
 * @returns {ArtifactIndex}
 */
function checkArtifact(root) {
  const artifactId = field(root, 'artifactId', isSafeIdentifier);
  const siteId = field(root, 'siteId', isSafeIdentifier);
  const contentHash = field(root, 'contentHash', isContentHash);
  const generatedAt = field(root, 'generatedAt');
  const gen = parseDateTime(generatedAt);
  need(gen !== null);
  let expiresAt;
  let expiresMs = null;
  if (has(root, 'expiresAt')) {
    expiresAt = root.expiresAt;
    expiresMs = parseDateTime(expiresAt);
    // Strictly later, at millisecond precision: an expiry only
    // sub-millisecond later counts as equal.
    need(expiresMs !== null && expiresMs > gen);
  }
  const ids = new Set();
  /** @type {Map<string, number[]>} */
  const owners = new Map();
  /** @type {string[][]} */
  const keys = [];
  const entries = array(field(root, 'entries'), 0, MAX_ENTRIES, (ev, i) => {
    object(ev);
    const id = field(ev, 'id', isSafeIdentifier);
    need(!ids.has(id));
    ids.add(id);
    const kind = field(ev, 'kind');
    need(KINDS.includes(kind));
    const label = text(field(ev, 'label'), 1, MAX_LABEL_LEN);
    const m = object(field(ev, 'match'));
    need(field(m, 'type') === 'exact');
    /** @type {string[]} */
    const ks = [];
    const values = array(field(m, 'values'), 1, MAX_ALIASES, (a) => {
      const v = text(a, 1, MAX_ALIAS_LEN);
      // Normalization can expand ("\uFDFA" is 18 units), so the key has
      // its own bound; and within an entry keys are unique.
      const k = normalizeKnowledgeKey(v);
      need(k.length <= MAX_ALIAS_LEN && !ks.includes(k));
      ks.push(k);
      const o = owners.get(k);
      if (o === undefined) owners.set(k, [i]);
      else o.push(i);
      return v;
    });
    keys.push(ks);
    const ans = object(field(ev, 'answer'));
    const markdown = text(field(ans, 'markdown'), 1, MAX_MARKDOWN_LEN);
    const citations = array(field(ans, 'citations'), 0, MAX_CITATIONS, (c) => {
      object(c);
      return { id: field(c, 'id', isSafeIdentifier), title: text(field(c, 'title'), 1, MAX_TITLE_LEN), href: field(c, 'href', isSafeHref) };
    });
    return { id, kind, label, match: { type: 'exact', values }, answer: { markdown, citations } };
  });
  // Unique-alias rule: every entry keeps at least one key it alone owns,
  // so each stays reachable even when its other aliases are shared.
  need(keys.every((ks) => ks.some((k) => /** @type {number[]} */ (owners.get(k)).length === 1)));
  /** @type {Artifact} */
  const artifact = /** @type {any} */ ({ protocol: KNOWLEDGE_PROTOCOL, version: VERSION, artifactId, siteId, contentHash, generatedAt });
  if (expiresAt !== undefined) artifact.expiresAt = expiresAt;
  artifact.entries = entries;
  return { artifact, keys, owners, expiresMs };
}

// digestOf hashes the canonical text of an artifact checkArtifact built
// (its entries are already fresh canonical objects): {hash, bytes}.
/**
 * @param {Artifact} artifact
 * @returns {{hash: string, bytes: number}}
 */
function digestOf(artifact) {
  return canonicalDigest(artifact, false);
}

// check runs checkArtifact on a root whose header is checked.
// withPlaceholder substitutes the placeholder hash first, for computing
// the hash of a document that has none.
/**
 * @param {Record<string, any>} root
 * @param {boolean} withPlaceholder
 * @returns {ArtifactIndex}
 */
function check(root, withPlaceholder) {
  return checkArtifact(withPlaceholder ? { ...root, contentHash: PLACEHOLDER_HASH } : root);
}

// decodeText decodes readText's result into an index: limit, JSON,
// header, schema.
/**
 * @param {string | null | undefined} text
 * @param {boolean} withPlaceholder
 * @returns {Result<ArtifactIndex>}
 */
function decodeText(text, withPlaceholder) {
  const r = parseDocument(text, KNOWLEDGE_PROTOCOL);
  return r.ok ? schema(() => ok(check(r.value, withPlaceholder))) : r;
}

// decodeValue checks an artifact given as an object. A value has no bytes
// to limit before parsing, so its serialized size is checked after the
// schema, as JSON.stringify would measure it: the canonical text plus
// `"contentHash":"sha256:…",`, what the whole document adds to it.
/**
 * @param {any} value
 * @param {boolean} withPlaceholder
 * @returns {Result<ArtifactIndex>}
 */
function decodeValue(value, withPlaceholder) {
  return schema(() => {
    const diag = header(value, KNOWLEDGE_PROTOCOL);
    if (diag !== null) return diag;
    const index = check(value, withPlaceholder);
    const digest = digestOf(index.artifact);
    if (digest.bytes + '"contentHash":"",'.length + PLACEHOLDER_HASH.length > MAX_ARTIFACT_BYTES) return fail(limitExceeded());
    index.digest = digest;
    return ok(index);
  });
}

/**
 * @param {unknown} input
 * @param {boolean} withPlaceholder
 * @returns {Result<ArtifactIndex>}
 */
function decodeAny(input, withPlaceholder) {
  const text = readText(input, MAX_ARTIFACT_BYTES);
  return text === undefined ? decodeValue(input, withPlaceholder) : decodeText(text, withPlaceholder);
}

/**
 * @param {unknown} trust
 * @returns {trust is Trust}
 */
function validTrust(trust) {
  return isObject(trust) && isContentHash(trust.contentHash) && isSafeIdentifier(trust.siteId);
}

// checkTrust applies steps 3 and 4 to a decoded artifact, and returns a
// failure or null.
/**
 * @param {Artifact} a
 * @param {Trust} trust
 * @returns {import('./json.js').Failure | null}
 */
function checkTrust(a, trust) {
  if (a.contentHash !== trust.contentHash) return fail(hashMismatch());
  return a.siteId === trust.siteId ? null : fail(invalid());
}

// verifyArtifactIndex verifies input (string, bytes or object) against
// trust and returns the index: {artifact, keys, owners, expiresMs}. The
// resolver builds on it, so an artifact is decoded, normalized and hashed
// once.
/**
 * @param {unknown} input
 * @param {unknown} trust
 * @returns {Result<ArtifactIndex>}
 */
export function verifyArtifactIndex(input, trust) {
  if (!validTrust(trust)) return fail(invalid());
  const r = decodeAny(input, false);
  if (!r.ok) return r;
  const a = r.value.artifact;
  return checkTrust(a, trust) ?? ((r.value.digest ?? digestOf(a)).hash === a.contentHash ? r : fail(hashMismatch()));
}

// verifyArtifactIndexWith is verifyArtifactIndex for bytes or text, with
// the hash computed by hex, an async function that returns the lowercase
// hex SHA-256 of a string's UTF-8 bytes (the widget's Web Crypto). It
// resolves to the same result verifyArtifactIndex returns.
/**
 * @param {string | Uint8Array | ArrayBuffer} input
 * @param {unknown} trust
 * @param {(text: string) => Promise<string>} hex
 * @returns {Promise<Result<ArtifactIndex>>}
 */
export async function verifyArtifactIndexWith(input, trust, hex) {
  if (!validTrust(trust)) return fail(invalid());
  const r = decodeText(readText(input, MAX_ARTIFACT_BYTES), false);
  if (!r.ok) return r;
  const a = r.value.artifact;
  // The canonical text (canonicalText), written straight from the fresh
  // canonical object checkArtifact built: JSON.stringify leaves out a
  // member whose value is undefined.
  const text = () => JSON.stringify({ ...a, contentHash: undefined });
  return checkTrust(a, trust) ?? ('sha256:' + (await hex(text())) === a.contentHash ? r : fail(hashMismatch()));
}

// decodeArtifact decodes an artifact (string, bytes or object) and checks
// every schema rule, without checking its hash.
/**
 * @param {unknown} input
 * @returns {Result<Artifact>}
 */
export function decodeArtifact(input) {
  const r = decodeAny(input, false);
  return r.ok ? ok(r.value.artifact) : r;
}

// verifyArtifact decodes input and verifies it against the trusted
// anchors {contentHash, siteId} of a site config (see siteTrust).
/**
 * @param {unknown} input
 * @param {unknown} trust
 * @returns {Result<Artifact>}
 */
export function verifyArtifact(input, trust) {
  const r = verifyArtifactIndex(input, trust);
  return r.ok ? ok(r.value.artifact) : r;
}

// computeContentHash returns the content hash of an artifact that may not
// carry one yet. The artifact is validated first with a placeholder hash,
// so no hash is computed for one that breaks the schema or the
// unique-alias rule.
/**
 * @param {unknown} input
 * @returns {Result<string>}
 */
export function computeContentHash(input) {
  const r = decodeAny(input, true);
  if (!r.ok) return r;
  return ok((r.value.digest ?? digestOf(r.value.artifact)).hash);
}

// sealArtifact validates an artifact object that may have no hash yet and
// returns a fresh copy with its contentHash set, ready to publish.
/**
 * @param {any} value
 * @returns {Result<Artifact>}
 */
export function sealArtifact(value) {
  const r = decodeValue(value, true);
  if (!r.ok) return r;
  const a = r.value.artifact;
  // decodeValue sets digest.
  a.contentHash = /** @type {{hash: string}} */ (r.value.digest).hash;
  return ok(a);
}

// encodeArtifact writes the whole artifact, contentHash included, in the
// protocol's key order.
/**
 * @param {Artifact} a
 * @returns {string}
 */
export function encodeArtifact(a) {
  return JSON.stringify(artifactDocument(a, true));
}
