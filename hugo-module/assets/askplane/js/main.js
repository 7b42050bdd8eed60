// The widget's bundle entry (its esbuild bundle, assets/askplane/dist/main.js,
// written by go generate ./internal/web, is the page's one external module
// script). Every page carries only the launcher; this loader wires it and
// the keyboard shortcuts, and on the reader's first intent (pointing at or
// focusing the launcher, a shortcut, a click) fetches the rest at once:
// the panel's markup (the root's data-askplane-markup, a fingerprinted
// file per language checked against data-askplane-markup-integrity) and
// the protocol core with the widget (core.js, data-askplane-core, checked
// against data-askplane-core-integrity). A transcript kept by the site's
// previous page mounts them at boot. runtime/ is the protocol core;
// ui/widget.js is the interactive widget, bundled into core.js.

// The loader is bundled apart from the core (ui/dom.js has the same two
// helpers): these stay its own.
/**
 * @param {ParentNode} el
 * @param {string} name
 * @returns {any}
 */
const hook = (el, name) => el.querySelector(`[data-askplane-${name}]`);
/**
 * @param {Element} el
 * @param {string} name
 * @returns {string}
 */
const attr = (el, name) => el.getAttribute(`data-askplane-${name}`) || '';

/**
 * The loader a booted root carries as its askplane property.
 * @typedef {object} Loader
 * @property {() => Promise<import('./ui/widget.js').Widget>} mount
 * @property {(url: string, integrity: string) => Promise<any>} import
 * @property {import('./ui/widget.js').Widget | null} widget
 * @property {boolean} isOpen
 * @property {() => Promise<void>} open
 * @property {() => void} close
 */

// importChecked imports the module at url, checked against integrity (an
// SRI value): a modulepreload link fetches it with the check and puts it
// in the page's module map, where import() then finds it. Waiting for the
// link's load event keeps import() from fetching it a second time,
// unchecked. A browser without modulepreload imports it directly (the URL
// is fingerprinted and same-origin).
/**
 * @param {string} url
 * @param {string} integrity
 * @returns {Promise<any>}
 */
function importChecked(url, integrity) {
  const link = document.createElement('link');
  if (!link.relList.supports('modulepreload')) return import(url);
  return new Promise((resolve, reject) => {
    link.rel = 'modulepreload';
    link.integrity = integrity;
    link.href = url;
    link.onload = () => resolve(import(url));
    link.onerror = () => reject(new Error('askplane: the core module did not load'));
    document.head.append(link);
  });
}

// markup fetches the panel's markup, checked against its integrity, and
// parses it (an inert document: nothing in it runs) into the shell. A
// failure is tried again on the next intent.
/** @param {Element} root */
async function markup(root) {
  const res = await fetch(new URL(attr(root, 'markup'), document.baseURI), { integrity: attr(root, 'markup-integrity') });
  if (!res.ok) throw new Error(`askplane: HTTP ${res.status}`);
  hook(root, 'shell').append(...new DOMParser().parseFromString(await res.text(), 'text/html').body.childNodes);
}

// boot wires the page's root, once. Its askplane property is the loader:
// mount() resolves to the Widget (the core's, working the log) once the
// markup and the core are in; open() and close() show and hide the panel,
// which needs only the markup, so a core that fails to load still leaves
// a panel that says so.
/**
 * @param {Document} [doc]
 * @returns {Loader | null}
 */
export function boot(doc = document) {
  /** @type {any} the root, with its askplane loader once booted */
  const root = doc.querySelector('[data-askplane-root]');
  if (root === null || root.askplane) return root?.askplane ?? null;
  const launcher = hook(root, 'launcher');
  /** @type {Promise<void> | null} the markup's promise */
  let panel = null;
  /** @type {Promise<any> | null} the core's promise */
  let core = null;
  /** @type {import('./ui/widget.js').Widget | null} */
  let widget = null;
  /** @type {any} the panel's hooks, once its markup is in */
  let el = null;
  /** @type {HTMLElement | null} what had focus when the panel opened */
  let from = null;
  const once = (/** @type {Promise<any>} */ p, /** @type {() => void} */ reset) =>
    p.catch((/** @type {unknown} */ e) => {
      reset();
      throw e;
    });
  const mounted = () => (panel ??= once(markup(root).then(wire), () => (panel = null)));
  // fail shows the load failure's notice: the core did not arrive.
  const fail = () => {
    const notice = hook(root, 'template="error"').content.cloneNode(true);
    const text = hook(hook(root, 'template="messages"').content, 'message="network"').textContent;
    hook(notice, 'error-text').textContent = el.status.textContent = text;
    hook(el.log, 'empty').hidden = true;
    el.log.append(notice);
  };
  const wire = () => {
    el = { panel: hook(root, 'panel'), input: hook(root, 'input'), log: hook(root, 'log'), status: hook(root, 'status') };
    launcher.setAttribute('aria-controls', el.panel.id);
    hook(root, 'close').addEventListener('click', () => api.close());
    el.input.addEventListener('focus', intent, { passive: true });
    hook(root, 'form').addEventListener('submit', (/** @type {Event} */ e) => {
      e.preventDefault();
      const text = el.input.value.trim();
      if (text === '') return;
      el.input.value = '';
      api.mount().then((w) => w.ask(text), fail);
    });
  };
  const api = (root.askplane = {
    mount() {
      core ??= once(importChecked(new URL(attr(root, 'core'), document.baseURI).href, attr(root, 'core-integrity')), () => (core = null));
      return Promise.all([mounted(), core]).then(([, c]) => (widget ??= new c.Widget(root)));
    },
    // import(url, integrity) imports a module checked against integrity.
    import: importChecked,
    // The Widget, once mounted.
    get widget() {
      return widget;
    },
    get isOpen() {
      return el !== null && !el.panel.hidden;
    },
    open() {
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      from = active && active !== document.body && !root.contains(active) ? active : null;
      intent();
      return mounted().then(() => {
        el.panel.hidden = false;
        launcher.setAttribute('aria-expanded', 'true');
        el.input.focus();
      });
    },
    close() {
      el.panel.hidden = true;
      launcher.setAttribute('aria-expanded', 'false');
      (from?.isConnected ? from : launcher).focus();
      from = null;
    },
  });
  const intent = () => api.mount().catch(() => {});
  for (const ev of ['pointerenter', 'focus']) launcher.addEventListener(ev, intent, { passive: true });
  launcher.addEventListener('click', () => (api.isOpen ? api.close() : api.open().catch(() => {})));
  // `/` (outside a field) and Ctrl/⌘-K open the panel from anywhere on
  // the page; Escape closes it from anywhere while it is open.
  doc.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.isComposing || e.altKey) return;
    if (e.key === 'Escape') {
      if (api.isOpen) {
        e.preventDefault();
        api.close();
      }
      return;
    }
    const mod = e.ctrlKey || e.metaKey;
    const field = e.target instanceof Element && e.target.closest('input,textarea,select,[contenteditable]');
    if ((e.key === '/' && !mod && !field) || (mod && e.key.toLowerCase() === 'k')) {
      e.preventDefault();
      if (api.isOpen) el.input.focus();
      else api.open().catch(() => {});
    }
  });
  try {
    if (sessionStorage.getItem(`askplane:${attr(root, 'site')}`)) intent();
  } catch {}
  root.setAttribute('data-askplane-ready', '');
  return api;
}

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => boot(), { once: true });
} else {
  boot();
}
