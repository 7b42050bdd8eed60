// UTF-8 in and out. Byte limits and hashes are over UTF-8 bytes, and the
// bytes must be the ones Go would see, so each direction follows Go:
//
//  - Encoding (utf8Encode, utf8Length) writes a lone surrogate as the
//    three bytes of U+FFFD, as TextEncoder does and as Go's JSON writer
//    does with the U+FFFD its reader produced.
//  - Decoding (decodeUTF8) replaces each byte of invalid UTF-8 with one
//    U+FFFD, as Go's utf8.DecodeRune does, not each maximal subpart as
//    TextDecoder does ("\xe2\x82A" is two U+FFFD in Go, one in
//    TextDecoder); a different count would change the hash. TextDecoder
//    still does the work for valid input (fatal mode, BOM kept, since Go
//    keeps it and JSON.parse then rejects it).

// Pure, so a bundle that never encodes (the widget's core) leaves it out.
const encoder = typeof TextEncoder === 'function' ? /* @__PURE__ */ new TextEncoder() : null;

// utf8Encode returns the UTF-8 bytes of s.
/**
 * @param {string} s
 * @returns {Uint8Array}
 */
export function utf8Encode(s) {
  if (encoder) return encoder.encode(s);
  const out = new Uint8Array(utf8Length(s));
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[n++] = c;
      continue;
    }
    if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[n++] = 0xf0 | (c >> 18);
        out[n++] = 0x80 | ((c >> 12) & 63);
        out[n++] = 0x80 | ((c >> 6) & 63);
        out[n++] = 0x80 | (c & 63);
        continue;
      }
      c = 0xfffd; // lone surrogate
    }
    out[n++] = 0xe0 | (c >> 12);
    out[n++] = 0x80 | ((c >> 6) & 63);
    out[n++] = 0x80 | (c & 63);
  }
  return out;
}

// utf8Length returns the UTF-8 byte length of s without allocating: limits
// are checked before anything is parsed or copied. Each unit is one byte
// and more: two bytes under U+0800, three above, a lone surrogate
// included (written as U+FFFD); a surrogate pair is four bytes for its
// two units.
/**
 * @param {string} s
 * @returns {number}
 */
export function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    n += c < 0x800 ? 1 : 2;
    // charCodeAt past the end is NaN, never a low surrogate.
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

// utf8LengthExceeds reports whether s takes more than max UTF-8 bytes,
// counting only when the UTF-16 length leaves the answer open (each unit
// is 1 to 3 bytes).
/**
 * @param {string} s
 * @param {number} max
 * @returns {boolean}
 */
export function utf8LengthExceeds(s, max) {
  return s.length > max || (s.length * 3 > max && utf8Length(s) > max);
}

// TextDecoder may be missing, or refuse fatal mode (Node without ICU).
/** @type {TextDecoder | null} */
let strictDecoder = null;
try {
  strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
} catch {}

// decodeUTF8 decodes bytes as Go reads them (see the file comment).
/**
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function decodeUTF8(bytes) {
  try {
    return /** @type {TextDecoder} */ (strictDecoder).decode(bytes);
  } catch {
    // Invalid UTF-8, or no strict decoder: the byte-by-byte decoder.
    return decodeUTF8Go(bytes);
  }
}

// decodeUTF8Go is Go's utf8.DecodeRune loop: an invalid sequence yields
// U+FFFD and consumes exactly one byte. A lead byte C2..F4 opens a
// sequence of 2 to 4 bytes whose continuation bytes are 80..BF, except
// that the second one is narrowed after E0 (A0..), ED (..9F), F0 (90..)
// and F4 (..8F), which rules out overlong forms, surrogates and code
// points past U+10FFFF.
/**
 * @param {Uint8Array} b
 * @returns {string}
 */
export function decodeUTF8Go(b) {
  const parts = [];
  let units = [];
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    const size = c < 0x80 ? 1 : c < 0xc2 || c > 0xf4 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    let r = size === 1 ? c : c & (0x7f >> size); // the lead byte's bits
    let lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    let hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    let k = 1;
    for (; k < size; k++, lo = 0x80, hi = 0xbf) {
      const x = b[i + k]; // undefined past the end: no match
      if (!(x >= lo && x <= hi)) break;
      r = (r << 6) | (x & 0x3f);
    }
    if (size === 0 || k < size) {
      r = 0xfffd;
      k = 1;
    }
    units.push(r);
    if (units.length >= 8192) {
      parts.push(String.fromCodePoint(...units));
      units = [];
    }
    i += k;
  }
  parts.push(String.fromCodePoint(...units));
  return parts.join('');
}
