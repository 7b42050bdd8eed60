// normalizeKnowledgeKey is the one matching rule of the deterministic
// plane: two texts match when their keys are equal, with no prefix, token,
// fuzzy or semantic matching. The key is, in this order:
//
//   NFKC → trim (ECMAScript whitespace) → each \s+ run becomes one space
//   → toLocaleLowerCase('en-US') (full special casing: İ → i̇, final
//     sigma; lowercasing, not case folding: ß stays ß)
//
// Nothing is normalized again after lowercasing. Go (NormalizeKey) uses
// x/text's tables for the same steps; the shared vectors hold both to one
// output. A lone surrogate first becomes U+FFFD, the text Go would have
// received, so both sides compute the key of the same string.

import { toWellFormed } from './text.js';

const NON_ASCII = /[^\x00-\x7f]/;
const SPACES = /\s+/gu;

// English has no language-specific mappings in SpecialCasing.txt (only
// Lithuanian, Turkish and Azeri do), so toLocaleLowerCase('en-US') is
// toLowerCase() by definition, and engines run the latter without
// resolving a locale on every call (V8: about 20 times faster on a
// maximum artifact's 4,096 aliases). The probe keeps the definition
// authoritative: an engine whose two results differ on the special cases
// uses toLocaleLowerCase.
const PROBE = 'İΑΣ ΣΑ ẞ Σ. ǅ ΐ';
/** @type {(s: string) => string} */
const lower = PROBE.toLowerCase() === PROBE.toLocaleLowerCase('en-US') ? (s) => s.toLowerCase() : (s) => s.toLocaleLowerCase('en-US');

/**
 * @param {string} s
 * @returns {string}
 */
export function normalizeKnowledgeKey(s) {
  if (!NON_ASCII.test(s)) {
    // NFKC is the identity on ASCII and lowercasing has no special cases
    // there.
    return s.trim().replace(SPACES, ' ').toLowerCase();
  }
  return lower(toWellFormed(s).normalize('NFKC').trim().replace(SPACES, ' '));
}
