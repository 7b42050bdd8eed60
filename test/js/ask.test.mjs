// ask-requests.json and ask-events.json, asserting what
// internal/protocol/ask_test.go and askevents_test.go assert, plus the
// streaming reader fed one byte at a time.
import test from 'node:test';
import assert from 'node:assert/strict';
import { load, generate, runCases } from './vectors.mjs';
import {
  encodeEnvelope,
  escalate,
  MESSAGE_MISS,
} from '../../hugo-module/assets/askplane/js/runtime/answer.js';
import {
  decodeAskRequest,
  encodeAskRequest,
  buildAskRequest,
  decodeAskEvents,
  decodeAskEvent,
  encodeAskEvent,
  AskEventDecoder,
  readAskEvents,
} from '../../hugo-module/assets/askplane/js/runtime/ask.js';
import {
  MAX_ASK_EVENT_BYTES,
  MAX_ASK_EVENT_LINES,
  MAX_ASK_BODY_BYTES,
} from '../../hugo-module/assets/askplane/js/runtime/limits.js';
import { utf8Length } from '../../hugo-module/assets/askplane/js/runtime/utf8.js';

const enc = new TextEncoder();

// ---- requests ----

function roundTrip(req) {
  const body = encodeAskRequest(req);
  const again = decodeAskRequest(body);
  assert.ok(again.ok, `re-decode ${body.slice(0, 200)}`);
  assert.deepEqual(again.value, req, 'round trip changed the request');
  assert.equal(encodeAskRequest(again.value), body, 're-encoding is not stable');
}

test('ask request vectors', (t) => {
  const v = load('ask-requests.json');
  assert.ok(v.cases.length >= 30);
  runCases(t, 'ask-requests.json', v.cases, (c) => c.name, (c) => {
    assert.ok((c.json === undefined) !== (c.generate === undefined), 'want exactly one of json and generate');
    const body = c.json ?? generate(c.generate);
    for (const input of [body, enc.encode(body)]) {
      const r = decodeAskRequest(input);
      assert.equal(r.ok, c.valid, r.ok ? 'accepted' : r.diagnostic.message);
      if (!r.ok) {
        assert.equal(r.diagnostic.code, 'ASK_INVALID_REQUEST');
        assert.equal(r.diagnostic.retryable, false);
        continue;
      }
      roundTrip(r.value);
    }
  });
});

test('ask request diagnostics are payload-free', () => {
  for (const [name, body, msg] of [
    ['bad JSON', '{"messages": password-123', 'Ask request is not valid JSON.'],
    ['schema', '{"messages":[{"role":"password-123","content":"x"}]}', 'Ask request is invalid.'],
    ['unknown key', '{"password-123":1,"messages":[{"role":"user","content":"x"}]}', 'Ask request is invalid.'],
    ['too large', '{"messages":[{"role":"user","content":"password-123' + 'a'.repeat(MAX_ASK_BODY_BYTES) + '"}]}', 'Ask request body is too large.'],
  ]) {
    const r = decodeAskRequest(body);
    assert.deepEqual(r, { ok: false, diagnostic: { code: 'ASK_INVALID_REQUEST', message: msg, retryable: false } }, name);
  }
});

test('ask request fields', () => {
  const body =
    '{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s-1","messages":[' +
    '{"role":"user","content":"  How do I start?  "},{"role":"assistant","content":""}],' +
    '"deterministic":{"protocol":"agentskit.chat.answer","version":1,"outcome":"escalation",' +
    '"query":"How do I start?","normalizedQuery":"how do i start?","message":"m","reason":"stale",' +
    '"confidence":{"level":"low","basis":"stale"},"future":1}}';
  const r = decodeAskRequest(body);
  assert.deepEqual(r.value, {
    sessionId: 's-1',
    messages: [
      { role: 'user', content: '  How do I start?  ' },
      { role: 'assistant', content: '' },
    ],
    deterministic: {
      protocol: 'agentskit.chat.answer',
      version: 1,
      outcome: 'escalation',
      query: 'How do I start?',
      normalizedQuery: 'how do i start?',
      message: 'm',
      reason: 'stale',
      confidence: { level: 'low', basis: 'stale' },
    },
  });
});

test('ask request encoding', () => {
  assert.equal(
    encodeAskRequest({ messages: [{ role: 'user', content: 'hi' }] }),
    '{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"hi"}]}',
  );
  assert.equal(
    encodeAskRequest({ sessionId: 's', messages: [{ role: 'user', content: '</script>&\u2028\u0000\n"\\é😀' }] }),
    '{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s","messages":[{"role":"user","content":"</script>&\u2028\\u0000\\n\\"\\\\é😀"}]}',
  );
  assert.equal(
    encodeAskRequest({ sessionId: 's', messages: [{ role: 'user', content: 'Q' }], deterministic: escalate('Q', 'miss') }),
    '{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s","messages":[{"role":"user","content":"Q"}],' +
      '"deterministic":{"protocol":"agentskit.chat.answer","version":1,"outcome":"escalation","query":"Q","normalizedQuery":"q",' +
      `"message":"${MESSAGE_MISS}","reason":"miss","confidence":{"level":"low","basis":"miss"}}}`,
  );
});

test('buildAskRequest: question last, escalation attached, history bounded', () => {
  const esc = escalate('How do I start?', 'miss');
  const body = buildAskRequest({ question: 'How do I start?', history: [{ role: 'assistant', content: 'Hi' }], sessionId: 's-1', escalation: esc });
  const r = decodeAskRequest(body);
  assert.ok(r.ok);
  assert.deepEqual(r.value.messages, [
    { role: 'assistant', content: 'Hi' },
    { role: 'user', content: 'How do I start?' },
  ]);
  assert.equal(r.value.sessionId, 's-1');
  assert.equal(encodeEnvelope(r.value.deterministic), encodeEnvelope(esc));
  // The body is encodeAskRequest's, byte for byte, candidate ids included
  // (buildAskRequest writes escalations with escalationDocument).
  const withIds = { ...esc, candidateEntryIds: ['a', 'b'] };
  const req = { sessionId: 's-1', messages: [{ role: 'user', content: 'How do I start?' }], deterministic: withIds };
  assert.equal(buildAskRequest({ question: 'How do I start?', sessionId: 's-1', escalation: withIds }), encodeAskRequest(req));
  assert.equal(buildAskRequest({ question: 'q', escalation: esc }), encodeAskRequest({ messages: [{ role: 'user', content: 'q' }], deterministic: esc }));
  // Answers and choices never travel as deterministic context.
  assert.equal(decodeAskRequest(buildAskRequest({ question: 'q', escalation: { outcome: 'answer' } })).value.deterministic, undefined);
  // 100 turns: the newest 63 and the question.
  const history = Array.from({ length: 100 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
  const long = decodeAskRequest(buildAskRequest({ question: 'last', history }));
  assert.equal(long.value.messages.length, 64);
  assert.equal(long.value.messages[0].content, 'turn 37');
  // Turns that would push the body over 65,536 bytes are dropped, oldest first.
  const big = Array.from({ length: 10 }, () => ({ role: 'user', content: 'é'.repeat(16_000) }));
  const fit = buildAskRequest({ question: 'q', history: big });
  assert.ok(new TextEncoder().encode(fit).length <= MAX_ASK_BODY_BYTES);
  assert.ok(decodeAskRequest(fit).ok);
  assert.equal(decodeAskRequest(fit).value.messages.length, 3);
  assert.throws(() => buildAskRequest({ question: 'x'.repeat(16_385) }), RangeError);
});

// ---- events ----

const eventCases = load('ask-events.json').cases;

function caseInput(c) {
  return c.input ?? generate(c.generate);
}

function expectedEvents(c) {
  if (c.events !== undefined) return c.events.map((e) => JSON.stringify(e));
  const g = c.eventsGenerate;
  const list = [...(g.prefix ?? [])];
  for (let i = 0; i < g.count; i++) list.push(...g.repeat);
  list.push(...(g.suffix ?? []));
  return list.map((e) => JSON.stringify(e));
}

function checkEventRoundTrip(ev) {
  const line = encodeAskEvent(ev);
  assert.ok(!line.includes('\n'), 'encoding spans lines');
  // Decoded values are what zod returns (tool args may hold -0 or
  // Infinity); their wire form is the canonical one, so compare that.
  const again = decodeAskEvent(line);
  assert.ok(again !== null, 're-decode failed');
  assert.equal(encodeAskEvent(again), line, 'round trip changed the event');
}

test('ask event vectors', (t) => {
  assert.ok(eventCases.length >= 25);
  runCases(t, 'ask-events.json', eventCases, (c) => c.name, (c) => {
    assert.ok((c.input === undefined) !== (c.generate === undefined));
    assert.ok((c.rest === undefined) !== (c.restGenerate === undefined));
    assert.ok((c.events === undefined) !== (c.eventsGenerate === undefined));
    const { events, rest, discardedPartial } = decodeAskEvents(caseInput(c));
    const got = events.map(encodeAskEvent);
    const want = expectedEvents(c);
    assert.equal(got.length, want.length, 'event count');
    for (let i = 0; i < got.length; i++) {
      assert.equal(got[i], want[i], `event ${i}`);
      assert.equal(JSON.stringify(events[i]), got[i], 'decoded value is in schema order');
    }
    for (const ev of events.slice(0, 50)) checkEventRoundTrip(ev);
    assert.ok(rest === (c.rest ?? generate(c.restGenerate)), `rest (${rest.length} units)`);
    assert.equal(discardedPartial, c.discardedPartial);
  });
});

// chunks cuts bytes into pieces of n.
async function* chunks(bytes, n) {
  for (let i = 0; i < bytes.length; i += n) yield bytes.subarray(i, i + n);
}

async function readAll(source) {
  const out = [];
  for await (const ev of readAskEvents(source)) out.push(encodeAskEvent(ev));
  return out;
}

// readerAgrees reports whether the streaming reader is specified to yield
// what decodeAskEvents(input + "\n") yields: no line budget is hit and no
// raw line is over the size limit.
function readerAgrees(input) {
  const lines = input.split('\n');
  return lines.length <= MAX_ASK_EVENT_LINES && lines.every((l) => utf8Length(l) <= MAX_ASK_EVENT_BYTES);
}

test('the streaming reader matches the decoder on the vectors, one byte at a time included', async (t) => {
  let checked = 0;
  for (const c of eventCases) {
    const input = caseInput(c);
    if (!readerAgrees(input)) continue;
    const want = decodeAskEvents(input + '\n').events.map(encodeAskEvent);
    const bytes = enc.encode(input);
    const sizes = [32 << 10, 4096, 7];
    if (bytes.length < 64 << 10) sizes.push(1);
    for (const n of sizes) {
      assert.deepEqual(await readAll(chunks(bytes, n)), want, `${c.name}/${n}`);
    }
    checked++;
  }
  t.diagnostic(`${checked} vectors read in chunks of 32 KiB, 4 KiB, 7 and 1 bytes`);
  assert.ok(checked >= 30);
});

test('the reader discards the tail of an oversized line', async () => {
  // The tail is itself a valid event: decoding each read separately would
  // surface it once the head is discarded.
  const head = 'x'.repeat(MAX_ASK_EVENT_BYTES + 1);
  const tail = '{"type":"done","model":"smuggled"}\n{"type":"text","delta":"ok"}\n';
  assert.equal(decodeAskEvents(head).discardedPartial, true);
  assert.equal(decodeAskEvents(tail).events.length, 2);
  const h = enc.encode(head);
  const tb = enc.encode(tail);
  const all = enc.encode(head + tail);
  const sources = {
    'tail in its own read': async function* () {
      yield h;
      yield tb;
    },
    'tail shares a read': async function* () {
      yield all;
    },
    'tail one byte at a time': async function* () {
      yield h;
      yield* chunks(tb, 1);
    },
    'head and tail in 1000s': () => chunks(all, 1000),
    'head over a read, then bytes': async function* () {
      yield h.subarray(0, MAX_ASK_EVENT_BYTES - 3);
      yield* chunks(all.subarray(MAX_ASK_EVENT_BYTES - 3), 1);
    },
  };
  for (const [name, source] of Object.entries(sources)) {
    assert.deepEqual(await readAll(source()), ['{"type":"text","delta":"ok"}'], name);
  }
});

test('the reader drops raw lines over the limit', async () => {
  const padded = ' '.repeat(MAX_ASK_EVENT_BYTES) + '{"type":"done"}\n';
  assert.equal(decodeAskEvents(padded).events.length, 1, 'decodeAskEvents accepts a padded line in one buffer');
  const got = await readAll(chunks(enc.encode(padded + '{"type":"text","delta":"next"}\n'), 4096));
  assert.deepEqual(got, ['{"type":"text","delta":"next"}']);
});

test('the reader keeps bounded memory on a line without end', () => {
  const d = new AskEventDecoder();
  const piece = 'x'.repeat(1 << 20);
  for (let i = 0; i < 5; i++) assert.deepEqual(d.push(piece), []);
  assert.deepEqual(d.push('\n{"type":"done"}\n'), [{ type: 'done' }]);
  assert.deepEqual(d.end(), []);
});

test('the reader decodes a final line without newline', async () => {
  assert.deepEqual(await readAll(chunks(enc.encode('{"type":"text","delta":"a"}\n  {"type":"done"}  '), 3)), [
    '{"type":"text","delta":"a"}',
    '{"type":"done"}',
  ]);
  assert.deepEqual(await readAll(chunks(new Uint8Array(0), 1)), []);
});

test('the reader joins characters split across reads and keeps a BOM as whitespace', async () => {
  const line = '\ufeff{"type":"text","delta":"é😀€"}\r\n';
  assert.deepEqual(await readAll(chunks(enc.encode(line), 1)), ['{"type":"text","delta":"é😀€"}']);
});

test('the reader reads a ReadableStream and surfaces a read error after complete lines', async () => {
  let pulls = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (pulls++ === 0) controller.enqueue(enc.encode('{"type":"text","delta":"a"}\n{"type":"do'));
      else controller.error(new Error('connection reset'));
    },
  });
  const got = [];
  await assert.rejects(async () => {
    for await (const ev of readAskEvents(body)) got.push(ev);
  }, /connection reset/);
  assert.deepEqual(got, [{ type: 'text', delta: 'a' }]);
});

test('stopping early cancels the body', async () => {
  let cancelled = false;
  const body = new ReadableStream({
    pull(controller) {
      controller.enqueue(enc.encode('{"type":"text","delta":"tick"}\n'));
    },
    cancel() {
      cancelled = true;
    },
  });
  let n = 0;
  for await (const ev of readAskEvents(body)) {
    assert.equal(ev.delta, 'tick');
    if (++n === 3) break;
  }
  assert.ok(cancelled);
});

test('ask event encoding', () => {
  for (const [ev, want] of [
    [{ type: 'text', delta: '' }, '{"type":"text","delta":""}'],
    [
      { type: 'text', delta: '</script>&\u2028\u2029\u0000\u001f\u007f"\\\n\té😀' },
      '{"type":"text","delta":"</script>&\u2028\u2029\\u0000\\u001f\u007f\\"\\\\\\n\\té😀"}',
    ],
    [{ type: 'tool', id: 't', name: 'n', args: undefined }, '{"type":"tool","id":"t","name":"n","args":{}}'],
    [{ type: 'tool', id: 't', name: 'n', args: [1] }, '{"type":"tool","id":"t","name":"n","args":{}}'],
    [{ type: 'done' }, '{"type":"done"}'],
    [{ type: 'done', model: '' }, '{"type":"done","model":""}'],
    [{ type: 'error', message: 'm' }, '{"type":"error","message":"m"}'],
    [
      { type: 'error', message: 'The Ask request timed out.', code: 'ASK_TIMEOUT', retryable: true },
      '{"type":"error","message":"The Ask request timed out.","code":"ASK_TIMEOUT","retryable":true}',
    ],
    [{ type: 'error', message: 'm', retryable: false }, '{"type":"error","message":"m","retryable":false}'],
  ]) {
    assert.equal(encodeAskEvent(ev), want);
  }
});

test('tool args canonical form', () => {
  for (const [args, want] of [
    ['{}', '{}'],
    [' { "a" : 1 } ', '{"a":1}'],
    ['{"a":1,"b":2,"a":3}', '{"a":3,"b":2}'],
    [
      '{"b":0,"2":1,"10":2,"01":3,"-1":4,"4294967294":5,"4294967295":6,"0":7}',
      '{"0":7,"2":1,"10":2,"4294967294":5,"b":0,"01":3,"-1":4,"4294967295":6}',
    ],
    ['{"__proto__":1,"x":{"__proto__":2,"1":3}}', '{"x":{"1":3,"__proto__":2}}'],
    ['{"n":[0,-0,1E400,-1e400,1e-400,0.1,1e21,1e-7,123e-20]}', '{"n":[0,0,null,null,0,0.1,1e+21,1e-7,1.23e-18]}'],
    ['{"s":"\\u2028\\/\\ud83d\\ude00\\u0007"}', '{"s":"\u2028/😀\\u0007"}'],
    ['{"k":{"z":1,"y":2,"z":3}}', '{"k":{"z":3,"y":2}}'],
    // Lone surrogate escapes read as U+FFFD, as in Go; keys that differ
    // only there are one key, the last value at the first position.
    ['{"s":"\\ud800x","a\\ud800":1,"b":2,"a\\udbff":3,"a\\ud800":4}', '{"s":"\ufffdx","a\ufffd":4,"b":2}'],
    ['{"s":"\\ud83d\\ud83d\\ude00\\udc00"}', '{"s":"\ufffd😀\ufffd"}'],
    // An escaped backslash before "ud800" is a backslash, not an escape.
    ['{"s":"\\\\ud800","t":"\\\\\\ud800"}', '{"s":"\\\\ud800","t":"\\\\\ufffd"}'],
  ]) {
    const ev = decodeAskEvent(`{"type":"tool","id":"t","name":"n","args":${args}}`);
    assert.ok(ev, args);
    assert.equal(JSON.stringify(ev.args), want, args);
  }
  for (const args of ['[]', 'null', '"x"', `{"${'k'.repeat(129)}":1}`]) {
    assert.equal(decodeAskEvent(`{"type":"tool","id":"t","name":"n","args":${args}}`), null, args);
  }
});

test('event nesting is bounded at 128 like Go', () => {
  const nest = (n) => '['.repeat(n) + ']'.repeat(n);
  // args is depth 2, so 126 more levels inside it make 128.
  assert.ok(decodeAskEvent(`{"type":"tool","id":"t","name":"n","args":{"a":${nest(126)}}}`));
  assert.equal(decodeAskEvent(`{"type":"tool","id":"t","name":"n","args":{"a":${nest(127)}}}`), null);
  assert.equal(decodeAskEvent(`{"type":"tool","id":"t","name":"n","args":{"a":${nest(100000)}}}`), null);
});
