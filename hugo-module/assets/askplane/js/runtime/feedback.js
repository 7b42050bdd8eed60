// The reader's verdict on a backend answer (Go: internal/sidecar/feedback.go):
// POST <endpoint's sibling feedback>?corpus=<id> with {context_id, verdict}
// and nothing the reader typed. The answer's review link (its Link header,
// rel="evidence") names both: the corpus in its query, the context_id in
// the recipe of its fragment.

import { isContentHash } from './text.js';

// evidenceHref returns the rel="evidence" target of a Link header value,
// resolved against base, when it is an http(s) URL; else ''.
/**
 * @param {string | null} link
 * @param {string | URL} base
 * @returns {string}
 */
export function evidenceHref(link, base) {
  const m = /<([^>]*)>\s*;\s*rel="?evidence"?/.exec(link || '');
  try {
    const url = m && new URL(m[1], base);
    return url && /^https?:$/.test(url.protocol) ? url.href : '';
  } catch {
    return '';
  }
}

// feedbackRequest returns what a verdict on the answer whose review link
// is review posts: {url, context_id}, url the endpoint's sibling
// "feedback" with the review link's corpus; or null when the link carries
// no well-formed context_id.
/**
 * @param {string} review
 * @param {string | URL} endpoint
 * @returns {{url: string, context_id: string} | null}
 */
export function feedbackRequest(review, endpoint) {
  try {
    const url = new URL(review);
    const id = JSON.parse(atob(url.hash.slice(1).replace(/-/g, '+').replace(/_/g, '/'))).context_id;
    // A context_id is spelled as a content hash. String(), as a regexp
    // test reads any value.
    if (!isContentHash(String(id))) return null;
    const post = new URL('feedback', endpoint);
    post.search = /** @type {any} */ (new URLSearchParams({ corpus: url.searchParams.get('corpus') || '' }));
    return { url: post.href, context_id: id };
  } catch {
    return null;
  }
}
