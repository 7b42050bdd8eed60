// The interactive widget: wires the markup generated from internal/web (see
// internal/web/doc.go for the data-askplane-* hooks) to the runtime (the
// protocol core, loading, the Ask stream, the kept transcript). It is part
// of the core's bundle (core.js): the page's loader (main.js) shows and
// hides the panel, and constructs the Widget once the markup and the core
// are in, for the log: questions, answers, conversations. Every state it
// enters is one of ui/states.js's.
// Every value from the artifact or the Ask stream reaches the page through
// textContent or setAttribute, links only through the safe-link rule; no
// innerHTML anywhere.
//
// Every reader who asks downloads this file, gzipped, with the core
// (TestWidgetSize weighs it): it is written to stay small, with one
// path for each thing it shows (a backend answer kept from an earlier
// page is drawn by the code that finishes a live one).

// The order of these imports is the order of the modules in the bundle,
// which its gzipped size notices (TestWidgetSize): a few bytes either way.
import { ACTION_ESCALATE, decide } from '../runtime/resolver.js';
import { Reservations, SUBMIT_GRANTED, choiceFrame } from '../runtime/reservations.js';
import { ROLE_ASSISTANT, ROLE_USER, buildAskRequest } from '../runtime/ask.js';
import { FALLBACK_BACKEND, FALLBACK_DISABLED } from '../runtime/site.js';
import { OUTCOME_ANSWER, OUTCOME_CHOICES } from '../runtime/answer.js';
import { forgetTranscript, readTranscript, runTurn, saveTranscript, storeKey } from '../runtime/transcript.js';
import { readAnswer } from '../runtime/stream.js';
import { NDJSON, hex, post, randomId, sibling } from '../runtime/net.js';
import { isSafeHref } from '../runtime/href.js';
import {
  STATE_ANSWERED,
  STATE_CHOICES,
  STATE_CLEARED,
  STATE_DONE,
  STATE_ERROR,
  STATE_ESCALATING,
  STATE_LOADING,
  STATE_NOSOURCES,
  STATE_REFUSED,
  STATE_STOPPED,
  STATE_STREAMING,
  STATES,
} from './states.js';
import { NETWORK, failureState } from './failure.js';
import { attr, hook, message, template } from './dom.js';
import { codeBox } from './copy.js';
import { addSource } from './sources.js';
import { offerFeedback } from './feedback.js';
import { fillMarkdown } from './markdown.js';
import { loadKnowledge } from '../runtime/load.js';

/** @typedef {import('./states.js').State} State */
/** @typedef {import('../runtime/transcript.js').Turn} Turn */
/** @typedef {import('../runtime/answer.js').Envelope} Envelope */
/** @typedef {import('../runtime/site.js').SiteConfig} SiteConfig */
/** @typedef {import('../runtime/resolver.js').VerifiedResolver} VerifiedResolver */

/**
 * The page's root as the loader (main.js) leaves it: its askplane
 * property imports a module checked against its integrity.
 * @typedef {HTMLElement & {askplane: {import(url: string, integrity: string): Promise<any>}}} Root
 */

/** The widget over its root's panel markup (see the file comment). */
export class Widget {
  /** @type {Root} */
  #root;
  /** @type {URL | null} the Ask endpoint's URL, or null when the page names none */
  #endpoint = null;
  /** @type {SiteConfig | null} the decoded site config, or null when the anchor is bad */
  #site = null;
  /** @type {Promise<VerifiedResolver> | null} once loading started */
  #resolver = null;
  #reservations = new Reservations(); // the choices offered, and their claims
  #session = randomId();
  #seq = 0;
  /** @type {Array<{role: string, content: string}>} the history the Ask request carries */
  #history = [];
  /** @type {Turn[]} the transcript as kept */
  #turns = [];
  /** @type {WeakMap<Element, {messageId: string, env: Envelope}>} choices entry → what it offered */
  #lists = new WeakMap();
  /** @type {AbortController | null} of the running Ask request */
  #inflight = null;
  #remote = false; // the session was sent to the sidecar
  /** @type {HTMLInputElement} */
  #input;
  /** @type {HTMLElement} */
  #stop;
  /** @type {HTMLElement} */
  #status;
  /** @type {HTMLElement} */
  #log;
  /** @type {HTMLElement} */
  #empty;
  /** @type {HTMLElement} */
  #fresh;
  /** @type {string} the transcript's sessionStorage key */
  #key;

  /**
   * new Widget(root) wires root's panel markup, shows the transcript the
   * site's previous page kept, and starts loading the site's answers.
   * @param {Root} root
   */
  constructor(root) {
    this.#root = root;
    this.#key = storeKey(attr(root, 'site'));
    // The form's Stop comes before the log, whose entries have their own.
    [this.#input, this.#stop, this.#status, this.#log, this.#empty, this.#fresh] = /** @type {[HTMLInputElement, ...HTMLElement[]]} */ (
      ['input', 'stop', 'status', 'log', 'empty', 'new'].map((n) => hook(root, n))
    );
    try {
      const href = attr(root, 'endpoint');
      if (href) this.#endpoint = new URL(href, document.baseURI);
    } catch {
      // An endpoint that is not a URL is none: questions stay local.
    }
    this.#fresh.onclick = () => this.clear();
    this.#stop.onclick = () => this.#inflight?.abort();
    this.#suggest();
    this.#restore();
    this.load(); // never rejects: a failure is a Resolver that escalates
  }

  // #suggest makes the site's suggested questions (the panel's markup
  // lists them, see widget-shell.html) ask when chosen.
  #suggest() {
    hook(this.#root, 'suggestion-list').onclick = (e) => {
      const b = /** @type {Element} */ (e.target).closest('button');
      if (!b) return;
      this.#input.focus();
      this.ask(/** @type {string} */ (b.textContent).trim());
    };
  }

  /**
   * load loads the site's answers once (see loadKnowledge): a failed load,
   * a bad config or a bad artifact is a Resolver that escalates every
   * question as corrupt; a config or an artifact that did not arrive is
   * fetched again on the next question.
   * @returns {Promise<VerifiedResolver>}
   */
  load() {
    return (this.#resolver ??= loadKnowledge(
      attr(this.#root, 'site'),
      this.#sha256,
      (site) => (this.#site = site),
      () => (this.#resolver = null),
    ));
  }

  /**
   * ask answers question: locally when the artifact can, else from the
   * backend when the site allows it, else with the offline notice.
   * @param {string} question
   * @param {boolean} [echo] show the question in the log first
   */
  async ask(question, echo = true) {
    this.#empty.hidden = true;
    // Only the latest failure may be tried again: the history has moved on.
    for (const b of this.#log.querySelectorAll('[data-askplane-retry]')) /** @type {HTMLElement} */ (b).hidden = true;
    if (echo) this.#echo(question);
    let ready = false;
    const pending = this.load().then((r) => ((ready = true), r));
    await 0;
    if (!ready) this.#announce(STATE_LOADING);
    const env = (await pending).resolve(question);
    this.#keep({ q: question });
    this.#respond(env, question, `m${++this.#seq}`);
  }

  // #sha256 returns the lowercase hex SHA-256 of text's UTF-8 bytes (or of
  // bytes, a Uint8Array), with Web Crypto where the page has it; elsewhere
  // (an http: page not on localhost) with the core's own SHA-256, a module
  // of its own that the panel's markup names with its integrity, imported
  // only then.
  #sha256 = async (/** @type {Uint8Array | string} */ text) => {
    const bytes = /** @type {any} */ (text).buffer ? /** @type {Uint8Array} */ (text) : new TextEncoder().encode(/** @type {string} */ (text));
    if (crypto.subtle) return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', /** @type {Uint8Array<ArrayBuffer>} */ (bytes))));
    const el = hook(this.#root, 'sha256');
    return (await this.#root.askplane.import(new URL(attr(el, 'sha256'), document.baseURI).href, attr(el, 'sha256-integrity'))).sha256Hex(bytes);
  };

  // #code gives a code block its copy button.
  #code = (/** @type {HTMLElement} */ pre) => codeBox(this.#root, pre, this.#announce);

  /** @param {string} text */
  #echo(text) {
    const q = this.#clone('question');
    hook(q, 'question-text').textContent = text;
    this.#append(q);
  }

  /**
   * #respond shows the answer to question the local resolver gave (env),
   * or asks the backend for it.
   * @param {Envelope} env
   * @param {string} question
   * @param {string} messageId
   */
  #respond(env, question, messageId) {
    // Without a site config (it did not arrive, or did not decode) there
    // is no local answer, and, as AgentsKit hosts do with their bare
    // fallback adapter, the question goes to the Ask endpoint when the
    // page names one.
    const ep = !!this.#endpoint;
    const { action, envelope } = decide(env, this.#site ? this.#site.fallback.mode : ep ? FALLBACK_BACKEND : FALLBACK_DISABLED, ep);
    if (action === ACTION_ESCALATE) return this.#stream(question, envelope);
    if (envelope.outcome === OUTCOME_ANSWER) {
      // A site that records insights (the root's data-askplane-insights)
      // is told an exact answer was given, and nothing else: not the
      // question, not the fact (internal/sidecar/feedback.go).
      if (this.#endpoint && this.#root.hasAttribute('data-askplane-insights')) post(sibling(this.#endpoint, 'feedback'), '{"outcome":"exact"}');
      const answer = /** @type {NonNullable<Envelope['answer']>} */ (envelope.answer);
      /** @type {Turn} */
      const turn = { a: answer.markdown, s: answer.citations.map((c) => [c.title, isSafeHref(c.href) ? c.href : null]) };
      this.#card(turn);
      return this.#announce(STATE_ANSWERED);
    }
    if (envelope.outcome === OUTCOME_CHOICES) return this.#choices(envelope, messageId);
    // No backend to ask: why there is no answer is the whole answer.
    const notice = this.#clone('offline', envelope.reason);
    const why = hook(notice, `reason-text="${envelope.reason}"`);
    why.hidden = false;
    this.#append(notice);
    this.#status.textContent = why.textContent;
  }

  /**
   * #card shows an answer turn, and keeps it: a local answer, or a
   * backend one (b) whole, as its stream ended (stopped by the reader
   * when x), with its review link (e).
   * @param {Turn} turn
   */
  #card(turn) {
    const frag = this.#clone(turn.b ? 'stream' : 'answer');
    const entry = /** @type {HTMLElement} */ (frag.firstElementChild);
    entry.lang = attr(this.#root, 'lang');
    const s = /** @type {NonNullable<Turn['s']>} */ (turn.s);
    fillMarkdown(hook(entry, 'markdown'), /** @type {string} */ (turn.a), this.#code);
    hook(entry, 'sources-block').hidden = !s.length;
    for (const [title, href] of s) addSource(this.#root, entry, title, href);
    if (turn.b) {
      this.#ended(entry, turn.x === 1 ? STATE_STOPPED : STATE_DONE);
      if (turn.e) this.#reviewLink(entry, turn.e);
    }
    this.#append(frag);
    this.#keep(turn);
  }

  /**
   * #ended marks a backend answer's entry as its stream ended: done,
   * stopped (which it says where a complete answer says where it came
   * from) or error.
   * @param {HTMLElement} entry
   * @param {State} state
   */
  #ended(entry, state) {
    entry.setAttribute('aria-busy', 'false');
    entry.setAttribute('data-askplane-state', STATES[state]);
    if (state === STATE_STOPPED) hook(entry, 'provenance').textContent = message(this.#root, STATE_STOPPED);
    hook(entry, 'progress').hidden = hook(entry, 'stop').hidden = true;
  }

  /**
   * #keep adds a turn to the history the Ask request carries and to the
   * transcript kept for the site's other pages (see saveTranscript). A
   * run's turn still answering (r) joins the history once it ends.
   * @param {Turn} turn
   */
  #keep(turn) {
    if (!turn.r) this.#history.push({ role: turn.q != null ? ROLE_USER : ROLE_ASSISTANT, content: /** @type {string} */ (turn.q ?? turn.a) });
    this.#turns.push(turn);
    this.#fresh.hidden = false;
    this.#save();
  }

  #save() {
    saveTranscript(this.#key, this.#session, this.#turns);
  }

  // #restore shows the transcript kept by the site's previous page (see
  // readTranscript) and resumes its session, so the sidecar continues the
  // same conversation; a run still answering then is read again.
  #restore() {
    let question = '';
    readTranscript(
      this.#key,
      (session, remote) => {
        this.#session = session;
        this.#remote = remote;
      },
      (turn) => {
        this.#echo((question = turn.q));
        this.#keep(turn);
      },
      (turn) => this.#card(turn),
      (run, review) => this.#stream(question, undefined, null, runTurn(run, review)),
    );
    this.#empty.hidden = this.#turns.length > 0;
  }

  /**
   * clear starts a new conversation: the log, the kept transcript and the
   * session (the next question starts a new one at the sidecar, which is
   * told to forget the old one) go.
   */
  clear() {
    this.#inflight?.abort();
    this.#log.replaceChildren(this.#empty);
    this.#empty.hidden = false;
    this.#fresh.hidden = true;
    this.#history = [];
    this.#turns = [];
    // The sidecar forgets the old session now rather than at its TTL.
    if (this.#remote && this.#endpoint) post(sibling(this.#endpoint, `sessions/${this.#session}/forget`));
    this.#remote = false;
    this.#session = randomId();
    forgetTranscript(this.#key);
    this.#input.focus();
    this.#announce(STATE_CLEARED);
  }

  /**
   * #choices shows a choices envelope's suggestions as buttons, and
   * remembers what they offer in the session's reservations.
   * @param {Envelope} env
   * @param {string} messageId
   */
  #choices(env, messageId) {
    this.#reservations.rememberChoices(this.#session, messageId, env);
    const frag = this.#clone('choices');
    const box = hook(frag, 'choices');
    this.#lists.set(box, { messageId, env });
    const list = hook(frag, 'choice-list');
    for (const s of /** @type {NonNullable<Envelope['suggestions']>} */ (env.suggestions)) {
      const item = this.#clone('choice');
      const button = hook(item, 'choice');
      button.textContent = s.label;
      button.onclick = () => this.choose(box, s.id);
      list.append(item);
    }
    this.#append(frag);
    this.#announce(STATE_CHOICES);
  }

  /**
   * choose submits choiceId of the choices entry box through the
   * session's reservations: a choice that was not offered there, or one
   * already used, is refused.
   * @param {Element} box
   * @param {string} choiceId
   * @returns {boolean} whether the choice was taken
   */
  choose(box, choiceId) {
    // (Typed as present: the frame below is null when it is not.)
    const state = /** @type {{messageId: string, env: Envelope}} */ (this.#lists.get(box));
    const frame = state && choiceFrame(state.env, state.messageId);
    // (claim is typed as present: it is whenever result is granted.)
    const { result, claim } = /** @type {{result?: string, claim: import('../runtime/reservations.js').Claim}} */ (
      frame ? this.#reservations.submit(this.#session, frame.instanceId, frame.props, choiceId) : {}
    );
    if (result !== SUBMIT_GRANTED) {
      this.#fail(STATE_REFUSED);
      return false;
    }
    // A claim that does not commit is released, so the choice stays open.
    const release = (/** @type {unknown} */ e) => {
      claim.release();
      throw e;
    };
    try {
      const label = /** @type {NonNullable<Envelope['suggestions']>} */ (state.env.suggestions).find((s) => s.id === choiceId)?.label ?? claim.value;
      this.#echo(label);
      this.#keep({ q: label });
      for (const b of box.querySelectorAll('[data-askplane-choice]')) {
        /** @type {HTMLButtonElement} */ (b).disabled = true;
        if (b.textContent === label) b.setAttribute('aria-pressed', 'true');
      }
      this.#input.focus();
      this.load()
        .then((r) => {
          this.#respond(r.resolveChoice(choiceId, state.env.query), claim.value, `m${++this.#seq}`);
          claim.commit();
        })
        .catch(release);
    } catch (e) {
      release(e);
    }
    return true;
  }

  /**
   * #stream asks the backend and shows its answer as it arrives (read by
   * readAnswer), with no notice of why (the envelope's reason goes on
   * the entry as data-askplane-reason, for whoever debugs): the answer is
   * what the reader wanted. key is the question's Idempotency-Key: a
   * retry of a question whose answer never began (no response, or a
   * stream lost for good) sends the same one, so the sidecar joins the
   * run it may have started instead of paying for another. kept, when
   * given, is a transcript turn of a run still answering when the reader
   * left the previous page: its answer is read again from the run's log,
   * from its first event, instead of asked.
   * @param {string} question
   * @param {Envelope} [env]
   * @param {string | null} [key]
   * @param {Turn | null} [kept]
   */
  async #stream(question, env, key = null, kept = null) {
    this.#inflight?.abort();
    const idem = key || randomId();
    const frag = this.#clone('stream', env?.reason);
    const entry = /** @type {HTMLElement} */ (frag.firstElementChild);
    entry.lang = attr(this.#root, 'lang');
    const md = hook(entry, 'markdown');
    // The text so far, shown as markdown as it grows: rendered at most
    // once a frame (fillMarkdown sets text only, so a half-written fence
    // is a code block until it closes), and once more at the end.
    let text = '';
    let frame = 0;
    const render = () => {
      cancelAnimationFrame(frame);
      frame = 0;
      fillMarkdown(md, text, this.#code);
      this.#scroll();
    };
    const ctrl = new AbortController();
    const { signal } = ctrl;
    this.#inflight = ctrl;
    hook(entry, 'stop').onclick = () => ctrl.abort();
    this.#stop.hidden = false;
    if (kept) this.#turns.push(kept);
    this.#append(frag);
    this.#announce(STATE_ESCALATING);
    const endpoint = /** @type {URL} */ (this.#endpoint);
    /** @type {string | null} */
    let failure = null;
    let review = kept?.e || '';
    let run = kept?.r || ''; // the run answering, once known
    let turn = kept; // the transcript's turn of the run, kept while it answers
    /** @type {Array<[string, string | null]>} */
    const cited = [];
    const ids = new Set();
    try {
      failure = await readAnswer(
        endpoint,
        run,
        // The question, asked.
        () => {
          const body = buildAskRequest({ question, history: this.#history.slice(0, -1), sessionId: this.#session, escalation: env });
          this.#remote = true;
          return fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', accept: NDJSON, 'idempotency-key': idem }, body, signal });
        },
        signal,
        // The answer began: its review link, unless kept.
        (link) => {
          if (!kept) review = link;
          if (review) this.#reviewLink(entry, review);
          this.#announce(STATE_STREAMING);
        },
        // The run answering is kept while it answers.
        (id) => this.#keep((turn = runTurn((run = id), review))),
        (delta) => {
          text += delta;
          frame ||= requestAnimationFrame(render);
        },
        (sources) => {
          for (const s of sources) {
            if (typeof s?.title !== 'string' || typeof s.path !== 'string' || ids.has(s.id)) continue;
            ids.add(s.id);
            /** @type {string | null} */
            let href = typeof s.anchor === 'string' && s.anchor !== '' ? `${s.path}#${s.anchor}` : s.path;
            if (!isSafeHref(href)) href = null;
            cited.push([s.title, href]);
            addSource(this.#root, entry, s.title, href);
          }
          this.#scroll();
        },
      );
    } catch (e) {
      if (!signal.aborted) failure = e instanceof RangeError ? 'ASK_INVALID_REQUEST' : NETWORK;
    }
    const ended = signal.aborted ? STATE_STOPPED : STATE_DONE;
    // Stop ends the run too, so it spends nothing more (best effort).
    if (signal.aborted && run) post(sibling(endpoint, `runs/${run}/cancel`));
    render();
    if (this.#inflight === ctrl) {
      this.#inflight = null;
      this.#stop.hidden = true;
    }
    this.#ended(entry, failure ? STATE_ERROR : ended);
    // The answer is kept as it ended; a run's turn, kept while it
    // answered, is settled in its place or dropped.
    /** @type {Turn | false} */
    const done = failure === null && text !== '' && entry.isConnected && { a: text, s: cited, ...(ended === STATE_STOPPED && { x: /** @type {1} */ (1) }) };
    if (turn) {
      delete turn.r;
      const i = this.#turns.indexOf(turn);
      if (done) {
        this.#history.push({ role: ROLE_ASSISTANT, content: text });
        Object.assign(turn, done);
      } else if (i >= 0) this.#turns.splice(i, 1);
      this.#save();
    } else if (done) this.#keep({ ...done, b: 1, ...(review && { e: review }) });
    if (failure !== null && !signal.aborted) {
      // A failed answer is not "answered by the docs backend": an entry
      // with no text goes, one with some keeps it without that line.
      if (text === '') entry.remove();
      else hook(entry, 'provenance').hidden = true;
      const fs = failureState(failure);
      // The same key again only when the request may have been admitted
      // unseen (no response, or a run whose log could not be read again):
      // a run that ended, or a refusal, would only say the same.
      const again = failure === NETWORK ? idem : randomId();
      this.#fail(fs, fs === STATE_NOSOURCES || failure === 'ASK_INVALID_REQUEST' ? null : () => this.#stream(question, env, again), failure);
    } else if (entry.isConnected) {
      // (Gone from the log: the reader started a new conversation.)
      this.#announce(ended);
      if (done && !done.x) offerFeedback(this.#root, entry, review, endpoint, this.#announce);
    }
  }

  /**
   * #reviewLink shows entry's link to the answer's evidence.
   * @param {HTMLElement} entry
   * @param {string} href
   */
  #reviewLink(entry, href) {
    Object.assign(hook(entry, 'evidence-link'), { href, target: '_blank', rel: 'noopener' });
    hook(entry, 'evidence').hidden = false;
  }

  /**
   * #fail shows one notice in the reader's language: the state's message,
   * and a retry button when retry is given (it removes the notice and
   * calls retry). code (the backend's error code or HTTP status) goes on
   * the entry as data-askplane-code, for whoever debugs; it is never
   * shown.
   * @param {State} state
   * @param {(() => void) | null} [retry]
   * @param {string} [code]
   */
  #fail(state, retry, code) {
    const frag = this.#clone('error');
    const entry = /** @type {HTMLElement} */ (frag.firstElementChild);
    hook(entry, 'error-text').textContent = message(this.#root, state);
    entry.setAttribute('data-askplane-code', code || STATES[state]);
    if (retry) {
      const b = hook(entry, 'retry');
      b.hidden = false;
      b.onclick = () => {
        entry.remove();
        this.#input.focus();
        retry();
      };
    }
    this.#append(frag);
    this.#announce(state);
  }

  /**
   * #clone copies the markup's template name; reason, when given, goes on
   * its entry as data-askplane-reason.
   * @param {string} name
   * @param {string} [reason]
   * @returns {DocumentFragment}
   */
  #clone(name, reason) {
    const frag = /** @type {DocumentFragment} */ (template(this.#root, name).cloneNode(true));
    if (reason) /** @type {Element} */ (frag.firstElementChild).setAttribute('data-askplane-reason', reason);
    return frag;
  }

  /** @param {Node} node */
  #append(node) {
    this.#log.append(node);
    this.#scroll();
  }

  #scroll() {
    this.#log.scrollTop = this.#log.scrollHeight;
  }

  // #announce says state's message in the status line, and returns it.
  #announce = (/** @type {State} */ state) => (this.#status.textContent = message(this.#root, state));
}
