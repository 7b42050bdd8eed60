// Bounded JSON decoding and the payload-free diagnostics every decoder
// returns. A decode result is {ok: true, value} or {ok: false, diagnostic}
// with diagnostic {code, message, retryable: false}; codes and messages are
// those of internal/protocol/diagnostic.go and never quote the input.
//
// JSON.parse does the parsing. Around it, three rules make the widget read
// a payload exactly as Go's ecmajson does:
//
//  1. The UTF-8 byte length is checked before parsing (bytes as given, or
//     a string's UTF-8 length), so an oversized payload costs nothing.
//  2. Nesting deeper than MAX_JSON_DEPTH (128) is refused, as Go refuses
//     it; JSON.parse has no bound.
//  3. A lone surrogate escape ("\ud83d" alone) decodes to U+FFFD, as in
//     Go, whose strings cannot hold one. Rare, so it costs a regexp test
//     unless such an escape is present (see goSurrogates).

import { MAX_JSON_DEPTH, VERSION } from './limits.js';
import { isWellFormed, toWellFormed } from './text.js';
import { decodeUTF8, utf8LengthExceeds } from './utf8.js';

/**
 * Diagnostic codes of the deterministic plane.
 */
export const CODE_INVALID_PAYLOAD = 'DETERMINISTIC_INVALID_PAYLOAD';
/** A payload of the right protocol and another version. */
export const CODE_UNSUPPORTED_VERSION = 'DETERMINISTIC_UNSUPPORTED_VERSION';
/** A payload over its size limit. */
export const CODE_LIMIT_EXCEEDED = 'DETERMINISTIC_LIMIT_EXCEEDED';
/** An artifact whose content hash does not match. */
export const CODE_HASH_MISMATCH = 'DETERMINISTIC_HASH_MISMATCH';

/**
 * A payload-free diagnostic: a stable code, a fixed message that names
 * the rule that failed, never the input.
 * @typedef {{code: string, message: string, retryable: false}} Diagnostic
 */

/**
 * A decode result: the value, or why there is none.
 * @template T
 * @typedef {{ok: true, value: T} | {ok: false, diagnostic: Diagnostic}} Result
 */

/**
 * A failed decode result.
 * @typedef {{ok: false, diagnostic: Diagnostic}} Failure
 */

// Each call returns a fresh object, so a caller that edits a diagnostic
// cannot change the next one. The messages name the rule that failed,
// never the input.
/**
 * @param {string} code
 * @param {string} message
 * @returns {Diagnostic}
 */
export const diagnostic = (code, message) => ({ code, message, retryable: false });
/** @returns {Diagnostic} */
export const invalid = () => diagnostic(CODE_INVALID_PAYLOAD, 'Deterministic payload is invalid.');
/** @returns {Diagnostic} */
export const invalidJSON = () => diagnostic(CODE_INVALID_PAYLOAD, 'Deterministic payload is not valid JSON.');
/** @returns {Diagnostic} */
export const unsupportedVersion = () => diagnostic(CODE_UNSUPPORTED_VERSION, 'Deterministic payload version is not supported.');
/** @returns {Diagnostic} */
export const limitExceeded = () => diagnostic(CODE_LIMIT_EXCEEDED, 'Deterministic payload exceeds its size limit.');
/** @returns {Diagnostic} */
export const hashMismatch = () => diagnostic(CODE_HASH_MISMATCH, 'Deterministic artifact content hash does not match.');

/**
 * @template T
 * @param {T} value
 * @returns {{ok: true, value: T}}
 */
export const ok = (value) => ({ ok: true, value });
/**
 * @param {Diagnostic} diag
 * @returns {Failure}
 */
export const fail = (diag) => ({ ok: false, diagnostic: diag });

// readText turns a payload (bytes or string) into the text Go would parse,
// or returns null when it is over limit bytes. Bytes (an ArrayBuffer, as
// fetch's arrayBuffer() gives, or any view of one) are decoded as Go
// decodes them; a string is made well-formed, which is what encoding it
// as UTF-8 (TextEncoder) and handing it to Go would do. Anything else is
// not a payload and reads as undefined.
/**
 * @param {unknown} input
 * @param {number} limit
 * @returns {string | null | undefined}
 */
export function readText(input, limit) {
  if (typeof input === 'string') return utf8LengthExceeds(input, limit) ? null : toWellFormed(input);
  const view = ArrayBuffer.isView(input);
  if (!view && !(input instanceof ArrayBuffer)) return undefined;
  const bytes = view ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength) : new Uint8Array(input);
  return bytes.length > limit ? null : decodeUTF8(bytes);
}

// A lone surrogate escape, or an escaped backslash (matched first, so the
// "u" after "\\" is never read as an escape).
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const ESCAPES = /\\\\|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g;

// goSurrogates rewrites each lone surrogate escape to \ufffd, which is
// what Go's reader makes of it: a high surrogate escape followed by a low
// one is a pair and stays; any other surrogate escape is one U+FFFD.
// Because this happens in the text, before JSON.parse, keys that differ
// only in their lone surrogates become one key, the last value winning at
// the first key's position, exactly as in Go. Raw surrogates need no care:
// the text is well-formed, so they only come in pairs.
/**
 * @param {string} text
 * @returns {string}
 */
function goSurrogates(text) {
  return text.replace(ESCAPES, (m) => (m.length === 2 || m.length === 12 ? m : '\\ufffd'));
}

// parseJSON parses text as Go's ecmajson.Parse does. It returns the value,
// or undefined (which no JSON text parses to) when Go would refuse it.
/**
 * @param {string} text
 * @returns {any}
 */
export function parseJSON(text) {
  if (SURROGATE_ESCAPE.test(text)) text = goSurrogates(text);
  try {
    const value = JSON.parse(text);
    return withinDepth(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

// withinDepth checks the nesting bound, iteratively so a hostile depth
// never reaches the call stack. Only containers are visited.
/**
 * @param {unknown} root
 * @returns {boolean}
 */
function withinDepth(root) {
  if (typeof root !== 'object' || root === null) return true;
  /** @type {any[]} */
  const stack = [root, 1];
  while (stack.length > 0) {
    const depth = stack.pop();
    const v = stack.pop();
    if (depth > MAX_JSON_DEPTH) return false;
    const children = Object.values(v); // an array's too
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (typeof c === 'object' && c !== null) stack.push(c, depth + 1);
    }
  }
  return true;
}

// isObject reports a JSON object: not null, not an array.
/**
 * @param {unknown} v
 * @returns {v is Record<string, any>}
 */
export function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const hasOwn = Object.prototype.hasOwnProperty;

// member returns o's own member key, or undefined when it is absent. Only
// own members count: a payload cannot reach Object.prototype through a
// name like "constructor". A present null stays null, distinct from
// absent: zod's .optional() rejects null, and so does every decoder here.
/**
 * @param {Record<string, any>} o
 * @param {string} key
 * @returns {any}
 */
export function member(o, key) {
  return hasOwn.call(o, key) ? o[key] : undefined;
}

// has reports whether o has an own member key.
/**
 * @param {object} o
 * @param {string} key
 * @returns {boolean}
 */
export function has(o, key) {
  return hasOwn.call(o, key);
}

// header classifies a payload's protocol and version before its schema
// runs: a matching protocol with a numeric version other than 1 is
// UNSUPPORTED_VERSION; anything else off is INVALID_PAYLOAD. It returns a
// failed result, or null.
/**
 * @param {unknown} root
 * @param {string} protocol
 * @returns {Failure | null}
 */
export function header(root, protocol) {
  if (!isObject(root)) return fail(invalid());
  const v = member(root, 'version');
  if (member(root, 'protocol') !== protocol || typeof v !== 'number') return fail(invalid());
  return v === VERSION ? null : fail(unsupportedVersion());
}

// parseDocument reads readText's result as a document of protocol: over
// its limit, not a payload, not JSON or a wrong header each fail with
// their diagnostic; otherwise it returns {ok: true, value}, the parsed
// root, for the schema to check.
/**
 * @param {string | null | undefined} text
 * @param {string} protocol
 * @returns {Result<any>}
 */
export function parseDocument(text, protocol) {
  if (text === null) return fail(limitExceeded());
  if (text === undefined) return fail(invalid());
  const value = parseJSON(text);
  if (value === undefined) return fail(invalidJSON());
  return header(value, protocol) ?? ok(value);
}

// Schema checks throw; schema() catches at a decoder's top and returns
// the payload-free INVALID_PAYLOAD, so decode functions read as a straight
// list of fields, as the Go decoder does. Whatever else throws counts the
// same: an object given by a caller may throw from a getter or a proxy,
// and nothing internal may leak into a diagnostic. need throws itself: no
// one reads what is thrown, so any value will do, and no Error (with its
// stack) is built per failed rule.
/**
 * @param {unknown} ok
 * @returns {asserts ok}
 */
export function need(ok) {
  if (!ok) throw need;
}

// schema returns check(), or the INVALID_PAYLOAD failure when it throws.
/**
 * @template T
 * @param {() => T} check
 * @returns {T | Failure}
 */
export function schema(check) {
  try {
    return check();
  } catch {
    return fail(invalid());
  }
}

// object returns v when it is an object.
/**
 * @param {unknown} v
 * @returns {Record<string, any>}
 */
export function object(v) {
  need(isObject(v));
  return v;
}

// field returns o's required member key, read once, when valid (if given)
// accepts it.
/**
 * @param {Record<string, any>} o
 * @param {string} key
 * @param {(v: any) => boolean} [valid]
 * @returns {any}
 */
export function field(o, key, valid) {
  need(hasOwn.call(o, key));
  const v = o[key];
  need(!valid || valid(v));
  return v;
}

// raw is an untrimmed, length-checked string field.
/**
 * @param {unknown} v
 * @param {number} min
 * @param {number} max
 * @returns {string}
 */
export function raw(v, min, max) {
  need(typeof v === 'string' && v.length >= min && v.length <= max);
  return v;
}

// text is a trimmed string field: trimmed first, then length-checked, as
// zod's .trim().min().max() rewrites the value before checking it. It
// must also be well-formed: a decoded payload always is (see the file
// comment), but an object built in JavaScript may hold a lone surrogate,
// which no Go peer could hash or match; Go refuses the invalid UTF-8 that
// is its counterpart.
/**
 * @param {unknown} v
 * @param {number} min
 * @param {number} max
 * @returns {string}
 */
export function text(v, min, max) {
  need(typeof v === 'string');
  const s = v.trim();
  need(s.length >= min && s.length <= max && isWellFormed(s));
  return s;
}

// array returns v when it is an array of min..max elements, or, given
// each, a fresh array of each(element, index). The elements are read by
// index, holes as undefined: an array built in JavaScript may be sparse,
// and map would skip its holes unchecked.
/**
 * @template T
 * @param {any} v
 * @param {number} min
 * @param {number} max
 * @param {(element: any, index: number) => T} [each]
 * @returns {any[]}
 */
export function array(v, min, max, each) {
  const n = Array.isArray(v) ? v.length : -1;
  need(n >= min && n <= max);
  if (!each) return v;
  const out = [];
  for (let i = 0; i < n; i++) out.push(each(v[i], i));
  return out;
}

// oneOf returns v when it is one of the allowed strings.
/**
 * @param {unknown} v
 * @param {...string} allowed
 * @returns {string}
 */
export function oneOf(v, ...allowed) {
  need(typeof v === 'string' && allowed.includes(v));
  return v;
}

// strictKeys reports whether o has no member other than allowed. A
// "__proto__" member is not counted: zod 4 skips it when it looks for
// unrecognized keys (so it never reaches the prototype setter) and leaves
// it out of its output; JSON.parse made it an ordinary own property.
/**
 * @param {object} o
 * @param {string[]} allowed
 * @returns {boolean}
 */
export function strictKeys(o, allowed) {
  return Object.keys(o).every((k) => k === '__proto__' || allowed.includes(k));
}
