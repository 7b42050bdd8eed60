// Micro-benchmark of the widget's protocol core in Node (not a test; run
// with `node test/js/bench.mjs`). It builds a maximum-size artifact the
// way internal/protocol/bench_test.go's maxArtifact does (1,024 entries,
// just under 512 KiB, ASCII and non-ASCII aliases) and reports:
//
//  - verify + index of it (bytes → decoded, normalized, hashed, indexed
//    Resolver) as a ratio to JSON.parse of the same bytes;
//  - resolve latency per query (p50, p99) over a mix of hits, misses,
//    choices and Unicode queries.
import {
  sealArtifact,
  encodeArtifact,
  verifyArtifact,
} from '../../hugo-module/assets/askplane/js/runtime/knowledge.js';
import { MAX_ARTIFACT_BYTES } from '../../hugo-module/assets/askplane/js/runtime/limits.js';
import { Resolver } from '../../hugo-module/assets/askplane/js/runtime/resolver.js';

function maxArtifact() {
  const entries = [];
  for (let i = 0; i < 1024; i++) {
    entries.push({
      id: `entry-${String(i).padStart(4, '0')}`,
      kind: 'command',
      label: `How do I run task ${i}?`,
      match: { type: 'exact', values: [`run task ${i}`, `Task ${i} command`, 'docs', `ＴＡＳＫ ${i} ünïcode`] },
      answer: {
        markdown: `Run \`askplane task ${i} --verbose\`.\n\n` + 'Explains the flags and what happens next. '.repeat(3),
        citations: [{ id: `c${i}`, title: 'Task reference', href: `/docs/tasks/${i}/#usage` }],
      },
    });
  }
  const sealed = sealArtifact({
    protocol: 'agentskit.chat.knowledge',
    version: 1,
    artifactId: 'bench',
    siteId: 'bench-site',
    generatedAt: '2026-07-13T00:00:00.000Z',
    entries,
  });
  if (!sealed.ok) throw new Error(JSON.stringify(sealed.diagnostic));
  return sealed.value;
}

// time returns the median milliseconds of fn over runs, after warm-up.
function time(fn, runs) {
  for (let i = 0; i < 5; i++) fn();
  const t = [];
  for (let i = 0; i < runs; i++) {
    const s = process.hrtime.bigint();
    fn();
    t.push(Number(process.hrtime.bigint() - s) / 1e6);
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1];
}

const artifact = maxArtifact();
const text = encodeArtifact(artifact);
const bytes = new TextEncoder().encode(text);
if (bytes.length > MAX_ARTIFACT_BYTES || bytes.length < (MAX_ARTIFACT_BYTES * 8) / 10) throw new Error(`artifact is ${bytes.length} bytes`);
const trust = { contentHash: artifact.contentHash, siteId: artifact.siteId };
if (!verifyArtifact(bytes, trust).ok) throw new Error('bench artifact does not verify');

const runs = 40;
const decoder = new TextDecoder();
const parseBytes = time(() => JSON.parse(decoder.decode(bytes)), runs);
const parseText = time(() => JSON.parse(text), runs);
const verifyBytes = time(() => {
  if (!new Resolver(bytes, trust).ok) throw new Error('rejected');
}, runs);
const verifyText = time(() => {
  if (!new Resolver(text, trust).ok) throw new Error('rejected');
}, runs);
const reverify = time(() => {
  if (!new Resolver(artifact, trust).ok) throw new Error('rejected');
}, runs);

console.log(`max artifact: ${bytes.length} bytes, ${artifact.entries.length} entries`);
console.log(`JSON.parse(TextDecoder.decode(bytes))   ${parseBytes.toFixed(2)} ms`);
console.log(`verify + index from bytes               ${verifyBytes.toFixed(2)} ms  (${(verifyBytes / parseBytes).toFixed(2)}x JSON.parse of the same bytes)`);
console.log(`JSON.parse(text)                        ${parseText.toFixed(2)} ms`);
console.log(`verify + index from text                ${verifyText.toFixed(2)} ms  (${(verifyText / parseText).toFixed(2)}x)`);
console.log(`re-verify + index of the object         ${reverify.toFixed(2)} ms`);

const r = new Resolver(bytes, trust, { now: () => Date.parse('2026-07-14T00:00:00Z') });
const queries = [
  ['exact', 'run task 512', 'answer'],
  ['exact-mixed-case', 'Run Task 512', 'answer'],
  ['miss', 'what is the meaning of life', 'escalation'],
  ['choices', 'docs', 'choices'],
  ['unicode', 'ＴＡＳＫ\u3000５１２ ÜNÏCODE', 'answer'],
  ['long miss', 'x'.repeat(600), 'escalation'],
];
const all = [];
for (const [name, q, outcome] of queries) {
  if (r.resolve(q).outcome !== outcome) throw new Error(`${name}: ${r.resolve(q).outcome}`);
  for (let i = 0; i < 2000; i++) r.resolve(q);
  const t = [];
  for (let i = 0; i < 20000; i++) {
    const s = process.hrtime.bigint();
    r.resolve(q);
    t.push(Number(process.hrtime.bigint() - s) / 1e3);
  }
  t.sort((a, b) => a - b);
  all.push(...t);
  console.log(`resolve ${name.padEnd(17)} p50 ${t[t.length >> 1].toFixed(2)} µs  p99 ${t[Math.floor(t.length * 0.99)].toFixed(2)} µs`);
}
all.sort((a, b) => a - b);
console.log(`resolve, all queries     p50 ${all[all.length >> 1].toFixed(2)} µs  p99 ${all[Math.floor(all.length * 0.99)].toFixed(2)} µs`);
