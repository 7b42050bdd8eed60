// sites.json and answers.json, asserting what
// internal/protocol/envelope_test.go asserts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load, generate, codeOf, runCases } from './vectors.mjs';
import {
  decodeEnvelope,
  encodeEnvelope,
  queryFields,
  escalate,
} from '../../hugo-module/assets/askplane/js/runtime/answer.js';
import { encodeAskRequest } from '../../hugo-module/assets/askplane/js/runtime/ask.js';
import { decodeSiteConfig, encodeSiteConfig } from '../../hugo-module/assets/askplane/js/runtime/site.js';

function input(c) {
  if (c.text !== undefined) return c.text;
  if (c.generate !== undefined) return generate(c.generate);
  return JSON.stringify(c.site ?? c.envelope);
}

test('site config vectors', (t) => {
  const v = load('sites.json');
  runCases(t, 'sites.json', v.cases, (c) => c.name, (tc) => {
    const s = decodeSiteConfig(input(tc));
    assert.equal(codeOf(s), tc.expect);
    if (s.ok) {
      const again = decodeSiteConfig(encodeSiteConfig(s.value));
      assert.deepEqual(again, s, 'does not round-trip');
    }
  });
});

test('answer envelope vectors', (t) => {
  const v = load('answers.json');
  runCases(t, 'answers.json', v.cases, (c) => c.name, (tc) => {
    const e = decodeEnvelope(input(tc));
    assert.equal(codeOf(e), tc.expect);
    if (!e.ok) return;
    const out = encodeEnvelope(e.value);
    // The decoded value is already in wire order.
    assert.equal(JSON.stringify(e.value), out);
    const again = decodeEnvelope(out);
    assert.ok(again.ok, 're-encoded envelope does not decode');
    assert.equal(encodeEnvelope(again.value), out, 'not stable');
  });
});

test('encoding refuses an envelope missing a part its outcome requires', () => {
  const q = queryFields('install');
  const answer = () => ({
    outcome: 'answer',
    ...q,
    answer: { markdown: 'Run it.', citations: [] },
    provenance: { source: 'backend' },
    confidence: { level: 'high', basis: 'backend' },
  });
  assert.ok(decodeEnvelope(encodeEnvelope(answer())).ok);
  const noAnswer = { ...answer(), answer: undefined };
  const noProvenance = { ...answer(), provenance: undefined };
  const choices = {
    outcome: 'choices',
    ...q,
    message: 'm',
    suggestions: [
      { id: 'a', label: 'A', value: 'a' },
      { id: 'b', label: 'B', value: 'b' },
    ],
    confidence: { level: 'medium', basis: 'ambiguous' },
  };
  for (const e of [noAnswer, noProvenance, choices]) {
    assert.throws(() => encodeEnvelope(e), TypeError);
    assert.throws(() => encodeAskRequest({ messages: [{ role: 'user', content: 'x' }], deterministic: e }), TypeError);
  }
  assert.doesNotThrow(() => encodeEnvelope(escalate('install', 'miss')));
});

test('queryFields cuts without splitting a surrogate pair, as Go does', () => {
  const q = 'x'.repeat(511) + '😀';
  assert.deepEqual(queryFields(q), { query: 'x'.repeat(511), normalizedQuery: 'x'.repeat(511) });
  assert.equal(queryFields('a\ud83d').query, 'a\ufffd');
});
