// agentskit.chat.answer v1: the one envelope every answer takes, whether
// it came from the local artifact or the backend. It is discriminated on
// outcome:
//
//   answer:     answer {markdown, citations}, provenance local or backend
//   choices:    message, suggestions (2..8), provenance local
//   escalation: message, reason, optional candidateEntryIds
//
// and carries query (the raw question, cut to 512 units, may be empty),
// normalizedQuery (its key, cut to 512) and confidence, whose level and
// basis follow from the outcome. Decoded values and the envelopes this
// package builds are plain objects in the order encodeEnvelope writes, so
// JSON.stringify(envelope) equals encodeEnvelope(envelope).

import {
  ANSWER_PROTOCOL,
  MAX_ALIAS_LEN,
  MAX_ANSWER_BYTES,
  MAX_CITATIONS,
  MAX_ENTRY_IDS,
  MAX_LABEL_LEN,
  MAX_MARKDOWN_LEN,
  MAX_MESSAGE_LEN,
  MAX_PROVIDER_LEN,
  MAX_QUERY_LEN,
  MAX_SUGGESTIONS,
  MAX_TITLE_LEN,
  MIN_SUGGESTIONS,
  VERSION,
} from './limits.js';
import { isContentHash, isSafeIdentifier, toWellFormed, truncateUTF16 } from './text.js';
import { isSafeHref } from './href.js';
import { normalizeKnowledgeKey } from './normalize.js';
import {
  array,
  field,
  has,
  header,
  need,
  object,
  ok,
  oneOf,
  parseDocument,
  raw,
  readText,
  schema,
  text,
} from './json.js';

/** @typedef {import('./knowledge.js').Citation} Citation */

/**
 * Where an answer came from: local (an artifact's entries) or backend.
 * @typedef {object} Provenance
 * @property {string} source
 * @property {string} [artifactId]
 * @property {string} [contentHash]
 * @property {string[]} [entryIds]
 * @property {string} [provider]
 * @property {string} [model]
 */

/**
 * One choice of a choices envelope.
 * @typedef {{id: string, label: string, value: string}} Suggestion
 */

/**
 * An answer envelope of any outcome; the members of its outcome are
 * present (see the file comment).
 * @typedef {object} Envelope
 * @property {string} protocol
 * @property {number} version
 * @property {string} outcome
 * @property {string} query
 * @property {string} normalizedQuery
 * @property {{markdown: string, citations: Citation[]}} [answer]
 * @property {Provenance} [provenance]
 * @property {string} [message]
 * @property {Suggestion[]} [suggestions]
 * @property {string} [reason]
 * @property {string[]} [candidateEntryIds]
 * @property {{level: string, basis: string}} confidence
 */

/** An answer: markdown with its citations. */
export const OUTCOME_ANSWER = 'answer';
/** Choices: several exact answers match. */
export const OUTCOME_CHOICES = 'choices';
/** An escalation: no local answer, and why. */
export const OUTCOME_ESCALATION = 'escalation';

/**
 * Escalation reasons. There is no "protocol" reason: malformed or
 * oversized data is corrupt.
 */
export const REASON_MISS = 'miss';
/** The artifact expired. */
export const REASON_STALE = 'stale';
/** The artifact did not verify, or none arrived. */
export const REASON_CORRUPT = 'corrupt';
/** A miss with no backend to ask. */
export const REASON_OFFLINE = 'offline';

/**
 * The AgentsKit wordings, so both clients read the same (Go: answer.go).
 */
export const MESSAGE_CHOICES = 'More than one exact local answer matches. Choose one to continue.';
/** The message of a miss. */
export const MESSAGE_MISS = 'No exact local answer was found. A backend answer is required.';
/** The message of a stale artifact. */
export const MESSAGE_STALE = 'Local knowledge is stale. A backend answer is required.';
/** The message of a corrupt artifact. */
export const MESSAGE_CORRUPT = 'Local knowledge is corrupt. A backend answer is required.';
/** The message of a question no backend can answer here. */
export const MESSAGE_OFFLINE = 'This question needs the backend, which is not available.';
/** The message of a choice that is no longer offered. */
export const MESSAGE_CHOICE_MISSING = 'The selected local answer is unavailable. A backend answer is required.';

// Spelled out, not spread from REASONS: a spread is not pure to the
// bundler, and the widget, which never decodes an envelope, would carry it.
const REASONS = [REASON_MISS, REASON_STALE, REASON_CORRUPT, REASON_OFFLINE];
const BASES = ['exact', 'ambiguous', REASON_MISS, REASON_STALE, REASON_CORRUPT, REASON_OFFLINE, 'backend'];

// queryFields returns the query and normalizedQuery an envelope carries
// for a raw question: the question cut to 512 UTF-16 units, and its key
// cut to 512 (normalization can expand text past the limit). Cuts never
// split a surrogate pair (see truncateUTF16).
/**
 * @param {string} rawQuery
 * @returns {{query: string, normalizedQuery: string}}
 */
export function queryFields(rawQuery) {
  const query = truncateUTF16(toWellFormed(rawQuery), MAX_QUERY_LEN);
  return { query, normalizedQuery: truncateUTF16(normalizeKnowledgeKey(query), MAX_QUERY_LEN) };
}

// envelope builds an envelope: the members every outcome starts with, in
// the wire's order, then those of rest. (Object.assign, not a spread: V8
// builds a spread object on a slow path, a hundred times slower, and a
// resolve is a few of these.)
/**
 * @param {string} outcome
 * @param {string} query
 * @param {string} normalizedQuery
 * @param {object} [rest]
 * @returns {Envelope}
 */
export function envelope(outcome, query, normalizedQuery, rest) {
  return /** @type {Envelope} */ (Object.assign({ protocol: ANSWER_PROTOCOL, version: VERSION, outcome, query, normalizedQuery }, rest));
}

// escalationEnvelope builds an escalation from query fields already known.
/**
 * @param {string} query
 * @param {string} normalizedQuery
 * @param {string} reason
 * @param {string} message
 * @returns {Envelope}
 */
export function escalationEnvelope(query, normalizedQuery, reason, message) {
  return envelope(OUTCOME_ESCALATION, query, normalizedQuery, { message, reason, confidence: { level: 'low', basis: reason } });
}

/** @type {Record<string, string>} */
const MESSAGES = {
  [REASON_MISS]: MESSAGE_MISS,
  [REASON_STALE]: MESSAGE_STALE,
  [REASON_CORRUPT]: MESSAGE_CORRUPT,
  [REASON_OFFLINE]: MESSAGE_OFFLINE,
};

// escalate returns the escalation for a raw question with the standard
// message for reason, or with message when given.
/**
 * @param {string} rawQuery
 * @param {string} reason
 * @param {string} [message]
 * @returns {Envelope}
 */
export function escalate(rawQuery, reason, message = MESSAGES[reason] ?? MESSAGE_MISS) {
  const q = queryFields(rawQuery);
  return escalationEnvelope(q.query, q.normalizedQuery, reason, message);
}

/**
 * @param {unknown} v
 * @returns {Citation[]}
 */
function citationsOf(v) {
  return array(v, 0, MAX_CITATIONS, (c) => {
    object(c);
    return { id: field(c, 'id', isSafeIdentifier), title: text(field(c, 'title'), 1, MAX_TITLE_LEN), href: field(c, 'href', isSafeHref) };
  });
}

/**
 * @param {unknown} v
 * @param {number} min
 * @param {number} max
 * @returns {string[]}
 */
function identifiers(v, min, max) {
  return array(v, min, max, (id) => {
    need(isSafeIdentifier(id));
    return id;
  });
}

/**
 * @param {unknown} v
 * @returns {Provenance}
 */
function provenanceOf(v) {
  const o = object(v);
  const source = oneOf(field(o, 'source'), 'local', 'backend');
  if (source === 'local') {
    return {
      source,
      artifactId: field(o, 'artifactId', isSafeIdentifier),
      contentHash: field(o, 'contentHash', isContentHash),
      entryIds: identifiers(field(o, 'entryIds'), 1, MAX_ENTRY_IDS),
    };
  }
  /** @type {Provenance} */
  const p = { source };
  if (has(o, 'provider')) p.provider = text(o.provider, 1, MAX_PROVIDER_LEN);
  if (has(o, 'model')) p.model = text(o.model, 1, MAX_PROVIDER_LEN);
  return p;
}

// checkEnvelope checks a parsed envelope whose header is checked and
// returns a fresh one. It throws (see need).
/**
 * @param {Record<string, any>} root
 * @returns {Envelope}
 */
function checkEnvelope(root) {
  const outcome = oneOf(field(root, 'outcome'), OUTCOME_ANSWER, OUTCOME_CHOICES, OUTCOME_ESCALATION);
  const query = raw(field(root, 'query'), 0, MAX_QUERY_LEN);
  const normalizedQuery = raw(field(root, 'normalizedQuery'), 0, MAX_QUERY_LEN);
  const conf = object(field(root, 'confidence'));
  const level = oneOf(field(conf, 'level'), 'high', 'medium', 'low');
  const basis = oneOf(field(conf, 'basis'), ...BASES);
  const env = envelope(outcome, query, normalizedQuery);
  if (outcome === OUTCOME_ANSWER) {
    const ans = object(field(root, 'answer'));
    // Answer markdown is not trimmed; citation titles are.
    env.answer = {
      markdown: raw(field(ans, 'markdown'), 1, MAX_MARKDOWN_LEN),
      citations: citationsOf(field(ans, 'citations')),
    };
    const p = (env.provenance = provenanceOf(field(root, 'provenance')));
    need(level === 'high' && (p.source === 'local' ? basis === 'exact' && /** @type {string[]} */ (p.entryIds).length === 1 : basis === 'backend'));
  } else if (outcome === OUTCOME_CHOICES) {
    env.message = raw(field(root, 'message'), 1, MAX_MESSAGE_LEN);
    const s = (env.suggestions = array(field(root, 'suggestions'), MIN_SUGGESTIONS, MAX_SUGGESTIONS, (o) => {
      object(o);
      return { id: field(o, 'id', isSafeIdentifier), label: text(field(o, 'label'), 1, MAX_LABEL_LEN), value: text(field(o, 'value'), 1, MAX_ALIAS_LEN) };
    }));
    const p = (env.provenance = provenanceOf(field(root, 'provenance')));
    // Suggestion ids equal the provenance's entry ids, in order.
    need(p.source === 'local' && level === 'medium' && basis === 'ambiguous');
    need(/** @type {string[]} */ (p.entryIds).length === s.length && s.every((x, i) => x.id === /** @type {string[]} */ (p.entryIds)[i]));
  } else {
    env.message = raw(field(root, 'message'), 1, MAX_MESSAGE_LEN);
    env.reason = oneOf(field(root, 'reason'), ...REASONS);
    if (has(root, 'candidateEntryIds')) env.candidateEntryIds = identifiers(root.candidateEntryIds, 0, MAX_ENTRY_IDS);
    need(level === 'low' && basis === env.reason);
  }
  env.confidence = { level, basis };
  // normalizedQuery must be the key of query, cut to 512, so a sender
  // cannot claim a different key than it asked.
  need(queryFields(query).normalizedQuery === normalizedQuery);
  return env;
}

// decodeEnvelopeValue checks a parsed envelope and returns a fresh one,
// or fails.
/**
 * @param {unknown} root
 * @returns {import('./json.js').Result<Envelope>}
 */
export function decodeEnvelopeValue(root) {
  return header(root, ANSWER_PROTOCOL) ?? schema(() => ok(checkEnvelope(/** @type {Record<string, any>} */ (root))));
}

// decodeEnvelope decodes an envelope (bytes or string). The byte limit is
// checked before parsing; unknown members are stripped.
/**
 * @param {unknown} input
 * @returns {import('./json.js').Result<Envelope>}
 */
export function decodeEnvelope(input) {
  const r = parseDocument(readText(input, MAX_ANSWER_BYTES), ANSWER_PROTOCOL);
  return r.ok ? schema(() => ok(checkEnvelope(r.value))) : r;
}

/**
 * @param {Citation[] | undefined} list
 * @returns {Citation[]}
 */
function citationList(list) {
  return (list ?? []).map((c) => ({ id: c.id, title: c.title, href: c.href }));
}

/**
 * @param {Provenance} p
 * @returns {Provenance}
 */
function provenanceDoc(p) {
  if (p.source === 'local') {
    return { source: p.source, artifactId: p.artifactId, contentHash: p.contentHash, entryIds: /** @type {string[]} */ (p.entryIds).slice() };
  }
  /** @type {Provenance} */
  const doc = { source: p.source };
  if (typeof p.provider === 'string' && p.provider !== '') doc.provider = p.provider;
  if (typeof p.model === 'string' && p.model !== '') doc.model = p.model;
  return doc;
}

// escalationDocument is envelopeDocument for an escalation. It stands
// alone because the widget's Ask request only ever carries an escalation
// (buildAskRequest), so the widget's core need not carry the writers of
// the other outcomes.
/**
 * @param {Envelope} env
 * @returns {Envelope}
 */
export function escalationDocument(env) {
  const doc = envelope(env.outcome, env.query, env.normalizedQuery, { message: env.message, reason: env.reason });
  if (Array.isArray(env.candidateEntryIds)) doc.candidateEntryIds = env.candidateEntryIds.slice();
  doc.confidence = { level: env.confidence.level, basis: env.confidence.basis };
  return doc;
}

// envelopeDocument rebuilds env in the wire's key order (Go: Envelope's
// MarshalJSON). Like Go it does not validate values, but it refuses an
// answer without answer or provenance and choices without provenance: the
// document would decode nowhere and the mistake would surface far away.
/**
 * @param {Envelope} env
 * @returns {Envelope}
 */
export function envelopeDocument(env) {
  if (env.outcome === OUTCOME_ESCALATION) return escalationDocument(env);
  const doc = envelope(env.outcome, env.query, env.normalizedQuery);
  if (env.outcome === OUTCOME_ANSWER) {
    if (env.answer == null || env.provenance == null) throw new TypeError('askplane: answer envelope needs answer and provenance');
    doc.answer = { markdown: env.answer.markdown, citations: citationList(env.answer.citations) };
    doc.provenance = provenanceDoc(env.provenance);
  } else if (env.outcome === OUTCOME_CHOICES) {
    if (env.provenance == null) throw new TypeError('askplane: choices envelope needs provenance');
    doc.message = env.message;
    doc.suggestions = (env.suggestions ?? []).map((s) => ({ id: s.id, label: s.label, value: s.value }));
    doc.provenance = provenanceDoc(env.provenance);
  }
  doc.confidence = { level: env.confidence.level, basis: env.confidence.basis };
  return doc;
}

// encodeEnvelope writes env as JSON.stringify writes the decoded value.
/**
 * @param {Envelope} env
 * @returns {string}
 */
export function encodeEnvelope(env) {
  return JSON.stringify(envelopeDocument(env));
}
