// SHA-256 in plain JavaScript (FIPS 180-4). The protocol core's
// synchronous API (verifyArtifact, new Resolver, computeContentHash) hashes
// with it everywhere. The widget hashes with Web Crypto
// (crypto.subtle.digest), and imports this module, bundled on its own as
// assets/askplane/dist/sha256.js and checked against its integrity, only
// where Web Crypto is missing (http: pages other than localhost, old or
// locked-down browsers): either way the hash is checked before anything
// from the artifact is shown.
//
// A string is hashed as its UTF-8 bytes, encoded on the fly into the
// 64-byte block (no copy of the whole text); a lone surrogate is hashed as
// U+FFFD's bytes, as TextEncoder would encode it.

// The round constants and initial state are the first 32 bits of the
// fractional parts of the cube roots of the first 64 primes and of the
// square roots of the first 8 (FIPS 180-4, 4.2.2 and 5.3.3), computed
// here rather than spelled out (a table of 72 numbers weighs half a
// kilobyte gzipped). Each scaled fraction lies at least 0.005 from an
// integer, while a double's cube root of a prime under 312 is off by less
// than 0.00001 of that unit even with a few ulps of error, so every engine
// truncates to the standard's exact values. sha256.test.mjs compares them
// with the standard's table (hence the exports).
//
// Every top-level value is built by a call marked pure, so a bundle that
// imports this module but never hashes with it (the widget's core, which
// hashes with Web Crypto) leaves it out.
const PRIMES = /* @__PURE__ */ (() => {
  /** @type {number[]} */
  const p = [];
  for (let n = 2; p.length < 64; n++) if (p.every((q) => n % q !== 0)) p.push(n);
  return p;
})();
const fraction32 = (/** @type {number} */ x) => ((x % 1) * 2 ** 32) | 0;
/** The round constants (FIPS 180-4, 4.2.2). */
export const K = /* @__PURE__ */ (() => new Int32Array(PRIMES.map((p) => fraction32(Math.cbrt(p)))))();
/** The initial state (FIPS 180-4, 5.3.3). */
export const INIT = /* @__PURE__ */ (() => PRIMES.slice(0, 8).map((p) => fraction32(Math.sqrt(p))))();

const HEX = /* @__PURE__ */ (() => Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0')))();

// compress folds the 64-byte block at b[off] into the state h.
/**
 * @param {Int32Array} h
 * @param {Int32Array} w
 * @param {Uint8Array} b
 * @param {number} off
 */
function compress(h, w, b, off) {
  for (let i = 0; i < 16; i++, off += 4) {
    w[i] = (b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3];
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15];
    const y = w[i - 2];
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = h[0];
  let bb = h[1];
  let c = h[2];
  let d = h[3];
  let e = h[4];
  let f = h[5];
  let g = h[6];
  let hh = h[7];
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (hh + s1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = bb;
    bb = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0] + a) | 0;
  h[1] = (h[1] + bb) | 0;
  h[2] = (h[2] + c) | 0;
  h[3] = (h[3] + d) | 0;
  h[4] = (h[4] + e) | 0;
  h[5] = (h[5] + f) | 0;
  h[6] = (h[6] + g) | 0;
  h[7] = (h[7] + hh) | 0;
}

// finish pads the last partial block (pos bytes in buf) for a message of
// n bytes and returns the digest.
/**
 * @param {Int32Array} h
 * @param {Int32Array} w
 * @param {Uint8Array} buf
 * @param {number} pos
 * @param {number} n
 * @returns {Uint8Array}
 */
function finish(h, w, buf, pos, n) {
  buf[pos++] = 0x80;
  if (pos > 56) {
    buf.fill(0, pos, 64);
    compress(h, w, buf, 0);
    pos = 0;
  }
  buf.fill(0, pos, 56);
  const hi = Math.floor(n / 0x20000000); // bit length, high word
  const lo = (n * 8) >>> 0;
  buf[56] = hi >>> 24;
  buf[57] = hi >>> 16;
  buf[58] = hi >>> 8;
  buf[59] = hi;
  buf[60] = lo >>> 24;
  buf[61] = lo >>> 16;
  buf[62] = lo >>> 8;
  buf[63] = lo;
  compress(h, w, buf, 0);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    out[i * 4] = h[i] >>> 24;
    out[i * 4 + 1] = h[i] >>> 16;
    out[i * 4 + 2] = h[i] >>> 8;
    out[i * 4 + 3] = h[i];
  }
  return out;
}

/**
 * Sha256 hashes a message given in pieces: update(bytes or string) any
 * number of times, then digest() once. Hashing the canonical text of an
 * artifact piece by piece avoids materializing (and, in V8, flattening)
 * one half-megabyte string.
 */
export class Sha256 {
  #h = new Int32Array(INIT);
  #w = new Int32Array(64);
  #buf = new Uint8Array(68); // a block, and room for one character's spill
  #pos = 0; // bytes in #buf
  #n = 0; // bytes compressed so far

  // length is the number of bytes hashed so far.
  get length() {
    return this.#n + this.#pos;
  }

  /**
   * update hashes input next: bytes, or a string's UTF-8 bytes.
   * @param {Uint8Array | string} input
   * @returns {this}
   */
  update(input) {
    if (typeof input === 'string') this.#string(input);
    else this.#bytes(input);
    return this;
  }

  /** @param {Uint8Array} b */
  #bytes(b) {
    const h = this.#h;
    const w = this.#w;
    const buf = this.#buf;
    let off = 0;
    if (this.#pos > 0) {
      const take = Math.min(64 - this.#pos, b.length);
      buf.set(b.subarray(0, take), this.#pos);
      this.#pos += take;
      off = take;
      if (this.#pos < 64) return;
      compress(h, w, buf, 0);
      this.#n += 64;
      this.#pos = 0;
    }
    for (; off + 64 <= b.length; off += 64) {
      compress(h, w, b, off);
      this.#n += 64;
    }
    buf.set(b.subarray(off));
    this.#pos = b.length - off;
  }

  /** @param {string} s */
  #string(s) {
    const h = this.#h;
    const w = this.#w;
    const buf = this.#buf;
    let pos = this.#pos;
    let n = this.#n;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        buf[pos++] = c;
      } else if (c < 0x800) {
        buf[pos++] = 0xc0 | (c >> 6);
        buf[pos++] = 0x80 | (c & 63);
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
        buf[pos++] = 0xf0 | (c >> 18);
        buf[pos++] = 0x80 | ((c >> 12) & 63);
        buf[pos++] = 0x80 | ((c >> 6) & 63);
        buf[pos++] = 0x80 | (c & 63);
      } else {
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // lone surrogate
        buf[pos++] = 0xe0 | (c >> 12);
        buf[pos++] = 0x80 | ((c >> 6) & 63);
        buf[pos++] = 0x80 | (c & 63);
      }
      if (pos >= 64) {
        compress(h, w, buf, 0);
        n += 64;
        pos -= 64;
        if (pos > 0) buf.copyWithin(0, 64, 64 + pos);
      }
    }
    this.#pos = pos;
    this.#n = n;
  }

  // digest returns the 32-byte digest. The hasher is spent afterwards.
  /** @returns {Uint8Array} */
  digest() {
    return finish(this.#h, this.#w, this.#buf, this.#pos, this.#n + this.#pos);
  }

  // hex returns the lowercase hex digest.
  /** @returns {string} */
  hex() {
    const d = this.digest();
    let s = '';
    for (let i = 0; i < d.length; i++) s += HEX[d[i]];
    return s;
  }
}

// sha256 returns the 32-byte digest of bytes (a Uint8Array), or of the
// UTF-8 encoding of a string.
/**
 * @param {Uint8Array | string} input
 * @returns {Uint8Array}
 */
export function sha256(input) {
  return new Sha256().update(input).digest();
}

// sha256Hex returns the lowercase hex digest of input.
/**
 * @param {Uint8Array | string} input
 * @returns {string}
 */
export function sha256Hex(input) {
  return new Sha256().update(input).hex();
}
