// SafeHref: the only links an artifact, an envelope or an Ask source may
// carry, because the widget renders them as clickable links. In order:
//
//  1. 1..2048 UTF-16 units.
//  2. No C0 control, DEL or backslash anywhere: browsers drop tab/LF/CR
//     and read "\" as "/", which is how "/\evil" becomes "//evil".
//  3. No leading "//" (protocol-relative leaves the origin).
//  4. Without a scheme (^[A-Za-z][A-Za-z0-9+.-]*:) only a root-relative
//     path ("/" not followed by "/"); "docs/x", "#f", "?q" resolve
//     differently per page and are refused.
//  5. With a scheme, new URL(value) must succeed with protocol http: or
//     https: and an empty username and password.
//
// Go ports the WHATWG parser by hand (internal/protocol/href.go); here the
// platform's own URL parser is the reference. One deliberate difference
// from the TypeScript reference, taken from Go: a string holding a lone
// surrogate is refused, since Go refuses the invalid UTF-8 that would be
// its counterpart (decoded payloads never contain one; see toWellFormed).

import { MAX_HREF_LEN } from './limits.js';
import { isWellFormed } from './text.js';

const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * isSafeHref reports whether value is a SafeHref (the rules above).
 * @param {unknown} value
 * @returns {value is string}
 */
export function isSafeHref(value) {
  if (typeof value !== 'string' || value.length < 1 || value.length > MAX_HREF_LEN) return false;
  if (FORBIDDEN.test(value) || !isWellFormed(value)) return false;
  if (value[0] === '/') return value[1] !== '/';
  if (!SCHEME.test(value)) return false;
  let url;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
}
