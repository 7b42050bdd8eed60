// The conversation kept in sessionStorage across the site's pages, so the
// next page shows it and the sidecar continues the same session. What is
// read back is checked as if a stranger wrote it: strings where strings
// belong, links only of the kinds the widget keeps.

import { isSafeIdentifier } from './text.js';
import { KEEP_TURNS, KEEP_UNITS } from './bounds.js';

const SAFE_KEPT_HREF = /^(https?:\/\/|\/(?!\/)|#)/;
const HTTP_URL = /^https?:/;

/**
 * One turn of the transcript as kept: a question (q), or an answer (a,
 * with its sources s as [title, href]) that is local or from the backend
 * (b), with its review link (e), stopped by the reader (x); or the turn of
 * a run still answering (r, its id).
 * @typedef {object} Turn
 * @property {string} [q]
 * @property {string} [a]
 * @property {Array<[string, string | null]>} [s]
 * @property {1} [b]
 * @property {string} [e]
 * @property {1} [x]
 * @property {string} [r]
 */

/**
 * storeKey is the sessionStorage key of the transcript of the site whose
 * config the page names as site (the root's data-askplane-site).
 * @param {string} site
 * @returns {string}
 */
export const storeKey = (site) => `askplane:${site}`;

/**
 * runTurn is the transcript's turn of a run still answering: kept so the
 * next page reads its answer from the run's log (e: its review link).
 * @param {string} r
 * @param {string} [e]
 * @returns {Turn}
 */
export const runTurn = (r, e) => ({ a: '', s: [], b: 1, r, ...(e && { e }) });

/**
 * saveTranscript keeps session's turns under key, bounded (KEEP_TURNS,
 * KEEP_UNITS): turns loses its oldest turns until it fits. Storage that
 * is full or refused keeps nothing: the conversation stays on this page.
 * @param {string} key
 * @param {string} session
 * @param {Turn[]} turns
 */
export function saveTranscript(key, session, turns) {
  let json;
  while ((json = JSON.stringify({ session, turns })).length > KEEP_UNITS || turns.length > KEEP_TURNS) turns.shift();
  try {
    sessionStorage.setItem(key, json);
  } catch {}
}

/**
 * readTranscript reads the transcript kept under key, if any, and hands
 * it over: resume gets its session and whether any turn came from the
 * backend (the session is known there), then each turn it may show again
 * goes, in order, to asked (a question), answered (an answer, its sources
 * made [string, href or null] with links of the kinds the widget keeps)
 * or running (the id and review link of a run still answering, only when
 * it is the last turn: its answer is read again from the run's log; an
 * earlier one is gone). A review link that is not http(s) is dropped.
 * @param {string} key
 * @param {(session: string, remote: boolean) => void} resume
 * @param {(turn: Turn & {q: string}) => void} asked
 * @param {(turn: Turn) => void} answered
 * @param {(run: string, review?: string) => void} running
 */
export function readTranscript(key, resume, asked, answered, running) {
  let kept;
  try {
    kept = JSON.parse(/** @type {string} */ (sessionStorage.getItem(key)));
  } catch {
    return;
  }
  if (!kept || !/^[0-9a-f]{32}$/.test(kept.session) || !Array.isArray(kept.turns)) return;
  resume(kept.session, kept.turns.some((/** @type {any} */ t) => t?.b));
  for (const [i, t] of kept.turns.entries()) {
    if (t && !(typeof t.e === 'string' && HTTP_URL.test(t.e))) delete t.e;
    if (typeof t?.q === 'string') asked(t);
    else if (typeof t?.r === 'string') {
      if (i === kept.turns.length - 1 && isSafeIdentifier(t.r)) running(t.r, t.e);
    } else if (typeof t?.a === 'string' && Array.isArray(t.s)) {
      t.s = t.s
        .filter((/** @type {unknown} */ x) => Array.isArray(x) && typeof x[0] === 'string')
        .map((/** @type {[string, unknown]} */ [title, href]) => [title, typeof href === 'string' && SAFE_KEPT_HREF.test(href) ? href : null]);
      answered(t);
    }
  }
}

/**
 * forgetTranscript removes the transcript kept under key.
 * @param {string} key
 */
export function forgetTranscript(key) {
  try {
    sessionStorage.removeItem(key);
  } catch {}
}
