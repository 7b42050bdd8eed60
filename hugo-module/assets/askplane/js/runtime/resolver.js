// The exact resolver: answers a question from one verified artifact, and
// decides whether an escalation goes to the backend. Same rules as Go's
// internal/resolve (resolver.go, adapter.go) and the AgentsKit resolver,
// pinned by testdata/conformance/resolver.json.
//
// A Resolver never fails. When its artifact does not verify, every call
// returns a corrupt escalation, so a bad or tampered artifact degrades to
// the backend (or to an honest "corrupt" notice) instead of answering.

import { MAX_QUERY_LEN, MAX_SUGGESTIONS } from './limits.js';
import { toWellFormed, truncateUTF16 } from './text.js';
import { normalizeKnowledgeKey } from './normalize.js';
import { verifyArtifactIndex } from './knowledge.js';
import { fail, invalid } from './json.js';
import { FALLBACK_BACKEND } from './site.js';
import {
  MESSAGE_CHOICES,
  MESSAGE_CHOICE_MISSING,
  MESSAGE_MISS,
  MESSAGE_OFFLINE,
  OUTCOME_ANSWER,
  OUTCOME_CHOICES,
  OUTCOME_ESCALATION,
  REASON_CORRUPT,
  REASON_MISS,
  REASON_OFFLINE,
  REASON_STALE,
  envelope,
  escalate,
  escalationEnvelope,
} from './answer.js';

// VerifiedResolver answers from the result of a verification already
// made: verifyArtifactIndex's, or the widget's verifyArtifactIndexWith
// (Web Crypto, asynchronous). Resolver is the one that verifies itself,
// and the one that describes its artifact (the widget only asks).
/** @typedef {import('./answer.js').Envelope} Envelope */
/** @typedef {import('./knowledge.js').ArtifactIndex} ArtifactIndex */
/** @typedef {import('./knowledge.js').Entry} Entry */

/**
 * A Resolver's options: now() returns the clock in epoch milliseconds.
 * @typedef {{now?: () => number}} ResolverOptions
 */

/**
 * What #ask found: the escalation that answers before any matching, or
 * the query, its key and the entries that own the key.
 * @typedef {{early?: Envelope, query: string, key: string, owners: number[]}} Asked
 */

/** A resolver over a verification already made (see below). */
export class VerifiedResolver {
  /** @type {ArtifactIndex} once verified; null (typed away: #ask checks it first) until then */
  #index = /** @type {any} */ (null);
  /** @type {() => number} */
  #now;

  // new VerifiedResolver(r, {now}) answers from r.value when r.ok, else
  // escalates every question as corrupt. The index must be the verifier's
  // own fresh objects, not shared with a caller. now() returns the clock
  // in epoch milliseconds, for the expiry check (default Date.now).
  /**
   * @param {import('./json.js').Result<ArtifactIndex>} r
   * @param {ResolverOptions} [options]
   */
  constructor(r, options = {}) {
    this.#now = typeof options.now === 'function' ? options.now : Date.now;
    if (r.ok) this.#index = r.value;
  }

  // #ask makes query a well-formed string and returns it with its key and
  // the entries that own the key, in artifact order; or with the
  // escalation that answers it before any matching, in the order the
  // protocol fixes:
  //  1. no verified artifact is corrupt;
  //  2. an expired artifact escalates as stale, whatever the query.
  //     Expiry is inclusive: at the exact expiresAt instant it is already
  //     stale. The clock is read only for artifacts that expire;
  //  3. a query over 512 UTF-16 units is a miss (with missMessage): it is
  //     never cut down into a match. A key over 512 owns nothing.
  /**
   * @param {any} query any value: made a well-formed string first
   * @param {string} missMessage
   * @returns {Asked}
   */
  #ask(query, missMessage) {
    query = toWellFormed(String(query));
    const index = this.#index;
    let early = null;
    if (index === null) early = escalate(query, REASON_CORRUPT);
    else if (index.expiresMs !== null && index.expiresMs <= this.#now()) early = escalate(query, REASON_STALE);
    else if (query.length > MAX_QUERY_LEN) early = escalate(query, REASON_MISS, missMessage);
    if (early !== null) return /** @type {Asked} */ ({ early });
    const key = normalizeKnowledgeKey(query);
    return { query, key, owners: (key.length <= MAX_QUERY_LEN && index.owners.get(key)) || [] };
  }

  // resolve answers query: no owner of its key is a miss, several are
  // choices (the first 8 in artifact order), exactly one is that entry's
  // answer.
  /**
   * @param {string} question
   * @returns {Envelope}
   */
  resolve(question) {
    const { early, query, key, owners } = this.#ask(question, MESSAGE_MISS);
    if (early) return early;
    if (owners.length === 0) return escalationEnvelope(query, truncateUTF16(key, MAX_QUERY_LEN), REASON_MISS, MESSAGE_MISS);
    return owners.length === 1 ? this.#answer(owners[0], query, key) : this.#choices(owners, query, key);
  }

  // resolveChoice answers a choice picked from the choices envelope for
  // originalQuery. It is honoured only when choiceId is among the (at most
  // 8) entries that query offers, so a forged id cannot reach an entry the
  // question never matched; anything else is a miss saying the selected
  // answer is unavailable.
  /**
   * @param {string} choiceId
   * @param {string} originalQuery
   * @returns {Envelope}
   */
  resolveChoice(choiceId, originalQuery) {
    const { early, query, key, owners } = this.#ask(originalQuery, MESSAGE_CHOICE_MISSING);
    if (early) return early;
    const i = owners.slice(0, MAX_SUGGESTIONS).find((i) => this.#index.artifact.entries[i].id === choiceId);
    if (i !== undefined) return this.#answer(i, query, key);
    return escalationEnvelope(query, truncateUTF16(key, MAX_QUERY_LEN), REASON_MISS, MESSAGE_CHOICE_MISSING);
  }

  // Each envelope is built fresh, citations included, so a caller that
  // edits one cannot change what the Resolver answers next.
  /**
   * @param {number} i
   * @param {string} query
   * @param {string} key
   * @returns {Envelope}
   */
  #answer(i, query, key) {
    const e = this.#index.artifact.entries[i];
    return envelope(OUTCOME_ANSWER, query, key, {
      answer: {
        markdown: e.answer.markdown,
        citations: e.answer.citations.map((c) => ({ id: c.id, title: c.title, href: c.href })),
      },
      provenance: this.#provenance([i]),
      confidence: { level: 'high', basis: 'exact' },
    });
  }

  /**
   * @param {number[]} owners
   * @param {string} query
   * @param {string} key
   * @returns {Envelope}
   */
  #choices(owners, query, key) {
    const { artifact, keys } = this.#index;
    const entries = artifact.entries;
    const picked = owners.slice(0, MAX_SUGGESTIONS);
    return envelope(OUTCOME_CHOICES, query, key, {
      message: MESSAGE_CHOICES,
      suggestions: picked.map((i) => ({ id: entries[i].id, label: entries[i].label, value: suggestionValue(entries[i], keys[i], this.#index.owners) })),
      provenance: this.#provenance(picked),
      confidence: { level: 'medium', basis: 'ambiguous' },
    });
  }

  // #provenance is the local provenance of the entries at indices.
  /**
   * @param {number[]} indices
   * @returns {import('./answer.js').Provenance}
   */
  #provenance(indices) {
    const a = this.#index.artifact;
    return { source: 'local', artifactId: a.artifactId, contentHash: a.contentHash, entryIds: indices.map((i) => a.entries[i].id) };
  }
}

// suggestionValue is the text a choices suggestion submits for an entry:
// its first declared alias (trimmed, not normalized, so it reads as the
// author wrote it) whose key belongs to that entry alone, so that asking
// it again answers instead of offering the same choices. The unique-alias
// rule guarantees one exists; the fallbacks keep the function total.
/**
 * @param {Entry} e
 * @param {string[]} keys
 * @param {Map<string, number[]>} owners
 * @returns {string}
 */
function suggestionValue(e, keys, owners) {
  const values = e.match.values;
  for (let j = 0; j < values.length; j++) {
    if (/** @type {number[]} */ (owners.get(keys[j])).length === 1) return values[j];
  }
  return values.length > 0 ? values[0] : e.id;
}

/** A resolver that verifies its artifact itself, and describes it. */
export class Resolver extends VerifiedResolver {
  /** @type {{ok: boolean, value?: ArtifactIndex, diagnostic?: import('./json.js').Diagnostic}} */
  #r;

  // new Resolver(artifact, trust, {now}) verifies artifact against trust
  // ({contentHash, siteId}, see siteTrust) synchronously, here, even when
  // it came from verifyArtifact: an object changed after it was verified
  // must not answer, and the Resolver keeps a private copy so later
  // changes cannot reach it either. artifact may be the artifact object,
  // or its bytes or text (then it is decoded, normalized and hashed once);
  // null means there is none.
  /**
   * @param {unknown} artifact
   * @param {unknown} trust
   * @param {ResolverOptions} [options]
   */
  constructor(artifact, trust, options = {}) {
    const r = artifact == null ? fail(invalid()) : verifyArtifactIndex(artifact, trust);
    super(r, options);
    this.#r = r;
  }

  // error is the payload-free diagnostic of a rejected artifact, or null
  // when the Resolver answers from it.
  get error() {
    return this.#r.ok ? null : this.#r.diagnostic;
  }

  // ok reports whether the artifact verified.
  get ok() {
    return this.#r.ok;
  }

  // artifactId, contentHash and expiresAt describe the verified artifact
  // (undefined when there is none).
  get artifactId() {
    return this.#r.value?.artifact.artifactId;
  }

  get contentHash() {
    return this.#r.value?.artifact.contentHash;
  }

  get expiresAt() {
    return this.#r.value?.artifact.expiresAt;
  }
}

// createResolver is new Resolver(artifact, trust, options).
/**
 * @param {unknown} artifact
 * @param {unknown} trust
 * @param {ResolverOptions} [options]
 * @returns {Resolver}
 */
export function createResolver(artifact, trust, options) {
  return new Resolver(artifact, trust, options);
}

/** decide's action: serve the envelope locally. */
export const ACTION_LOCAL = 'local';
/** decide's action: ask the backend. */
export const ACTION_ESCALATE = 'escalate';

// decide applies the site's fallback mode to a resolver result and
// returns {action, envelope}. Answers and choices are served locally. An
// escalation goes to the backend (action "escalate") only when the mode is
// "backend" and a backend is available; otherwise it is served locally,
// with a miss turned into offline, since "a backend answer is required"
// is no use without one. Stale and corrupt keep their reason even
// offline: they say what is wrong with the local knowledge. env is not
// modified; a missing env is a corrupt escalation.
/**
 * @param {Envelope | null | undefined} env
 * @param {string} mode
 * @param {boolean} backendAvailable
 * @returns {{action: string, envelope: Envelope}}
 */
export function decide(env, mode, backendAvailable) {
  if (env == null) env = escalate('', REASON_CORRUPT);
  let action = ACTION_LOCAL;
  if (env.outcome === OUTCOME_ESCALATION) {
    if (mode === FALLBACK_BACKEND && backendAvailable) action = ACTION_ESCALATE;
    else if (env.reason === REASON_MISS) env = escalationEnvelope(env.query, env.normalizedQuery, REASON_OFFLINE, MESSAGE_OFFLINE);
  }
  return { action, envelope: env };
}
