// Driver for internal/protocol/jscross_test.go: reads the generated inputs
// (a JSON file named by argv[2]), runs them through the widget's
// JavaScript, and prints the results as JSON for the Go test to compare
// with its own. Not a test by itself (node --test skips it).
import { readFileSync } from 'node:fs';
import {
  queryFields,
  encodeEnvelope,
  decodeEnvelope,
} from '../../hugo-module/assets/askplane/js/runtime/answer.js';
import { decodeAskEvents, encodeAskEvent } from '../../hugo-module/assets/askplane/js/runtime/ask.js';
import { contentHash, canonicalText } from '../../hugo-module/assets/askplane/js/runtime/canonical.js';
import { parseDateTime } from '../../hugo-module/assets/askplane/js/runtime/datetime.js';
import { isSafeHref } from '../../hugo-module/assets/askplane/js/runtime/href.js';
import {
  decodeArtifact,
  verifyArtifact,
  computeContentHash,
} from '../../hugo-module/assets/askplane/js/runtime/knowledge.js';
import { normalizeKnowledgeKey } from '../../hugo-module/assets/askplane/js/runtime/normalize.js';
import { Resolver, decide } from '../../hugo-module/assets/askplane/js/runtime/resolver.js';
import { sha256Hex } from '../../hugo-module/assets/askplane/js/runtime/sha256.js';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const code = (r) => (r.ok ? 'ok' : r.diagnostic.code);
const options = { now: () => input.now };

// envelope encodes env and checks that the widget's own decoder accepts
// what its resolver produced.
function envelope(env) {
  const text = encodeEnvelope(env);
  if (!decodeEnvelope(text).ok) return 'UNDECODABLE ' + text;
  return text;
}

// digestOf is the content hash, checked against hashing the one
// JSON.stringify text the contract defines.
function digestOf(a) {
  const h = contentHash(a);
  return h === 'sha256:' + sha256Hex(canonicalText(a)) ? h : 'STREAMED DIGEST DIFFERS ' + h;
}

const out = {
  strings: input.strings.map((s) => {
    const q = queryFields(s);
    return { normalize: normalizeKnowledgeKey(s), trim: s.trim(), length: s.length, query: q.query, normalizedQuery: q.normalizedQuery };
  }),
  hrefs: input.hrefs.map((h) => isSafeHref(h)),
  datetimes: input.datetimes.map((d) => parseDateTime(d)),
  artifacts: input.artifacts.map((a) => {
    const decoded = decodeArtifact(a.text);
    const computed = computeContentHash(a.text);
    const fromText = new Resolver(a.text, a.trust, options);
    // The object path re-verifies what decodeArtifact returned.
    const fromObject = new Resolver(decoded.ok ? decoded.value : null, a.trust, options);
    const resolve = [];
    const offline = [];
    for (const q of a.queries) {
      const env = fromText.resolve(q);
      const again = envelope(fromObject.resolve(q));
      const text = envelope(env);
      resolve.push(text === again ? text : 'OBJECT PATH DIFFERS ' + again);
      offline.push(envelope(decide(env, 'disabled', false).envelope));
    }
    return {
      decode: code(decoded),
      digest: decoded.ok ? digestOf(decoded.value) : '',
      compute: computed.ok ? computed.value : computed.diagnostic.code,
      verify: code(verifyArtifact(a.text, a.trust)),
      resolve,
      offline,
      choices: a.choices.map((c) => envelope(fromText.resolveChoice(c.id, c.query))),
    };
  }),
  events: input.events.map((buf) => {
    const r = decodeAskEvents(buf);
    return { events: r.events.map(encodeAskEvent), rest: r.rest, discarded: r.discardedPartial };
  }),
};
process.stdout.write(JSON.stringify(out));
