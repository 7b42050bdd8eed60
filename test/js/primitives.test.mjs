// hrefs.json and datetimes.json (Go: href_test.go, datetime_test.go), and
// the text primitives.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { load, runCases } from './vectors.mjs';
import { parseDateTime } from '../../hugo-module/assets/askplane/js/runtime/datetime.js';
import { isSafeHref } from '../../hugo-module/assets/askplane/js/runtime/href.js';
import {
  truncateUTF16,
  isSafeIdentifier,
  isContentHash,
  toWellFormed,
} from '../../hugo-module/assets/askplane/js/runtime/text.js';
import { utf8Length, utf8Encode, decodeUTF8, decodeUTF8Go } from '../../hugo-module/assets/askplane/js/runtime/utf8.js';

test('href vectors', (t) => {
  const v = load('hrefs.json');
  assert.ok(v.cases.length >= 60);
  const value = (c) => (c.repeat ? (c.repeat.prefix ?? '') + c.repeat.unit.repeat(c.repeat.count) + (c.repeat.suffix ?? '') : c.href);
  runCases(t, 'hrefs.json', v.cases, (c) => JSON.stringify(value(c)).slice(0, 80) + ` (${c.note ?? ''})`, (c) => {
    assert.equal(isSafeHref(value(c)), c.valid);
  });
});

test('href edge cases from Go', () => {
  for (const [s, want] of [
    ['/\u0080', true],
    ['/a\u001fb', false],
    ['https://example.com/\u0000', false],
    ['https://example.com\\@evil', false],
    ['https://example.com  ', true],
    ['https://  ', false],
    ['https://a:b:c/', false],
    ['http://./', true],
    ['/\ud800', false], // a lone surrogate, Go's invalid UTF-8
    ['', false],
    [null, false],
  ]) {
    assert.equal(isSafeHref(s), want, JSON.stringify(s));
  }
});

test('datetime vectors', (t) => {
  const v = load('datetimes.json');
  assert.ok(v.cases.length >= 50);
  runCases(t, 'datetimes.json', v.cases, (c) => `${JSON.stringify(c.value)} (${c.note ?? ''})`, (c) => {
    assert.equal(c.valid, c.epochMs !== undefined, 'epochMs must be present exactly for valid cases');
    assert.equal(parseDateTime(c.value), c.valid ? c.epochMs : null);
  });
});

test('datetime edge cases from Go', () => {
  for (const [s, ms] of [
    ['1970-01-01T00:00Z', 0],
    ['1970-01-01T00:00:00.001Z', 1],
    ['1970-01-01T00:00:00.0009Z', 0],
    ['1969-12-31T23:59:59.9999Z', -1],
    ['1970-01-01T00:00:00+00:01', -60000],
    ['1970-01-01T00:00:00-00:01', 60000],
    ['2024-02-29T23:59:59.999+23:59', 1709251199999 - (23 * 60 + 59) * 60000],
    ['0004-02-29T00:00Z', -62035891200000],
    ['0100-02-29T00:00Z', null],
    ['0400-02-29T00:00Z', -49539340800000],
    ['2026-07-13T00:00+02:', null],
    ['2026-07-13T00:00:00.5', null],
    ['2026-07-13T00:00:00.\u0665Z', null],
    ['2026-07-13T00:00:00.0123456789Z', 1783900800123], // V8 reads 123, not 12
  ]) {
    assert.equal(parseDateTime(s), ms, s);
  }
});

test('truncateUTF16 drops a pair it would split', () => {
  assert.equal(truncateUTF16('abc', 5), 'abc');
  assert.equal(truncateUTF16('ab😀', 3), 'ab');
  assert.equal(truncateUTF16('ab😀', 4), 'ab😀');
  assert.equal(truncateUTF16('a😀b', 2), 'a');
});

test('identifiers and hashes', () => {
  assert.ok(isSafeIdentifier('a'));
  assert.ok(isSafeIdentifier('A.b_c:d-e'));
  assert.ok(isSafeIdentifier('a'.repeat(128)));
  assert.ok(!isSafeIdentifier('a'.repeat(129)));
  assert.ok(!isSafeIdentifier('-a'));
  assert.ok(!isSafeIdentifier('é'));
  assert.ok(!isSafeIdentifier(1));
  assert.ok(isContentHash('sha256:' + 'a'.repeat(64)));
  assert.ok(!isContentHash('sha256:' + 'A'.repeat(64)));
  assert.ok(!isContentHash('sha256:' + 'a'.repeat(63)));
});

test('lone surrogates are found and replaced without String.prototype.isWellFormed/toWellFormed', () => {
  // A child process, so text.js loads with the native methods gone and
  // takes its fallbacks; they must agree with the native ones.
  const cases = ['', 'abc', '😀', 'a\ud800', '\udc00x', '\ud83d\ude00\ud83d', '\udc00\ud800\udc00', '\ud800\ud800', 'x\udfff\ud800y'];
  const script = `
    delete String.prototype.isWellFormed;
    delete String.prototype.toWellFormed;
    const m = await import(${JSON.stringify(new URL('../../hugo-module/assets/askplane/js/runtime/text.js', import.meta.url).href)});
    const cases = JSON.parse(process.argv[1]);
    console.log(JSON.stringify(cases.map((s) => [m.isWellFormed(s), m.toWellFormed(s)])));
  `;
  const out = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cases)], { encoding: 'utf8' }),
  );
  assert.deepEqual(
    out,
    cases.map((s) => [s.isWellFormed(), s.toWellFormed()]),
  );
});

test('UTF-8 is read and written as Go does', () => {
  // Lone surrogates: U+FFFD, three bytes, like TextEncoder.
  assert.equal(toWellFormed('a\ud800b\udc00'), 'a\ufffdb\ufffd');
  assert.equal(toWellFormed('😀'), '😀');
  for (const s of ['', 'abc', 'é', '😀', 'a\ud800', '\udc00x', '\ud83d\ude00\ud83d', '\u0800\uffff']) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s));
    assert.deepEqual(utf8Encode(s), new TextEncoder().encode(s));
  }
  // Invalid bytes: one U+FFFD per byte, as utf8.DecodeRune reads them,
  // not per maximal subpart as TextDecoder does.
  const cases = [
    [[0xe2, 0x82, 0x41], '\ufffd\ufffdA'],
    [[0xf0, 0x9f, 0x98], '\ufffd\ufffd\ufffd'],
    [[0xed, 0xa0, 0x80], '\ufffd\ufffd\ufffd'],
    [[0xc0, 0x80], '\ufffd\ufffd'],
    [[0xff], '\ufffd'],
    [[0xf4, 0x90, 0x80, 0x80], '\ufffd\ufffd\ufffd\ufffd'],
    [[0xef, 0xbb, 0xbf, 0x61], '\ufeffa'],
    [[0xf0, 0x9f, 0x98, 0x80, 0xe2, 0x82, 0xac], '😀€'],
  ];
  for (const [bytes, want] of cases) {
    assert.equal(decodeUTF8(new Uint8Array(bytes)), want, bytes.join(' '));
    assert.equal(decodeUTF8Go(new Uint8Array(bytes)), want, bytes.join(' '));
  }
});
