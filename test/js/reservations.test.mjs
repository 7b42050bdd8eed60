// The widget's choice reservations (assets/askplane/js/runtime/reservations.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { load } from './vectors.mjs';
import { parseDateTime } from '../../hugo-module/assets/askplane/js/runtime/datetime.js';
import { decodeArtifact } from '../../hugo-module/assets/askplane/js/runtime/knowledge.js';
import {
  Reservations,
  choiceFrame,
  MAX_CHOICE_SESSIONS,
  MAX_SESSION_CHOICES,
} from '../../hugo-module/assets/askplane/js/runtime/reservations.js';
import { Resolver } from '../../hugo-module/assets/askplane/js/runtime/resolver.js';

const fixtures = load('agentskit-v1-fixtures.json');
const resolver = new Resolver(
  decodeArtifact(JSON.stringify(fixtures.artifact)).value,
  { contentHash: fixtures.contentHash, siteId: 'agentskit-docs' },
  { now: () => parseDateTime('2026-07-13T12:00:00.000Z') },
);
const docs = resolver.resolve('docs');

// offer remembers the fixture's "docs" choices for session, answering
// message messageId, as the widget does when it shows them.
function offer(res, session, messageId) {
  res.rememberChoices(session, messageId, docs);
  return choiceFrame(docs, messageId);
}

function grant(res, session, f, choice) {
  const { result, claim } = res.submit(session, f.instanceId, f.props, choice);
  assert.equal(result, 'granted', `${session} ${choice}`);
  return claim;
}

function expectResult(res, session, instanceId, props, choice, want) {
  const { result, claim } = res.submit(session, instanceId, props, choice);
  assert.equal(result, want, `${session} ${instanceId} ${choice}`);
  assert.equal(claim !== null, want === 'granted');
  claim?.release();
}

test('choice frame', () => {
  const f = choiceFrame(docs, 'user-1');
  assert.equal(f.instanceId, 'deterministic-choices-user-1');
  assert.equal(
    f.props,
    '{"prompt":"More than one exact local answer matches. Choose one to continue.","choices":[' +
      '{"id":"docs-agentskit","label":"AgentsKit documentation","description":"agentskit docs"},' +
      '{"id":"docs-registry","label":"Registry documentation","description":"registry docs"}]}',
  );
  assert.equal(choiceFrame(docs, 'é😀').instanceId, 'deterministic-choices----');
  assert.equal(choiceFrame(resolver.resolve('install cli'), 'user-1'), null);
});

test('reservation lifecycle', () => {
  const res = new Reservations();
  const f = offer(res, 's1', 'user-1');
  // Not offered.
  expectResult(res, 's1', f.instanceId, f.props, 'install-cli', 'unavailable');
  expectResult(res, 's2', f.instanceId, f.props, 'docs-agentskit', 'unavailable');
  expectResult(res, 's1', f.instanceId + 'x', f.props, 'docs-agentskit', 'unavailable');
  // Double claim.
  const c = grant(res, 's1', f, 'docs-agentskit');
  assert.equal(c.value, 'agentskit docs');
  expectResult(res, 's1', f.instanceId, f.props, 'docs-agentskit', 'unavailable');
  expectResult(res, 's1', f.instanceId, f.props, 'docs-registry', 'unavailable');
  // Release, then retry.
  c.release();
  c.release();
  c.commit(); // release won
  const c2 = grant(res, 's1', f, 'docs-registry');
  assert.equal(c2.value, 'registry docs');
  // Commit, then reuse.
  c2.commit();
  c2.release(); // commit won
  c2.commit();
  expectResult(res, 's1', f.instanceId, f.props, 'docs-registry', 'unavailable');
  expectResult(res, 's1', f.instanceId, f.props, 'docs-agentskit', 'unavailable');
  assert.equal(res.size, 0, 'empty session kept');
  // Asking again offers again.
  offer(res, 's1', 'user-1');
  grant(res, 's1', f, 'docs-agentskit').commit();
});

test('forged and altered submissions are refused', () => {
  const res = new Reservations();
  const f = offer(res, 's1', 'user-1');
  expectResult(res, 's1', 'destination-choice', f.props, 'docs-agentskit', 'not-deterministic');
  expectResult(res, 's1', 'sources-user-1', f.props, 'docs-agentskit', 'not-deterministic');
  expectResult(res, 's1', 'deterministic-choices-user-2', f.props, 'docs-agentskit', 'unavailable');
  const altered = f.props.slice(0, -2) + ',{"id":"install-cli","label":"x","description":"install cli"}]}';
  expectResult(res, 's1', f.instanceId, altered, 'install-cli', 'unavailable');
  expectResult(res, 's1', f.instanceId, altered, 'docs-agentskit', 'unavailable');
  expectResult(res, 's1', f.instanceId, ' ' + f.props, 'docs-agentskit', 'unavailable');
  expectResult(res, 's1', f.instanceId, undefined, 'docs-agentskit', 'unavailable');
  // Only deterministic choice lists are remembered.
  res.remember('s4', 'destination-choice', f.props, [{ id: 'a', value: 'A' }]);
  expectResult(res, 's4', 'deterministic-choices-x', f.props, 'a', 'unavailable');
  grant(res, 's1', f, 'docs-agentskit');
});

test('remembering keeps a claimed authorization', () => {
  const res = new Reservations();
  const f = offer(res, 's1', 'user-1');
  const c = grant(res, 's1', f, 'docs-agentskit');
  res.remember('s1', f.instanceId, '{}', [{ id: 'z', value: 'Z' }]);
  c.release();
  expectResult(res, 's1', f.instanceId, '{}', 'z', 'unavailable');
  grant(res, 's1', f, 'docs-registry').release();
  res.remember('s1', f.instanceId, '{}', [{ id: 'z', value: 'Z' }]);
  expectResult(res, 's1', f.instanceId, f.props, 'docs-registry', 'unavailable');
  grant(res, 's1', { instanceId: f.instanceId, props: '{}' }, 'z');
});

test('session eviction spares a claim in flight', () => {
  const res = new Reservations();
  const f = offer(res, 'claimed', 'user-1');
  const c = grant(res, 'claimed', f, 'docs-agentskit');
  for (let i = 0; i < 260; i++) offer(res, `abandoned-${i}`, 'user-1');
  assert.equal(res.size, MAX_CHOICE_SESSIONS);
  for (let i = 0; i < 5; i++) expectResult(res, `abandoned-${i}`, f.instanceId, f.props, 'docs-agentskit', 'unavailable');
  expectResult(res, 'abandoned-5', f.instanceId, f.props, 'docs-agentskit', 'granted');
  expectResult(res, 'abandoned-259', f.instanceId, f.props, 'docs-agentskit', 'granted');
  c.commit();
  expectResult(res, 'claimed', f.instanceId, f.props, 'docs-registry', 'unavailable');
});

test('granting and remembering touch a session', () => {
  const res = new Reservations();
  const f = offer(res, 'first', 'user-1');
  for (let i = 1; i < MAX_CHOICE_SESSIONS; i++) offer(res, `s-${i}`, 'user-1');
  grant(res, 'first', f, 'docs-agentskit').release();
  offer(res, 'new', 'user-1');
  expectResult(res, 'first', f.instanceId, f.props, 'docs-agentskit', 'granted');
  expectResult(res, 's-1', f.instanceId, f.props, 'docs-agentskit', 'unavailable');
  offer(res, 's-2', 'user-2');
  offer(res, 'new-2', 'user-1');
  expectResult(res, 's-2', f.instanceId, f.props, 'docs-agentskit', 'granted');
  expectResult(res, 's-3', f.instanceId, f.props, 'docs-agentskit', 'unavailable');
});

test('when every session has a claim, new sessions are not remembered', () => {
  const res = new Reservations();
  let f;
  for (let i = 0; i < MAX_CHOICE_SESSIONS; i++) {
    f = offer(res, `s-${i}`, 'user-1');
    grant(res, `s-${i}`, f, 'docs-agentskit');
  }
  offer(res, 'late', 'user-1');
  expectResult(res, 'late', f.instanceId, f.props, 'docs-agentskit', 'unavailable');
  assert.equal(res.size, MAX_CHOICE_SESSIONS);
});

test('per-session eviction drops the oldest unclaimed list', () => {
  const res = new Reservations();
  const f0 = offer(res, 's', 'm-0');
  const c = grant(res, 's', f0, 'docs-agentskit');
  const f1 = offer(res, 's', 'm-1');
  for (let i = 2; i < MAX_SESSION_CHOICES + 2; i++) offer(res, 's', `m-${i}`);
  expectResult(res, 's', f1.instanceId, f1.props, 'docs-agentskit', 'unavailable');
  const f2 = choiceFrame(docs, 'm-2');
  expectResult(res, 's', f2.instanceId, f2.props, 'docs-agentskit', 'unavailable');
  const f3 = choiceFrame(docs, 'm-3');
  expectResult(res, 's', f3.instanceId, f3.props, 'docs-agentskit', 'granted');
  c.commit();

  const all = new Reservations();
  for (let i = 0; i < MAX_SESSION_CHOICES; i++) grant(all, 's', offer(all, 's', `m-${i}`), 'docs-agentskit');
  const late = offer(all, 's', 'late');
  expectResult(all, 's', late.instanceId, late.props, 'docs-agentskit', 'unavailable');
});

test('a late commit or release never touches a newer session', () => {
  const res = new Reservations();
  const f = offer(res, 's', 'user-1');
  let c = grant(res, 's', f, 'docs-agentskit');
  res.releaseSession('s');
  expectResult(res, 's', f.instanceId, f.props, 'docs-agentskit', 'unavailable');
  offer(res, 's', 'user-1');
  c.commit();
  assert.equal(res.size, 1, 'recreated session deleted');
  grant(res, 's', f, 'docs-agentskit').commit();
  assert.equal(res.size, 0, 'session kept');

  offer(res, 's', 'user-1');
  c = grant(res, 's', f, 'docs-agentskit');
  res.releaseSession('s');
  offer(res, 's', 'user-1');
  const c2 = grant(res, 's', f, 'docs-agentskit');
  c.release();
  expectResult(res, 's', f.instanceId, f.props, 'docs-registry', 'unavailable');
  c2.commit();
});

test('a double click sends once per session', async () => {
  const res = new Reservations();
  const f = choiceFrame(docs, 'user-1');
  const granted = new Map();
  const clicks = [];
  for (let s = 0; s < 32; s++) {
    const sid = `s-${s}`;
    res.rememberChoices(sid, 'user-1', docs);
    for (let k = 0; k < 8; k++) {
      clicks.push(
        (async () => {
          const { result, claim } = res.submit(sid, f.instanceId, f.props, 'docs-agentskit');
          if (result !== 'granted') return;
          granted.set(sid, (granted.get(sid) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 1)); // the send
          claim.commit();
          claim.release();
        })(),
      );
    }
  }
  await Promise.all(clicks);
  for (let s = 0; s < 32; s++) assert.equal(granted.get(`s-${s}`), 1);
});
