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
import { isContentHash, isSafeIdentifier, isWellFormed } from './text.js';
import { isSafeHref } from './href.js';
import { parseDateTime } from './datetime.js';
import { normalizeKnowledgeKey } from './normalize.js';
import { PLACEHOLDER_HASH, artifactDocument, canonicalDigest, canonicalText } from './canonical.js';
import {
  array,
  fail,
  field,
  has,
  hashMismatch,
  header,
  invalid,
  invalidJSON,
  isObject,
  limitExceeded,
  need,
  object,
  ok,
  parseJSON,
  readText,
  str,
} from './json.js';

// Entry kinds, in protocol order. Informational: the resolver never
// reads them.
export const KINDS = Object.freeze(['command', 'package', 'navigation', 'contribution', 'ecosystem', 'restricted-faq', 'document']);

// The length of `"contentHash":"sha256:…",`: what the whole document adds
// to the canonical text. A value (not text) is measured by its serialized
// size, as JSON.stringify would measure it.
const HASH_MEMBER_LEN = '"contentHash":"",'.length + PLACEHOLDER_HASH.length;

// freeText is a trimmed field of free text. It must also be well-formed:
// a decoded payload always is (see json.js), but an object built in
// JavaScript may hold a lone surrogate, which no Go peer could hash or
// match; Go refuses the invalid UTF-8 that is its counterpart.
function freeText(v, min, max) {
  const s = str(v).trim();
  need(s.length >= min && s.length <= max && isWellFormed(s));
  return s;
}

// checkArtifact maps a parsed document (or an object) onto a fresh
// artifact, checking every rule, and builds the key index the unique-alias
// rule needs and the resolver reuses: keys[i] holds entry i's normalized
// values, owners maps a key to the entries that own it, in artifact order.
// It throws Invalid.
function checkArtifact(root) {
  const artifactId = field(root, 'artifactId');
  const siteId = field(root, 'siteId');
  const contentHash = field(root, 'contentHash');
  need(isSafeIdentifier(artifactId) && isSafeIdentifier(siteId) && isContentHash(contentHash));
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
  const list = array(field(root, 'entries'), 0, MAX_ENTRIES);
  const entries = new Array(list.length);
  const keys = new Array(list.length);
  const ids = new Set();
  const owners = new Map();
  for (let i = 0; i < list.length; i++) {
    const ev = object(list[i]);
    const id = field(ev, 'id');
    need(isSafeIdentifier(id) && !ids.has(id));
    ids.add(id);
    const kind = field(ev, 'kind');
    need(KINDS.includes(kind));
    const label = freeText(field(ev, 'label'), 1, MAX_LABEL_LEN);
    const m = object(field(ev, 'match'));
    need(field(m, 'type') === 'exact');
    const vals = array(field(m, 'values'), 1, MAX_ALIASES);
    const values = new Array(vals.length);
    const ks = new Array(vals.length);
    for (let j = 0; j < vals.length; j++) {
      const v = freeText(vals[j], 1, MAX_ALIAS_LEN);
      // Normalization can expand ("\uFDFA" is 18 units), so the key has
      // its own bound; and within an entry keys are unique.
      const k = normalizeKnowledgeKey(v);
      need(k.length <= MAX_ALIAS_LEN);
      for (let p = 0; p < j; p++) need(ks[p] !== k);
      values[j] = v;
      ks[j] = k;
      const o = owners.get(k);
      if (o === undefined) owners.set(k, [i]);
      else o.push(i);
    }
    const ans = object(field(ev, 'answer'));
    const markdown = freeText(field(ans, 'markdown'), 1, MAX_MARKDOWN_LEN);
    const cl = array(field(ans, 'citations'), 0, MAX_CITATIONS);
    const citations = new Array(cl.length);
    for (let j = 0; j < cl.length; j++) {
      const c = object(cl[j]);
      const cid = field(c, 'id');
      need(isSafeIdentifier(cid));
      const title = freeText(field(c, 'title'), 1, MAX_TITLE_LEN);
      const href = field(c, 'href');
      need(isSafeHref(href));
      citations[j] = { id: cid, title, href };
    }
    entries[i] = { id, kind, label, match: { type: 'exact', values }, answer: { markdown, citations } };
    keys[i] = ks;
  }
  // Unique-alias rule: every entry keeps at least one key it alone owns,
  // so each stays reachable even when its other aliases are shared.
  for (let i = 0; i < keys.length; i++) {
    need(keys[i].some((k) => owners.get(k).length === 1));
  }
  const artifact = {
    protocol: KNOWLEDGE_PROTOCOL,
    version: VERSION,
    artifactId,
    siteId,
    contentHash,
    generatedAt,
  };
  if (expiresAt !== undefined) artifact.expiresAt = expiresAt;
  artifact.entries = entries;
  return { artifact, keys, owners, expiresMs };
}

// digestOf hashes the canonical text of an artifact checkArtifact built
// (its entries are already fresh canonical objects): {hash, bytes}.
function digestOf(artifact) {
  return canonicalDigest(artifact, false);
}

// guard runs a schema check. Any exception is INVALID_PAYLOAD, as in the
// reference: an object given by a caller may throw from a getter or a
// proxy, and nothing internal may leak into a diagnostic.
function guard(fn) {
  try {
    return fn();
  } catch {
    return fail(invalid());
  }
}

// decodeText decodes a text payload (string or bytes) into an index:
// limit, JSON, header, schema. withPlaceholder substitutes the placeholder
// hash first, for computing the hash of a document that has none.
function decodeText(text, withPlaceholder) {
  if (text === null) return fail(limitExceeded());
  const parsed = parseJSON(text);
  if (!parsed.ok) return fail(invalidJSON());
  let root = parsed.value;
  const diag = header(root, KNOWLEDGE_PROTOCOL);
  if (diag !== null) return fail(diag);
  if (withPlaceholder) root = { ...root, contentHash: PLACEHOLDER_HASH };
  return guard(() => ok(checkArtifact(root)));
}

// decodeValue checks an artifact given as an object. A value has no bytes
// to limit before parsing, so its serialized size is checked after the
// schema, as JSON.stringify would measure it.
function decodeValue(value, withPlaceholder) {
  return guard(() => {
    if (!isObject(value)) return fail(invalid());
    const diag = header(value, KNOWLEDGE_PROTOCOL);
    if (diag !== null) return fail(diag);
    const root = withPlaceholder ? { ...value, contentHash: PLACEHOLDER_HASH } : value;
    const index = checkArtifact(root);
    const digest = digestOf(index.artifact);
    if (digest.bytes + HASH_MEMBER_LEN > MAX_ARTIFACT_BYTES) return fail(limitExceeded());
    index.digest = digest;
    return ok(index);
  });
}

function decodeAny(input, withPlaceholder) {
  const text = readText(input, MAX_ARTIFACT_BYTES);
  if (text === undefined) return decodeValue(input, withPlaceholder);
  return decodeText(text, withPlaceholder);
}

function validTrust(trust) {
  return isObject(trust) && isContentHash(trust.contentHash) && isSafeIdentifier(trust.siteId);
}

// checkTrust applies steps 3 to 5 to a decoded index.
function checkTrust(index, trust) {
  const a = index.artifact;
  if (a.contentHash !== trust.contentHash) return fail(hashMismatch());
  if (a.siteId !== trust.siteId) return fail(invalid());
  const digest = index.digest ?? digestOf(a);
  if (digest.hash !== a.contentHash) return fail(hashMismatch());
  return ok(index);
}

// verifyArtifactIndex verifies input (string, bytes or object) against
// trust and returns the index: {artifact, keys, owners, expiresMs}. The
// resolver builds on it, so an artifact is decoded, normalized and hashed
// once.
export function verifyArtifactIndex(input, trust) {
  if (!validTrust(trust)) return fail(invalid());
  const r = decodeAny(input, false);
  if (!r.ok) return r;
  return checkTrust(r.value, trust);
}

// verifyArtifactIndexWith is verifyArtifactIndex for bytes or text, with
// the hash computed by hex, an async function that returns the lowercase
// hex SHA-256 of a string's UTF-8 bytes (the widget's Web Crypto). It
// resolves to the same result verifyArtifactIndex returns.
export async function verifyArtifactIndexWith(input, trust, hex) {
  if (!validTrust(trust)) return fail(invalid());
  const text = readText(input, MAX_ARTIFACT_BYTES);
  if (text === undefined) return fail(invalid());
  const r = decodeText(text, false);
  if (!r.ok) return r;
  const a = r.value.artifact;
  if (a.contentHash !== trust.contentHash) return fail(hashMismatch());
  if (a.siteId !== trust.siteId) return fail(invalid());
  if ('sha256:' + (await hex(canonicalText(a))) !== a.contentHash) return fail(hashMismatch());
  return r;
}

// decodeArtifact decodes an artifact (string, bytes or object) and checks
// every schema rule, without checking its hash.
export function decodeArtifact(input) {
  const r = decodeAny(input, false);
  return r.ok ? ok(r.value.artifact) : r;
}

// verifyArtifact decodes input and verifies it against the trusted
// anchors {contentHash, siteId} of a site config (see siteTrust).
export function verifyArtifact(input, trust) {
  const r = verifyArtifactIndex(input, trust);
  return r.ok ? ok(r.value.artifact) : r;
}

// computeContentHash returns the content hash of an artifact that may not
// carry one yet. The artifact is validated first with a placeholder hash,
// so no hash is computed for one that breaks the schema or the
// unique-alias rule.
export function computeContentHash(input) {
  const r = decodeAny(input, true);
  if (!r.ok) return r;
  return ok((r.value.digest ?? digestOf(r.value.artifact)).hash);
}

// sealArtifact validates an artifact object that may have no hash yet and
// returns a fresh copy with its contentHash set, ready to publish.
export function sealArtifact(value) {
  const r = decodeValue(value, true);
  if (!r.ok) return r;
  const a = r.value.artifact;
  a.contentHash = r.value.digest.hash;
  return ok(a);
}

// encodeArtifact writes the whole artifact, contentHash included, in the
// protocol's key order.
export function encodeArtifact(a) {
  return JSON.stringify(artifactDocument(a, true));
}
