// Code blocks' copy buttons.

import { make, message, template } from './dom.js';
import { STATE_COPIED, STATE_COPY } from './states.js';

/**
 * copyText puts text on the clipboard and says whether it did; it never
 * rejects. It uses the Clipboard API where the page may, else a selected,
 * off-screen textarea and the copy command.
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.body.appendChild(make('textarea', { value: text, readOnly: true, className: 'askplane__visually-hidden' }));
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/**
 * codeBox gives a code block (pre, as fillMarkdown makes it) its copy
 * button from root's "code" template, and returns the box that holds
 * both. A copy says so on the button for two seconds, and through
 * announce.
 * @param {ParentNode} root
 * @param {HTMLElement} pre
 * @param {(state: import('./states.js').State) => void} announce
 * @returns {HTMLElement}
 */
export function codeBox(root, pre, announce) {
  const box = /** @type {HTMLElement} */ (/** @type {DocumentFragment} */ (template(root, 'code').cloneNode(true)).firstElementChild);
  const b = /** @type {HTMLElement} */ (box.firstElementChild);
  b.onclick = () =>
    copyText(/** @type {string} */ (pre.textContent)).then((ok) => {
      b.focus();
      if (!ok) return;
      b.textContent = message(root, STATE_COPIED);
      announce(STATE_COPIED);
      setTimeout(() => (b.textContent = message(root, STATE_COPY)), 2000);
    });
  box.append(pre);
  return box;
}
