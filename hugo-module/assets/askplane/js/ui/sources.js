// The sources listed under an answer.

import { hook, template } from './dom.js';

/**
 * addSource lists one cited source under entry's answer, from root's
 * "source" template: its title as text, less the anchor glyphs themes put
 * in headings (#, ¶, §, 🔗), its link only when href is given (a safe
 * link, checked by the caller).
 * @param {ParentNode} root
 * @param {HTMLElement} entry
 * @param {string} title
 * @param {string | null} href
 */
export function addSource(root, entry, title, href) {
  const item = /** @type {DocumentFragment} */ (template(root, 'source').cloneNode(true));
  const a = hook(item, 'source-link');
  a.textContent = title.replace(/^[\s#¶§🔗\uFE0F]+|[\s#¶§🔗\uFE0F]+$/gu, '') || title;
  if (href) a.setAttribute('href', href);
  hook(entry, 'sources').append(item);
  hook(entry, 'sources-block').hidden = false;
}
