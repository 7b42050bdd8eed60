// Reading one backend answer: the Ask response's NDJSON stream, and, for
// a durable answer (a run, named by the sidecar's X-Askplane-Run header
// or its first "run" tool event), the run's log read again after a
// dropped connection, or on the next page. What to show is the caller's:
// this calls it back and never touches the DOM.

import { readAskEvents } from './ask.js';
import { evidenceHref } from './feedback.js';
import { isSafeIdentifier } from './text.js';
import { NDJSON, UNREACHABLE, pause, sibling } from './net.js';

// A run whose stream drops before its end is read again from the run's
// log, at most this many times, after these pauses (ms).
const RESUME_WAITS = [300, 1000, 3000];

/**
 * A cited source as the Ask stream's "cite" tool event names it; any
 * member may be missing or of another type (the caller checks).
 * @typedef {{id?: unknown, title?: unknown, path?: unknown, anchor?: unknown}} CitedSource
 */

/**
 * readAnswer reads one backend answer and resolves to its failure (the
 * backend's error code, or "HTTP <status>"), or null when it ended well.
 * ask sends the question and resolves to the response; when run is given
 * (a run still answering when the reader left the previous page) its log
 * is read from its first event instead, and ask is not called. Once a
 * response arrived, opened gets the answer's review link (the Link
 * header's rel="evidence" target, or ''); known gets the run answering,
 * once known (its X-Askplane-Run header, or its "run" tool event); text
 * gets each piece of the answer; cite each "cite" event's sources.
 *
 * A status that is not ok is the failure: the Ask error body's code,
 * unless the status says no Ask service is there (then "HTTP <status>";
 * 429 is ASK_RATE_LIMITED). A run's retryable error may be the notice of
 * an instance going away, which is not in the run's log: the log is read
 * again from before it, and only an error read twice at the same place
 * ends the answer. A run whose connection drops is read again from its
 * log after the events already read, a bounded number of times (then a
 * TypeError); a live answer (no run) ends with its stream. It rejects as
 * ask and fetch do (and when signal aborts).
 * @param {URL} endpoint the Ask endpoint
 * @param {string} run the id of a run to read again, or ''
 * @param {() => Promise<Response>} ask
 * @param {AbortSignal} signal
 * @param {(review: string) => void} opened
 * @param {(run: string) => void} known
 * @param {(delta: string) => void} text
 * @param {(sources: CitedSource[]) => void} cite
 * @returns {Promise<string | null>}
 */
export async function readAnswer(endpoint, run, ask, signal, opened, known, text, cite) {
  let seen = 0; // events read of the run's log
  let doubt = 0; // where a run's retryable error was read, to read again
  // events reads the run's log after the events already read.
  const events = () => fetch(sibling(endpoint, `runs/${run}/events`, seen), { headers: { accept: NDJSON }, signal });
  // runs takes id as the run's when no run is known yet.
  const runs = (/** @type {unknown} */ id) => !run && isSafeIdentifier(id) && known((run = /** @type {string} */ (id)));
  /** @type {Response | null | void} */
  let res = await (run ? events() : ask());
  for (let tries = 0, first = true; ; first = false) {
    if (!res.ok) {
      // A status that says no Ask service is there is kept; otherwise the
      // code of the Ask error body, when it is one, says more.
      const st = res.status;
      const body = /json/.test(/** @type {string} */ (res.headers.get('content-type'))) && (await res.json().catch(() => null));
      return st === 429 ? 'ASK_RATE_LIMITED' : (!UNREACHABLE.test(/** @type {any} */ (st)) && body?.error?.code) || `HTTP ${st}`;
    }
    if (first) {
      // Its fragment is the evidence recipe; it never reaches a server
      // until the reader asks the review page to rebuild it.
      opened(evidenceHref(res.headers.get('link'), res.url || endpoint));
      runs(res.headers.get('x-askplane-run'));
    }
    try {
      for await (const ev of readAskEvents(/** @type {ReadableStream<Uint8Array>} */ (res.body))) {
        seen++;
        if (ev.type === 'text') text(ev.delta);
        else if (ev.type === 'tool' && ev.name === 'run') runs(ev.args.run);
        else if (ev.type === 'tool' && ev.name === 'cite' && Array.isArray(ev.args.sources)) cite(ev.args.sources);
        else if (ev.type === 'error') {
          if (run && ev.retryable && doubt !== seen) {
            doubt = seen--;
            break;
          }
          return ev.code || 'ASK_INTERNAL';
        } else if (ev.type === 'done') return null;
      }
      // A live answer (no run) ends with its stream.
      if (!run) return null;
    } catch (e) {
      if (signal.aborted || !run) throw e;
    }
    // The connection dropped mid-run: the rest is in the run's log, after
    // the events already read. A request that fails is tried again as a
    // dropped stream is, a bounded number of times.
    for (res = null; !res; ) {
      if (tries >= RESUME_WAITS.length) throw new TypeError('askplane: the run could not be read again');
      await pause(RESUME_WAITS[tries++], signal);
      res = await events().catch((e) => {
        if (signal.aborted) throw e;
      });
    }
  }
}
