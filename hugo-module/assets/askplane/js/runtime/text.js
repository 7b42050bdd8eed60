// Text rules shared by every contract. The protocol is defined by what a
// JavaScript client does, so most rules here are the language's own:
// trimming is String.prototype.trim (the ECMAScript whitespace set, which
// trims U+FEFF but not NEL), and lengths are String.prototype.length
// (UTF-16 code units). The functions exist so the rules have one name and
// one place, shared with the Go implementation (internal/protocol).

import { MAX_IDENTIFIER_LEN } from './limits.js';

// trim is the zod .trim() every trimmed field goes through.
/**
 * @param {string} s
 * @returns {string}
 */
export function trim(s) {
  return s.trim();
}

// utf16Length is the length zod's min/max check.
/**
 * @param {string} s
 * @returns {number}
 */
export function utf16Length(s) {
  return s.length;
}

// lengthBetween reports whether s has min..max UTF-16 units.
/**
 * @param {string} s
 * @param {number} min
 * @param {number} max
 * @returns {boolean}
 */
export function lengthBetween(s, min, max) {
  return s.length >= min && s.length <= max;
}

// truncateUTF16 is s.slice(0, max) with one deliberate difference, taken
// from Go's TruncateUTF16: where the cut would split a surrogate pair, the
// whole pair is dropped instead of keeping a lone high surrogate, which a
// Go string cannot hold. Both implementations then agree on every query.
/**
 * @param {string} s
 * @param {number} max
 * @returns {string}
 */
export function truncateUTF16(s, max) {
  if (s.length <= max) return s;
  const c = s.charCodeAt(max - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(max) & 0xfc00) === 0xdc00 ? max - 1 : max);
}

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

// isSafeIdentifier: ^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$, ASCII only, so
// ids are safe in URLs, DOM ids and logs.
/**
 * @param {unknown} s
 * @returns {s is string}
 */
export function isSafeIdentifier(s) {
  return typeof s === 'string' && s.length <= MAX_IDENTIFIER_LEN && IDENTIFIER.test(s);
}

const CONTENT_HASH = /^sha256:[a-f0-9]{64}$/;

// isContentHash: "sha256:" and 64 lowercase hex digits. Uppercase hex is
// refused so that one digest has one spelling.
/**
 * @param {unknown} s
 * @returns {s is string}
 */
export function isContentHash(s) {
  return typeof s === 'string' && CONTENT_HASH.test(s);
}

// toWellFormed replaces every lone surrogate with U+FFFD. Go's JSON reader
// does exactly this with a lone "\ud83d" escape (a Go string cannot hold
// one), and TextEncoder does it when encoding; applying it wherever a
// string enters the protocol makes the widget see the same text as Go.
// The fallback's class, with the u flag, matches lone surrogates only: a
// well-formed pair is one code point, outside U+D800..U+DFFF.
/**
 * @type {(s: string) => string}
 */
export const toWellFormed =
  typeof (/** @type {any} */ (String.prototype).toWellFormed) === 'function'
    ? (s) => /** @type {any} */ (s).toWellFormed()
    : (s) => s.replace(/[\ud800-\udfff]/gu, '\ufffd');

// isWellFormed reports whether s holds no lone surrogate. Go strings are
// UTF-8 and cannot carry one, so a value that does is one Go could not
// have produced (see toWellFormed). A well-formed string comes back from
// toWellFormed unchanged, and engines return it as it is.
/**
 * @param {string} s
 * @returns {boolean}
 */
export const isWellFormed = (s) => toWellFormed(s) === s;
