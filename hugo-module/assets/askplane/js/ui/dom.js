// The widget's DOM vocabulary: the data-askplane-* hooks the markup
// generated from internal/web carries (see internal/web/doc.go), its
// templates and its messages. Every value reaches the page through
// textContent or setAttribute; nothing here parses HTML.

import { STATES } from './states.js';

/**
 * hook returns the element under el that carries data-askplane-<name>
 * (name may hold a value: 'message="done"').
 * @param {ParentNode} el
 * @param {string} name
 * @returns {HTMLElement}
 */
export const hook = (el, name) => /** @type {HTMLElement} */ (el.querySelector(`[data-askplane-${name}]`));

/**
 * attr returns el's data-askplane-<name>, or ''.
 * @param {Element} el
 * @param {string} name
 * @returns {string}
 */
export const attr = (el, name) => el.getAttribute(`data-askplane-${name}`) || '';

/**
 * make creates a tag element with props.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Partial<HTMLElementTagNameMap[K]>} [props]
 * @returns {HTMLElementTagNameMap[K]}
 */
export const make = (tag, props) => Object.assign(document.createElement(tag), props);

/**
 * template returns the content of root's markup template name.
 * @param {ParentNode} root
 * @param {string} name
 * @returns {DocumentFragment}
 */
export const template = (root, name) => /** @type {HTMLTemplateElement} */ (hook(root, `template="${name}"`)).content;

/**
 * message returns the message of state in the page's language: every
 * string the script shows comes from the markup's "messages" template,
 * so the translations live in the module's i18n files only.
 * @param {ParentNode} root
 * @param {import('./states.js').State} state
 * @returns {string}
 */
export const message = (root, state) => hook(template(root, 'messages'), `message="${STATES[state]}"`)?.textContent || '';
