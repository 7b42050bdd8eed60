// The AgentsKit fixtures, artifacts.json and normalize.json, asserting what
// internal/protocol/conformance_test.go asserts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load, generate, codeOf, runCases } from './vectors.mjs';
import { decodeEnvelope, encodeEnvelope } from '../../hugo-module/assets/askplane/js/runtime/answer.js';
import {
  contentHash,
  canonicalText,
  canonicalDigest,
} from '../../hugo-module/assets/askplane/js/runtime/canonical.js';
import {
  decodeArtifact,
  verifyArtifact,
  computeContentHash,
  encodeArtifact,
  // The widget's own verify path (Web Crypto's hash, not the core's).
  verifyArtifactIndexWith,
} from '../../hugo-module/assets/askplane/js/runtime/knowledge.js';
import { normalizeKnowledgeKey } from '../../hugo-module/assets/askplane/js/runtime/normalize.js';
import { sha256Hex } from '../../hugo-module/assets/askplane/js/runtime/sha256.js';
import {
  decodeSiteConfig,
  encodeSiteConfig,
  siteTrust,
} from '../../hugo-module/assets/askplane/js/runtime/site.js';
import { utf8Length } from '../../hugo-module/assets/askplane/js/runtime/utf8.js';

const fixtures = load('agentskit-v1-fixtures.json');

test('fixture file', (t) => {
  t.diagnostic(
    `agentskit-v1-fixtures.json: 2 hashes, 1 site config, ${Object.keys(fixtures.answers).length} answers, ` +
      `${fixtures.invalidArtifacts.length} invalid artifacts (checked below)`,
  );
});

test('fixture hashes recompute', () => {
  for (const [name, doc, want] of [
    ['artifact', fixtures.artifact, 'sha256:d1b98e69dcb00985dc5fdad4a8475f926168e6485e85716758ad5e0f35cd4906'],
    ['staleArtifact', fixtures.staleArtifact, 'sha256:c48a310e9497d1588e408bf7eb72ca64c04f25431ef8d17cd351b1d3bab3a3e9'],
  ]) {
    const text = JSON.stringify(doc);
    const h = computeContentHash(text);
    assert.deepEqual(h, { ok: true, value: want }, name);
    const a = decodeArtifact(text);
    assert.ok(a.ok, name);
    assert.equal(contentHash(a.value), want, name);
    assert.equal(a.value.contentHash, want, name);
  }
});

test('fixture site config verifies the artifact', () => {
  const site = decodeSiteConfig(JSON.stringify(fixtures.siteConfig));
  assert.ok(site.ok);
  assert.equal(site.value.siteId, 'agentskit-docs');
  assert.equal(site.value.fallback.mode, 'backend');
  assert.equal(site.value.artifact.contentHash, fixtures.contentHash);
  assert.ok(verifyArtifact(JSON.stringify(fixtures.artifact), siteTrust(site.value)).ok);
  assert.deepEqual(JSON.parse(encodeSiteConfig(site.value)), fixtures.siteConfig);
});

test('fixture answers round-trip', () => {
  for (const [name, raw] of Object.entries(fixtures.answers)) {
    const e = decodeEnvelope(JSON.stringify(raw));
    assert.ok(e.ok, name);
    assert.deepEqual(JSON.parse(encodeEnvelope(e.value)), raw, name);
  }
});

test('fixture invalid artifacts', () => {
  const site = decodeSiteConfig(JSON.stringify(fixtures.siteConfig)).value;
  for (const tc of fixtures.invalidArtifacts) {
    const trust = siteTrust(site);
    if (tc.name === 'hash mismatch') trust.contentHash = 'sha256:' + 'b'.repeat(64);
    const r = verifyArtifact(JSON.stringify(tc.artifact), trust);
    assert.equal(codeOf(r), tc.code, tc.name);
    assert.ok(!r.diagnostic.message.includes('unexpected'), `${tc.name}: diagnostic echoes the payload`);
    assert.equal(r.diagnostic.retryable, false);
  }
});

const artifacts = load('artifacts.json');

test('artifact vectors', (t) => {
  assert.ok(artifacts.cases.length >= 50);
  runCases(t, 'artifacts.json cases', artifacts.cases, (c) => c.name, (tc) => {
    const data = tc.text !== undefined ? tc.text : tc.generate !== undefined ? generate(tc.generate) : JSON.stringify(tc.artifact);
    const a = decodeArtifact(data);
    if (tc.expect.decode !== 'ok') {
      assert.equal(codeOf(a), tc.expect.decode);
      return;
    }
    assert.ok(a.ok, 'decode failed');
    assert.equal(contentHash(a.value), tc.expect.contentHash);
    // The digest streamed entry by entry is that of the one JSON.stringify
    // text the contract defines.
    const canonical = canonicalText(a.value);
    assert.deepEqual(canonicalDigest(a.value), { hash: 'sha256:' + sha256Hex(canonical), bytes: utf8Length(canonical) });
    assert.deepEqual(computeContentHash(data), { ok: true, value: tc.expect.contentHash });
    // The artifact re-encodes to bytes that verify to the same hash.
    const out = encodeArtifact(a.value);
    const trust = { contentHash: a.value.contentHash, siteId: a.value.siteId };
    const b = verifyArtifact(out, trust);
    assert.ok(b.ok, 're-encoded artifact does not verify');
    assert.equal(contentHash(b.value), contentHash(a.value));
    assert.ok(verifyArtifact(new TextEncoder().encode(out), trust).ok, 'bytes do not verify');
  });
  runCases(t, 'artifacts.json verify', artifacts.verify, (c) => `verify ${c.name}`, (tc) => {
    assert.equal(codeOf(verifyArtifact(JSON.stringify(tc.artifact), tc.trust)), tc.expect);
  });
});

// The widget verifies the bytes it fetched with Web Crypto's SHA-256
// (verifyArtifactIndexWith), hashing a canonical text it writes itself:
// on every artifact vector it must decide as verifyArtifact does, for
// the artifact's own trust and for a hash that is not its own.
test('the widget verifies as verifyArtifact does', async () => {
  const webCrypto = async (text) => Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex');
  const check = async (name, data, trust) => {
    const want = verifyArtifact(data, trust);
    const got = await verifyArtifactIndexWith(typeof data === 'string' ? new TextEncoder().encode(data) : data, trust, webCrypto);
    assert.equal(codeOf(got), codeOf(want), name);
    if (want.ok) assert.deepEqual(got.value.artifact, want.value, name);
  };
  let verified = 0;
  for (const tc of artifacts.cases) {
    const data = tc.text !== undefined ? tc.text : tc.generate !== undefined ? generate(tc.generate) : JSON.stringify(tc.artifact);
    const a = decodeArtifact(data);
    const trust = a.ok ? { contentHash: a.value.contentHash, siteId: a.value.siteId } : { contentHash: 'sha256:' + 'a'.repeat(64), siteId: 'site' };
    await check(tc.name, data, trust);
    if (a.ok) {
      verified++;
      // The same artifact with a declared hash that is not its content's.
      const forged = encodeArtifact({ ...a.value, contentHash: 'sha256:' + 'b'.repeat(64) });
      await check(`${tc.name} (forged hash)`, forged, { ...trust, contentHash: 'sha256:' + 'b'.repeat(64) });
    }
  }
  for (const tc of artifacts.verify) await check(`verify ${tc.name}`, JSON.stringify(tc.artifact), tc.trust);
  assert.ok(verified >= 10, `only ${verified} artifact vectors verify`);
});

test('normalize vectors', (t) => {
  const v = load('normalize.json');
  runCases(t, 'normalize.json', v.cases, (c) => JSON.stringify(c.input), (tc) => {
    assert.equal(normalizeKnowledgeKey(tc.input), tc.output);
  });
});

test('decoding is the same from bytes and from text, and never echoes', () => {
  const text = JSON.stringify(fixtures.artifact);
  const bytes = new TextEncoder().encode(text);
  assert.deepEqual(decodeArtifact(bytes), decodeArtifact(text));
  assert.deepEqual(decodeArtifact(bytes.buffer), decodeArtifact(text));
  const r = decodeArtifact('{"protocol":"agentskit.chat.knowledge","version":1,"artifactId":"password-123"}');
  assert.equal(codeOf(r), 'DETERMINISTIC_INVALID_PAYLOAD');
  assert.ok(!JSON.stringify(r).includes('password'));
});
