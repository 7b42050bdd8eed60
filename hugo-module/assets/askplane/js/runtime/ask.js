// agentskit.chat.ask v1: the request the widget posts when a question
// escalates, and the NDJSON events the sidecar streams back (Go:
// internal/protocol/ask.go and askevents.go).
//
// The request schema is strict: a member it does not name (a client-chosen
// siteId or corpus, say) is refused, because authority never comes from
// the body. So is every event variant: a line with an unknown member is
// inert. The event decoder is bounded: at most 4,096 lines per call, lines
// and kept partials of at most 1 MiB, so a hostile stream costs bounded
// memory and time.

import {
  ASK_PROTOCOL,
  MAX_ASK_ARG_KEY_LEN,
  MAX_ASK_BODY_BYTES,
  MAX_ASK_CONTENT_LEN,
  MAX_ASK_DELTA_LEN,
  MAX_ASK_ERROR_LEN,
  MAX_ASK_EVENT_BYTES,
  MAX_ASK_EVENT_LINES,
  MAX_ASK_MESSAGES,
  MAX_ASK_MODEL_LEN,
  MAX_ASK_TOOL_ID_LEN,
  MAX_ASK_TOOL_NAME_LEN,
  VERSION,
} from './limits.js';
import { isSafeIdentifier, toWellFormed } from './text.js';
import { utf8LengthExceeds, utf8Length } from './utf8.js';
import { OUTCOME_ESCALATION, decodeEnvelopeValue, envelopeDocument, escalationDocument } from './answer.js';
import { diagnostic, has, isObject, member, parseJSON, readText, strictKeys } from './json.js';

// ---- Request -------------------------------------------------------------

/** @typedef {import('./answer.js').Envelope} Envelope */

/**
 * One message of an Ask request's history.
 * @typedef {{role: string, content: string}} AskMessage
 */

/**
 * An Ask request: the history, the question last, and the escalation that
 * led here (deterministic).
 * @typedef {{sessionId?: string, messages: AskMessage[], deterministic?: Envelope}} AskRequest
 */

/**
 * One Ask event, members in schema order, type first (tool args: the
 * canonical args object).
 * @typedef {{type: 'text', delta: string}
 *   | {type: 'tool', id: string, name: string, args: Record<string, any>}
 *   | {type: 'done', model?: string}
 *   | {type: 'error', message: string, code?: string, retryable?: boolean}} AskEvent
 */

/** The role of the reader's turns. */
export const ROLE_USER = 'user';
/** The role of the answers' turns. */
export const ROLE_ASSISTANT = 'assistant';

/** The code of every refused Ask request. */
export const CODE_ASK_INVALID_REQUEST = 'ASK_INVALID_REQUEST';
const MSG_ASK_INVALID = 'Ask request is invalid.';
const MSG_ASK_INVALID_JSON = 'Ask request is not valid JSON.';
const MSG_ASK_TOO_LARGE = 'Ask request body is too large.';

const askFail = (/** @type {string} */ message) => /** @type {import('./json.js').Failure} */ ({ ok: false, diagnostic: diagnostic(CODE_ASK_INVALID_REQUEST, message) });

// askRequestDocument builds the request as the reference client sends it:
// {protocol, version, sessionId?, messages, deterministic?} in that order.
// sessionId is written when non-empty; deterministic (the escalation
// envelope that led here) when present, written by writeEnvelope. Like
// Go's MarshalJSON it does not validate; the sidecar does.
/**
 * @param {AskRequest} request
 * @param {(env: Envelope) => Envelope} writeEnvelope
 * @returns {Record<string, any>}
 */
export function askRequestDocument({ sessionId, messages, deterministic }, writeEnvelope) {
  /** @type {Record<string, any>} */
  const doc = { protocol: ASK_PROTOCOL, version: VERSION };
  if (typeof sessionId === 'string' && sessionId !== '') doc.sessionId = sessionId;
  doc.messages = messages.map((m) => ({ role: m.role, content: m.content }));
  if (deterministic != null) doc.deterministic = writeEnvelope(deterministic);
  return doc;
}

// encodeAskRequest returns the request body text.
/**
 * @param {AskRequest} request
 * @returns {string}
 */
export function encodeAskRequest(request) {
  return JSON.stringify(askRequestDocument(request, envelopeDocument));
}

// buildAskRequest returns the body the widget posts when a question
// escalates: the history (oldest first, {role, content} turns), then the
// question as the last user turn, and the escalation envelope that
// explains why the local plane did not answer (only an escalation may
// travel as deterministic context; anything else is left out). The oldest
// turns are dropped until the body fits the server's limits (64 messages,
// 65,536 bytes), so a long chat never turns into a 400 or 413. It throws
// a RangeError when the question alone cannot fit (over 16,384 units).
/**
 * @param {{question: string, history?: AskMessage[], sessionId?: string, escalation?: Envelope}} request
 * @returns {string}
 */
export function buildAskRequest({ question, history = [], sessionId, escalation }) {
  if (typeof question !== 'string' || question.length > MAX_ASK_CONTENT_LEN) {
    throw new RangeError('askplane: the question must be a string of at most 16,384 units');
  }
  const deterministic = escalation != null && escalation.outcome === OUTCOME_ESCALATION ? escalation : undefined;
  const turns = history.filter(
    (m) => (m.role === ROLE_USER || m.role === ROLE_ASSISTANT) && typeof m.content === 'string' && m.content.length <= MAX_ASK_CONTENT_LEN,
  );
  let start = Math.max(0, turns.length - (MAX_ASK_MESSAGES - 1));
  for (;;) {
    const messages = [...turns.slice(start), { role: ROLE_USER, content: question }];
    // deterministic is an escalation or absent: escalationDocument writes
    // it as envelopeDocument would.
    const body = JSON.stringify(askRequestDocument({ sessionId, messages, deterministic }, escalationDocument));
    if (!utf8LengthExceeds(body, MAX_ASK_BODY_BYTES)) return body;
    if (start >= turns.length) throw new RangeError('askplane: the Ask request does not fit in 65,536 bytes');
    start++;
  }
}

// decodeAskRequest decodes a request body (bytes or string) as the Ask
// server does. Every failure is ASK_INVALID_REQUEST with a fixed message:
// over 65,536 bytes (checked before parsing), not JSON, or a schema
// failure. One leading byte order mark is ignored (the reference server's
// TextDecoder drops it). A present null is refused for every optional
// member. The value is {sessionId?, messages, deterministic?}.
/**
 * @param {unknown} input
 * @returns {import('./json.js').Result<AskRequest>}
 */
export function decodeAskRequest(input) {
  let text = readText(input, MAX_ASK_BODY_BYTES);
  if (text === null) return askFail(MSG_ASK_TOO_LARGE);
  if (text === undefined) return askFail(MSG_ASK_INVALID);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const root = parseJSON(text);
  if (root === undefined) return askFail(MSG_ASK_INVALID_JSON);
  if (!isObject(root) || !strictKeys(root, ['protocol', 'version', 'sessionId', 'messages', 'deterministic'])) {
    return askFail(MSG_ASK_INVALID);
  }
  const bad = () => askFail(MSG_ASK_INVALID);
  if (has(root, 'protocol') && root.protocol !== ASK_PROTOCOL) return bad();
  if (has(root, 'version') && root.version !== VERSION) return bad();
  /** @type {AskRequest} */
  const req = /** @type {any} */ ({});
  if (has(root, 'sessionId')) {
    if (!isSafeIdentifier(root.sessionId)) return bad();
    req.sessionId = root.sessionId;
  }
  const list = has(root, 'messages') ? root.messages : undefined;
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_ASK_MESSAGES) return bad();
  req.messages = [];
  for (const m of list) {
    if (!isObject(m) || !strictKeys(m, ['role', 'content'])) return bad();
    const role = has(m, 'role') ? m.role : undefined;
    const content = has(m, 'content') ? m.content : undefined;
    if ((role !== ROLE_USER && role !== ROLE_ASSISTANT) || typeof content !== 'string' || content.length > MAX_ASK_CONTENT_LEN) {
      return bad();
    }
    req.messages.push({ role, content });
  }
  if (has(root, 'deterministic')) {
    // The answer schema inside strips unknown members; only an escalation
    // may travel as deterministic context.
    const env = decodeEnvelopeValue(root.deterministic);
    if (!env.ok || env.value.outcome !== OUTCOME_ESCALATION) return bad();
    req.deterministic = env.value;
  }
  return { ok: true, value: req };
}

// ---- Events --------------------------------------------------------------

// Events are plain objects in schema order, type first, so
// JSON.stringify(event) is the event's wire form:
//   {type: 'text', delta}
//   {type: 'tool', id, name, args}      args: the canonical args object
//   {type: 'done', model?}
//   {type: 'error', message, code?, retryable?}

// toolArgs returns the value zod's z.record returns for an args object:
// its members in own-key order, except a top-level "__proto__", which
// z.record skips; nested values pass through as JSON.parse built them. It
// returns null when a top-level key is over 128 units.
/**
 * @param {Record<string, any>} v
 * @returns {Record<string, any> | null}
 */
function toolArgs(v) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const k of Object.keys(v)) {
    if (k === '__proto__') continue;
    if (k.length > MAX_ASK_ARG_KEY_LEN) return null;
    out[k] = v[k];
  }
  return out;
}

// A check returns a member's value, or null when it breaks its rule.
const bounded = (/** @type {number} */ max, min = 0) => (/** @type {unknown} */ v) => (typeof v === 'string' && v.length >= min && v.length <= max ? v : null);

// EVENTS lists each event type's members after type, in schema order, as
// [name, required, check]; a type has no other member.
/** @type {Map<unknown, Array<[string, boolean, (v: any) => any]>>} */
const EVENTS = new Map(
  /** @type {any} */ ([
  ['text', [['delta', true, bounded(MAX_ASK_DELTA_LEN)]]],
  [
    'tool',
    [
      ['id', true, bounded(MAX_ASK_TOOL_ID_LEN)],
      ['name', true, bounded(MAX_ASK_TOOL_NAME_LEN)],
      ['args', true, (/** @type {unknown} */ v) => (isObject(v) ? toolArgs(v) : null)],
    ],
  ],
  // An empty model is present, not absent.
  ['done', [['model', false, bounded(MAX_ASK_MODEL_LEN)]]],
  [
    'error',
    [
      ['message', true, bounded(MAX_ASK_ERROR_LEN, 1)],
      // At most 128 characters, MAX_ASK_ERROR_CODE_LEN.
      ['code', false, (/** @type {unknown} */ v) => (typeof v === 'string' && /^[A-Z][A-Z0-9_]{0,127}$/.test(v) ? v : null)],
      ['retryable', false, (/** @type {unknown} */ v) => (typeof v === 'boolean' ? v : null)],
    ],
  ],
]),
);

// decodeAskEvent decodes one event from its JSON text, or returns null.
/**
 * @param {string} text
 * @returns {AskEvent | null}
 */
export function decodeAskEvent(text) {
  const o = parseJSON(text);
  if (!isObject(o)) return null;
  const type = member(o, 'type');
  const members = EVENTS.get(type);
  if (members === undefined || !strictKeys(o, ['type', ...members.map((m) => m[0])])) return null;
  /** @type {Record<string, any>} */
  const ev = { type };
  for (const [name, required, check] of members) {
    if (!has(o, name)) {
      if (required) return null;
      continue;
    }
    const v = check(o[name]);
    if (v === null) return null;
    ev[name] = v;
  }
  return /** @type {AskEvent} */ (ev);
}

// decodeAskLine decodes one NDJSON line: trimmed of ECMAScript whitespace
// (so CRLF works), skipped when empty or over 1 MiB of UTF-8 after
// trimming.
// A lone surrogate reads as U+FFFD, as in Go; the line is complete, so no
// pair can be split here.
/**
 * @param {string} line
 * @returns {AskEvent | null}
 */
function decodeAskLine(line) {
  line = toWellFormed(line).trim();
  if (line === '' || utf8LengthExceeds(line, MAX_ASK_EVENT_BYTES)) return null;
  return decodeAskEvent(line);
}

// decodeAskEvents decodes the complete lines of an NDJSON buffer (a
// string) exactly as the reference decodeAskEvents and Go's
// DecodeAskEvents do, returning {events, rest, discardedPartial}:
//
//  - The buffer is split on "\n"; each line is trimmed; empty lines and
//    lines over 1 MiB after trimming are skipped; a line that is not JSON,
//    has an unknown type, breaks a limit or has an unknown member is
//    inert.
//  - At most 4,096 lines are looked at, blank and invalid ones included.
//    When the budget is used up, every remaining complete line is
//    dropped: decoding jumps past the buffer's last newline.
//  - What follows the last newline looked at is rest, the partial line to
//    prepend to the next read. A partial over 1 MiB is dropped instead
//    (rest "", discardedPartial true): the caller must then discard input
//    up to the next newline, so the line's tail never reads as an event
//    (AskEventDecoder does).
//
// Sizes are UTF-8 bytes of the string; a lone surrogate counts, and reads,
// as U+FFFD, as in Go.
/**
 * @param {string} buf
 * @returns {{events: AskEvent[], rest: string, discardedPartial: boolean}}
 */
export function decodeAskEvents(buf) {
  /** @type {AskEvent[]} */
  const events = [];
  let cursor = 0;
  let lines = 0;
  while (lines < MAX_ASK_EVENT_LINES) {
    const i = buf.indexOf('\n', cursor);
    if (i < 0) break;
    const line = buf.slice(cursor, i);
    cursor = i + 1;
    lines++;
    const ev = decodeAskLine(line);
    if (ev !== null) events.push(ev);
  }
  if (lines === MAX_ASK_EVENT_LINES) {
    const last = buf.lastIndexOf('\n');
    if (last >= cursor) cursor = last + 1;
  }
  const rest = buf.slice(cursor);
  if (utf8LengthExceeds(rest, MAX_ASK_EVENT_BYTES)) return { events, rest: '', discardedPartial: true };
  return { events, rest, discardedPartial: false };
}

// encodeAskEvent returns an event's JSON line without its newline, members
// in schema order. Tool args that are not an object are written as {}.
/**
 * @param {AskEvent} ev
 * @returns {string}
 */
export function encodeAskEvent(ev) {
  switch (ev.type) {
    case 'text':
      return JSON.stringify({ type: 'text', delta: ev.delta });
    case 'tool':
      return JSON.stringify({ type: 'tool', id: ev.id, name: ev.name, args: isObject(ev.args) ? toolArgs(ev.args) ?? {} : {} });
    case 'done':
      return JSON.stringify(ev.model === undefined || ev.model === null ? { type: 'done' } : { type: 'done', model: ev.model });
    case 'error': {
      /** @type {Record<string, any>} */
      const doc = { type: 'error', message: ev.message };
      if (typeof ev.code === 'string' && ev.code !== '') doc.code = ev.code;
      if (typeof ev.retryable === 'boolean') doc.retryable = ev.retryable;
      return JSON.stringify(doc);
    }
  }
  throw new TypeError('askplane: unknown Ask event type');
}

/**
 * AskEventDecoder decodes a stream pushed to it in string pieces of any
 * size, with bounded memory: it keeps at most one partial line of 1 MiB.
 * Lines decode as in decodeAskEvents, with two differences that make the
 * result independent of how the stream is cut (Go: AskEventReader):
 *
 *  - There is no line budget; every complete line is looked at.
 *  - A line is dropped when its raw UTF-8 size, before trimming, exceeds
 *    1 MiB, the size at which decodeAskEvents would have discarded it as a
 *    partial had it been split. The decoder then discards input up to the
 *    next newline, so the tail of that line never becomes an event, even
 *    when the tail is itself a valid event.
 *
 * end() decodes a final line that has no newline, as the reference client
 * does by decoding rest + "\n" at the end of the stream.
 */
export class AskEventDecoder {
  #partial = ''; // the pending partial line
  #bytes = 0; // its UTF-8 size
  #discard = false; // dropping input up to the next newline

  // push consumes a piece of the stream and returns the events of the
  // lines it completes.
  /**
   * @param {string} chunk
   * @returns {AskEvent[]}
   */
  push(chunk) {
    /** @type {AskEvent[]} */
    const events = [];
    const segments = chunk.split('\n');
    const tail = /** @type {string} */ (segments.pop()); // after the last newline: a partial line
    for (const seg of segments) {
      if (!this.#discard && this.#bytes + utf8Length(seg) <= MAX_ASK_EVENT_BYTES) {
        const ev = decodeAskLine(this.#partial + seg);
        if (ev !== null) events.push(ev);
      }
      this.#reset(false);
    }
    if (!this.#discard) {
      const total = this.#bytes + utf8Length(tail);
      if (total > MAX_ASK_EVENT_BYTES) {
        this.#reset(true);
      } else {
        this.#partial += tail;
        this.#bytes = total;
      }
    }
    return events;
  }

  // end returns the event of a final line without a newline, if any.
  /** @returns {AskEvent[]} */
  end() {
    const line = this.#partial;
    this.#reset(false);
    const ev = line === '' ? null : decodeAskLine(line);
    return ev === null ? [] : [ev];
  }

  /** @param {boolean} discard */
  #reset(discard) {
    this.#partial = '';
    this.#bytes = 0;
    this.#discard = discard;
  }
}

// readAskEvents yields the events of an Ask response body: a
// ReadableStream of bytes (response.body) or any async iterable of
// Uint8Array. Bytes are decoded with a streaming TextDecoder, so a
// character split across chunks is joined before lines are cut; a read
// error (an aborted fetch, a reset connection) is thrown after the events
// already complete, and the pending partial line is dropped.
/**
 * @param {ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>} body
 * @returns {AsyncGenerator<AskEvent, void, undefined>}
 */
export async function* readAskEvents(body) {
  // The BOM is kept, as Go keeps its bytes; trimming removes it from the
  // first line, since U+FEFF is ECMAScript whitespace.
  const text = new TextDecoder('utf-8', { ignoreBOM: true });
  const decoder = new AskEventDecoder();
  if (typeof (/** @type {any} */ (body))?.getReader === 'function') {
    const reader = /** @type {ReadableStream<Uint8Array>} */ (body).getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        yield* decoder.push(text.decode(value, { stream: true }));
      }
      finished = true;
    } finally {
      // A consumer that stops early (the stop button) cancels the body,
      // so the connection is not left streaming.
      if (!finished) reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  } else {
    for await (const chunk of /** @type {AsyncIterable<Uint8Array | string>} */ (body)) {
      yield* decoder.push(typeof chunk === 'string' ? chunk : text.decode(chunk, { stream: true }));
    }
  }
  yield* decoder.push(text.decode());
  yield* decoder.end();
}
