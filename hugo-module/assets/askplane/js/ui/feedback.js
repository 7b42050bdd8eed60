// The helpful / not helpful control under a complete backend answer.

import { hook } from './dom.js';
import { feedbackRequest } from '../runtime/feedback.js';
import { post } from '../runtime/net.js';
import { STATE_THANKS } from './states.js';

/**
 * offerFeedback shows entry's feedback control when the site takes
 * feedback (the root's data-askplane-feedback) and the answer's review
 * link names its context_id (in the recipe, its fragment). A choice posts
 * {context_id, verdict}, nothing the reader typed, once, to the
 * endpoint's sibling feedback?corpus=<the review link's corpus>, then the
 * control says thanks (the message for STATE_THANKS, also announced).
 * @param {Element} root
 * @param {HTMLElement} entry
 * @param {string} review
 * @param {URL} endpoint
 * @param {(state: import('./states.js').State) => string} announce sets the status line and returns its text
 */
export function offerFeedback(root, entry, review, endpoint, announce) {
  const req = root.hasAttribute('data-askplane-feedback') && review && feedbackRequest(review, endpoint);
  if (!req) return;
  const box = hook(entry, 'feedback');
  box.hidden = false;
  box.onclick = (e) => {
    const verdict = /** @type {Element} */ (e.target).closest('[data-askplane-verdict]')?.getAttribute('data-askplane-verdict');
    if (!verdict) return;
    post(req.url, JSON.stringify({ context_id: req.context_id, verdict }));
    box.replaceChildren(announce(STATE_THANKS));
    box.tabIndex = -1;
    box.focus();
  };
}
