// Session-scoped choice reservations.
// A choices answer offers suggestions; a click must be honoured once and
// only for what was actually offered. So the widget remembers, per chat
// session, each choice list it showed (its instance id and the exact JSON
// of its props) and the value each choice sends. A forged or replayed
// submission, or one for a list whose props were altered, is refused; a
// double click sends once.
//
// Lifecycle of a submission:
//   const { result, claim } = reservations.submit(session, instanceId, props, choiceId);
//   result === 'granted': send claim.value, then claim.commit() once the
//     send succeeded (the choice is used up) or claim.release() if it
//     failed (the user may retry). The first of the two wins.
//
// Memory is bounded whatever a page does: at most 256 sessions, least
// recently used first out, with at most 256 authorizations each, oldest
// first out. A session with a claim in flight is never evicted and a
// claimed authorization is never replaced or evicted, so a submission in
// progress cannot lose its reservation; when nothing can be evicted, new
// lists are simply not remembered and their clicks are unavailable.

import { MAX_IDENTIFIER_LEN } from './limits.js';
import { MAX_CHOICE_SESSIONS, MAX_SESSION_CHOICES } from './bounds.js';
import { OUTCOME_CHOICES } from './answer.js';
import { isSafeIdentifier } from './text.js';

export { MAX_CHOICE_SESSIONS, MAX_SESSION_CHOICES };

// CHOICES_INSTANCE_PREFIX marks a frame as a deterministic choice list,
// the only frames reservations govern.
/** @typedef {import('./answer.js').Envelope} Envelope */
/** @typedef {import('./answer.js').Suggestion} Suggestion */

/**
 * One remembered choice list: its exact props JSON, the value each choice
 * sends, and whether a submission holds it.
 * @typedef {{instanceId: string, props: string, values: Map<string, string>, claimed: boolean}} Authorization
 */

/**
 * One chat session's remembered choice lists.
 * @typedef {{id: string, auths: Map<string, Authorization>}} Session
 */

/** Marks a deterministic choice list's frame. */
export const CHOICES_INSTANCE_PREFIX = 'deterministic-choices-';

/** submit's result for a frame that is not a deterministic choice list. */
export const SUBMIT_NOT_DETERMINISTIC = 'not-deterministic';
/** submit's result for a choice it refuses. */
export const SUBMIT_UNAVAILABLE = 'unavailable';
/** submit's result for a choice reserved: send claim.value. */
export const SUBMIT_GRANTED = 'granted';

// sanitizeIdentifier turns s into a SafeIdentifier for a frame instance
// id: every UTF-16 unit outside [A-Za-z0-9._:-] becomes "-", the result is
// cut to 128, and fallback is used when it does not start with a letter or
// digit (the AgentsKit adapter does the same).
/**
 * @param {unknown} s
 * @param {string} fallback
 * @returns {string}
 */
export function sanitizeIdentifier(s, fallback) {
  const out = String(s).replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, MAX_IDENTIFIER_LEN);
  // Only its first unit can still break the rule.
  return isSafeIdentifier(out) ? out : fallback;
}

// choiceFrame returns the instance id and the exact props JSON of the
// choice-list frame for a choices envelope answering user message
// messageId, or null for any other envelope.
/**
 * @param {Envelope | null | undefined} env
 * @param {string} messageId
 * @returns {{instanceId: string, props: string} | null}
 */
export function choiceFrame(env, messageId) {
  if (env == null || env.outcome !== OUTCOME_CHOICES || !Array.isArray(env.suggestions) || env.suggestions.length === 0) {
    return null;
  }
  const props = JSON.stringify({
    prompt: env.message,
    choices: env.suggestions.map((s) => ({ id: s.id, label: s.label, description: s.value })),
  });
  return { instanceId: sanitizeIdentifier(CHOICES_INSTANCE_PREFIX + messageId, 'deterministic-choices'), props };
}

// evict drops the first (least recently touched, or oldest) member of map
// that busy does not hold on to, and reports false when busy holds every
// one.
/**
 * @template V
 * @param {Map<string, V>} map
 * @param {(v: V) => boolean} busy
 * @returns {boolean}
 */
function evict(map, busy) {
  for (const [k, v] of map) {
    if (!busy(v)) return map.delete(k);
  }
  return false;
}

// A session has a claim in flight when one of its authorizations is
// claimed: a claimed authorization is never replaced or evicted, and is
// unclaimed before a commit removes it.
const claimed = (/** @type {Authorization} */ a) => a.claimed;
const inFlight = (/** @type {Session} */ s) => [...s.auths.values()].some(claimed);

/** The choices a page offered, per chat session, and their claims (see the file comment). */
export class Reservations {
  // Maps keep insertion order: a Map is the LRU list (first = least
  // recently touched), and moving to the back is delete + set.
  /** @type {Map<string, Session>} */
  #sessions = new Map(); // sessionId → {id, auths: instanceId → authorization}

  // remember records that the choice list instanceId, with props (its
  // exact JSON), offered suggestions in sessionId. Only deterministic
  // choice lists are remembered. It touches the session. An authorization
  // that is being claimed is left as it is.
  /**
   * @param {string} sessionId
   * @param {string} instanceId
   * @param {string} props
   * @param {Iterable<{id: string, value: string}>} suggestions
   */
  remember(sessionId, instanceId, props, suggestions) {
    if (!String(instanceId).startsWith(CHOICES_INSTANCE_PREFIX)) return;
    const values = new Map();
    for (const s of suggestions) values.set(s.id, s.value);
    let s = this.#touch(sessionId);
    if (s === undefined) {
      if (this.#sessions.size >= MAX_CHOICE_SESSIONS && !evict(this.#sessions, inFlight)) return;
      s = { id: sessionId, auths: new Map() };
      this.#sessions.set(sessionId, s);
    }
    const prev = s.auths.get(instanceId);
    if (prev?.claimed) return;
    // Replacing keeps the authorization's place in eviction order; a new
    // one may need room.
    if (prev === undefined && s.auths.size >= MAX_SESSION_CHOICES && !evict(s.auths, claimed)) return;
    s.auths.set(instanceId, { instanceId, props: String(props), values, claimed: false });
  }

  // rememberChoices remembers the choice-list frame of a choices envelope
  // answering user message messageId; other envelopes are ignored.
  /**
   * @param {string} sessionId
   * @param {string} messageId
   * @param {Envelope} env
   */
  rememberChoices(sessionId, messageId, env) {
    const frame = choiceFrame(env, messageId);
    if (frame !== null) this.remember(sessionId, frame.instanceId, frame.props, /** @type {Suggestion[]} */ (env.suggestions));
  }

  // #touch moves a remembered session to the back of the LRU list and
  // returns it, or undefined.
  /**
   * @param {string} sessionId
   * @returns {Session | undefined}
   */
  #touch(sessionId) {
    const s = this.#sessions.get(sessionId);
    if (s !== undefined) {
      this.#sessions.delete(sessionId);
      this.#sessions.set(sessionId, s);
    }
    return s;
  }

  // submit reserves choiceId of the list instanceId (with props, the exact
  // JSON of the submitted list's props) in sessionId. It returns
  // {result: 'not-deterministic'} for frames that are not deterministic
  // choice lists; {result: 'unavailable'} when the session or list is
  // unknown, already being submitted, its props differ by one byte, or
  // choiceId was not offered; otherwise {result: 'granted', claim}, and
  // the session is touched.
  /**
   * @param {string} sessionId
   * @param {string} instanceId
   * @param {string} props
   * @param {string} choiceId
   * @returns {{result: string, claim: Claim | null}}
   */
  submit(sessionId, instanceId, props, choiceId) {
    if (!String(instanceId).startsWith(CHOICES_INSTANCE_PREFIX)) return { result: SUBMIT_NOT_DETERMINISTIC, claim: null };
    const a = this.#sessions.get(sessionId)?.auths.get(instanceId);
    if (a === undefined || a.claimed || a.props !== props || !a.values.has(choiceId)) return { result: SUBMIT_UNAVAILABLE, claim: null };
    a.claimed = true;
    return { result: SUBMIT_GRANTED, claim: new Claim(/** @type {string} */ (a.values.get(choiceId)), this.#sessions, /** @type {Session} */ (this.#touch(sessionId)), a) };
  }

  // releaseSession forgets a session and all its authorizations, claimed
  // or not (the chat was cleared). Outstanding claims stay harmless:
  // committing or releasing them changes nothing.
  /**
   * @param {string} sessionId
   */
  releaseSession(sessionId) {
    this.#sessions.delete(sessionId);
  }

  // size is the number of sessions remembered.
  get size() {
    return this.#sessions.size;
  }
}

/**
 * Claim is a granted submission: send value, then commit() or release().
 * Both are idempotent and mutually exclusive: the first call wins.
 */
export class Claim {
  /** @type {Map<string, Session>} */
  #sessions;
  /** @type {Session} */
  #s;
  /** @type {Authorization} */
  #a;
  #settled = false;

  /**
   * @param {string} value
   * @param {Map<string, Session>} sessions
   * @param {Session} s
   * @param {Authorization} a
   */
  constructor(value, sessions, s, a) {
    this.value = value;
    this.#sessions = sessions;
    this.#s = s;
    this.#a = a;
  }

  // commit consumes the authorization. Its session is forgotten when it
  // has no authorizations left, unless the session was released and
  // created again meanwhile: a late commit must not delete a newer one.
  commit() {
    if (this.#settled) return;
    this.release();
    const s = this.#s;
    const a = this.#a;
    if (s.auths.get(a.instanceId) === a) s.auths.delete(a.instanceId);
    if (s.auths.size === 0 && this.#sessions.get(s.id) === s) this.#sessions.delete(s.id);
  }

  // release returns the authorization so the choice can be sent again.
  release() {
    if (this.#settled) return;
    this.#settled = true;
    this.#a.claimed = false;
  }
}
