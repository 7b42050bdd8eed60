// The widget's requests: what every fetch it makes shares (bounded
// loading, best-effort posts, the routes beside the Ask endpoint, fresh
// ids). Nothing here touches the DOM.

const LOAD_TIMEOUT_MS = 8000;
const LOAD_ATTEMPTS = 2;

/** The media type of an Ask answer's stream and of a run's log. */
export const NDJSON = 'application/x-ndjson';

// Statuses that say no Ask service is there (what a static host or a
// proxy answers): the reader is told the backend could not be reached.
/** Matches the statuses that mean no Ask service answered. */
export const UNREACHABLE = /^(40[45]|50[1-4])$/;

/**
 * hex returns the lowercase hex digits of bytes.
 * @param {Uint8Array} b
 * @returns {string}
 */
export const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/**
 * randomId returns 32 hex digits: a chat session id, an Idempotency-Key.
 * @returns {string}
 */
export const randomId = () => hex(crypto.getRandomValues(new Uint8Array(16)));

/**
 * sibling is the route path beside the Ask endpoint (a run's events or
 * cancel, a session's forget), with the endpoint's query (its corpus),
 * and after when given.
 * @param {URL} endpoint
 * @param {string} path
 * @param {number} [after]
 * @returns {URL}
 */
export function sibling(endpoint, path, after) {
  const url = new URL(path, endpoint);
  url.search = endpoint.search;
  // URLSearchParams writes a number as String() does.
  if (after != null) url.searchParams.set('after', /** @type {string} */ (/** @type {unknown} */ (after)));
  return url;
}

/**
 * post sends a best-effort POST that nothing waits for, kept alive past
 * the page; body, when given, is JSON.
 * @param {URL | string} url
 * @param {string} [body]
 * @returns {Promise<unknown>}
 */
export const post = (url, body) => fetch(url, { method: 'POST', keepalive: true, ...(body && { headers: { 'content-type': 'application/json' }, body }) }).catch(() => {});

/**
 * pause resolves after ms, or rejects when signal aborts.
 * @param {number} ms
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
export const pause = (ms, signal) =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

/**
 * fetchBytes GETs url with a bounded timeout and one retry, through the
 * HTTP cache as cache says (a RequestCache: default, no-cache, …).
 * @param {URL | string} url
 * @param {RequestCache} [cache]
 * @returns {Promise<Uint8Array>}
 */
export async function fetchBytes(url, cache) {
  for (let i = 1; ; i++) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(LOAD_TIMEOUT_MS), credentials: 'same-origin', cache });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      if (i >= LOAD_ATTEMPTS) throw e;
    }
  }
}
