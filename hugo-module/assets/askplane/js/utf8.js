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

const encoder = typeof TextEncoder === 'function' ? new TextEncoder() : null;

// utf8Encode returns the UTF-8 bytes of s.
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
// are checked before anything is parsed or copied.
export function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      n += 1;
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2; // 4 bytes for 2 units
        i++;
      } else {
        n += 2;
      }
    } else {
      n += 2; // 3 bytes, including a lone surrogate written as U+FFFD
    }
  }
  return n;
}

// utf8LengthExceeds reports whether s takes more than max UTF-8 bytes,
// counting only when the UTF-16 length leaves the answer open (each unit
// is 1 to 3 bytes).
export function utf8LengthExceeds(s, max) {
  if (s.length > max) return true;
  if (s.length * 3 <= max) return false;
  return utf8Length(s) > max;
}

let strictDecoder = null;
try {
  strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
} catch {
  strictDecoder = null;
}

// decodeUTF8 decodes bytes as Go reads them (see the file comment).
export function decodeUTF8(bytes) {
  if (strictDecoder) {
    try {
      return strictDecoder.decode(bytes);
    } catch {
      // Invalid UTF-8: fall through to the byte-by-byte decoder.
    }
  }
  return decodeUTF8Go(bytes);
}

// decodeUTF8Go is Go's utf8.DecodeRune loop: an invalid sequence yields
// U+FFFD and consumes exactly one byte.
export function decodeUTF8Go(b) {
  const parts = [];
  let units = [];
  const flush = () => {
    parts.push(String.fromCharCode.apply(null, units));
    units = [];
  };
  for (let i = 0; i < b.length; ) {
    const c = b[i];
    let r = 0xfffd;
    let size = 1;
    if (c < 0x80) {
      r = c;
    } else if (c >= 0xc2 && c <= 0xdf) {
      if (i + 1 < b.length && (b[i + 1] & 0xc0) === 0x80) {
        r = ((c & 0x1f) << 6) | (b[i + 1] & 0x3f);
        size = 2;
      }
    } else if (c >= 0xe0 && c <= 0xef) {
      const lo = c === 0xe0 ? 0xa0 : 0x80;
      const hi = c === 0xed ? 0x9f : 0xbf;
      if (i + 2 < b.length && b[i + 1] >= lo && b[i + 1] <= hi && (b[i + 2] & 0xc0) === 0x80) {
        r = ((c & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f);
        size = 3;
      }
    } else if (c >= 0xf0 && c <= 0xf4) {
      const lo = c === 0xf0 ? 0x90 : 0x80;
      const hi = c === 0xf4 ? 0x8f : 0xbf;
      if (
        i + 3 < b.length &&
        b[i + 1] >= lo &&
        b[i + 1] <= hi &&
        (b[i + 2] & 0xc0) === 0x80 &&
        (b[i + 3] & 0xc0) === 0x80
      ) {
        r = ((c & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f);
        size = 4;
      }
    }
    if (r > 0xffff) {
      r -= 0x10000;
      units.push(0xd800 + (r >> 10), 0xdc00 + (r & 0x3ff));
    } else {
      units.push(r);
    }
    if (units.length >= 8192) flush();
    i += size;
  }
  flush();
  return parts.join('');
}
