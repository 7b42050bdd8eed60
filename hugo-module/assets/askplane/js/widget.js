// The interactive widget: wires the markup generated from internal/web (see
// internal/web/doc.go for the data-askplane-* hooks) to the protocol core.
// It is part of the core's bundle (core.js): the page's loader (main.js)
// shows and hides the panel, and constructs the Widget once the markup and
// the core are in, for the log: questions, answers, conversations.
// Every value from the artifact or the Ask stream reaches the page through
// textContent or setAttribute, links only through the safe-link rule; no
// innerHTML anywhere.
//
// Every reader who asks downloads this file, gzipped, with the core
// (TestWidgetSize weighs it): it is written to stay small, with one
// path for each thing it shows (a backend answer kept from an earlier
// page is drawn by the code that finishes a live one).

import { fillMarkdown } from './markdown.js';
import { decodeSiteConfig, siteTrust } from './site.js';
import { isSafeHref } from './href.js';
import { ACTION_ESCALATE, VerifiedResolver, decide } from './resolver.js';
import { verifyArtifactIndexWith } from './knowledge.js';
import { invalid } from './json.js';
import { Reservations, SUBMIT_GRANTED, choiceFrame } from './reservations.js';
import { buildAskRequest, readAskEvents } from './ask.js';
import { isSafeIdentifier } from './text.js';
import { OUTCOME_ANSWER, OUTCOME_CHOICES } from './answer.js';
import { evidenceHref, feedbackRequest } from './feedback.js';

const LOAD_TIMEOUT_MS = 8000;
const LOAD_ATTEMPTS = 2;
// The transcript kept in sessionStorage across the site's pages: at most
// this many turns (a question or an answer is one), and this many UTF-16
// units of JSON; the oldest turns go first.
const KEEP_TURNS = 24;
const KEEP_UNITS = 32768;
const SAFE_KEPT_HREF = /^(https?:\/\/|\/(?!\/)|#)/;
const HTTP_URL = /^https?:/;
// A durable answer (a run, named by the sidecar's X-Askplane-Run header
// or its first event) whose stream drops before its end is read again
// from the run's log, at most this many times, after these pauses (ms).
const RESUME_WAITS = [300, 1000, 3000];
const NDJSON = 'application/x-ndjson';
// Statuses that say no Ask service is there (what a static host or a
// proxy answers): the reader is told the backend could not be reached.
const UNREACHABLE = /^(40[45]|50[1-4])$/;

const hook = (el, name) => el.querySelector(`[data-askplane-${name}]`);
const attr = (el, name) => el.getAttribute(`data-askplane-${name}`) || '';

const make = (tag, props) => Object.assign(document.createElement(tag), props);

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

// randomId returns 32 hex digits: a chat session id, an Idempotency-Key.
const randomId = () => hex(crypto.getRandomValues(new Uint8Array(16)));

// broken is the Resolver of an artifact that did not arrive or verify: it
// escalates every question as corrupt.
const broken = () => new VerifiedResolver({ ok: false, diagnostic: invalid() });

// sibling is the route path beside the Ask endpoint (a run's events or
// cancel, a session's forget), with the endpoint's query (its corpus),
// and after when given.
function sibling(endpoint, path, after) {
  const url = new URL(path, endpoint);
  url.search = endpoint.search;
  if (after != null) url.searchParams.set('after', after);
  return url;
}

// runTurn is the transcript's turn of a run still answering: kept so the
// next page reads its answer from the run's log (e: its review link).
const runTurn = (r, e) => ({ a: '', s: [], b: 1, r, ...(e && { e }) });

// post sends a best-effort POST that nothing waits for, kept alive past
// the page; body, when given, is JSON.
const post = (url, body) => fetch(url, { method: 'POST', keepalive: true, ...(body && { headers: { 'content-type': 'application/json' }, body }) }).catch(() => {});

// pause resolves after ms, or rejects when signal aborts.
const pause = (ms, signal) =>
  new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

// fetchBytes GETs url with a bounded timeout and one retry, through the
// HTTP cache as cache says (a RequestCache: default, no-cache, …).
async function fetchBytes(url, cache) {
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

// failureKey returns the message that tells the reader why the backend
// gave no answer: a failure is the backend's error code, an HTTP status
// ("HTTP 503") or NETWORK (the request never got a response).
function failureKey(failure) {
  if (failure === 'ASK_NO_GROUNDED_SOURCES') return 'nosources';
  if (failure === 'ASK_RATE_LIMITED') return 'busy';
  if (failure === 'NETWORK' || UNREACHABLE.test(failure.slice(5))) return 'unreachable';
  return 'failed';
}

// copyText puts text on the clipboard and says whether it did; it never
// rejects. It uses the Clipboard API where the page may, else a selected,
// off-screen textarea and the copy command.
async function copyText(text) {
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

// cleanTitle drops the anchor glyphs themes put in headings (#, ¶, §, 🔗)
// from a source's title.
const cleanTitle = (t) => t.replace(/^[\s#¶§🔗\uFE0F]+|[\s#¶§🔗\uFE0F]+$/gu, '') || t;

export class Widget {
  #root;
  #endpoint = null; // the Ask endpoint's URL, or null when the page names none
  #site = null; // the decoded site config, or null when the anchor is bad
  #resolver = null; // a Promise<Resolver> once loading started
  #reservations = new Reservations(); // the choices offered, and their claims
  #session = randomId();
  #seq = 0;
  #history = [];
  #turns = []; // the transcript as kept: {q} or {a, s: [[title, href]], b?: backend, e?: evidence, x?: stopped, r?: run}
  #lists = new WeakMap(); // choices entry → {messageId, env}
  #inflight = null; // AbortController of the running Ask request
  #remote = false; // the session was sent to the sidecar
  #input;
  #stop;
  #status;
  #log;
  #empty;
  #fresh;

  constructor(root) {
    this.#root = root;
    // The form's Stop comes before the log, whose entries have their own.
    [this.#input, this.#stop, this.#status, this.#log, this.#empty, this.#fresh] = ['input', 'stop', 'status', 'log', 'empty', 'new'].map((n) => hook(root, n));
    try {
      const href = attr(this.#root, 'endpoint');
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
      const b = e.target.closest('button');
      if (!b) return;
      this.#input.focus();
      this.ask(b.textContent.trim());
    };
  }

  // load fetches the site config (the root's data-askplane-site, the
  // trust anchor), then fetches and verifies the artifact the config
  // pins, once. A failed load, a bad config or a bad artifact is a
  // Resolver that escalates every question as corrupt. A config or an
  // artifact that did not arrive is fetched again on the next question.
  // The page names the config with v, the first 12 hex digits of its
  // SHA-256 (widget-shell.html): a config that does not match (a cache's
  // copy of another site's, or of another build's) is fetched once more
  // past the cache, then is as bad as one that does not decode.
  load() {
    return (this.#resolver ??= (async () => {
      const href = attr(this.#root, 'site');
      let bytes, site;
      try {
        const url = href && new URL(href, document.baseURI);
        const v = url && url.searchParams.get('v');
        const stale = async () => bytes && v && !(await this.#sha256(bytes)).startsWith(v);
        bytes = url ? await fetchBytes(url).catch(() => null) : undefined;
        if (await stale()) bytes = await fetchBytes(url, 'no-cache').catch(() => null);
        if (await stale()) bytes = new Uint8Array();
        const d = bytes && decodeSiteConfig(bytes);
        site = this.#site = d?.ok ? d.value : null;
        if (site) return new VerifiedResolver(await verifyArtifactIndexWith(await fetchBytes(new URL(site.artifact.href, document.baseURI)), siteTrust(site), this.#sha256));
      } catch {}
      // A config that did not arrive (null) is fetched again next time;
      // one that arrived and is bad, or none at all, stays bad.
      if (site || bytes === null) queueMicrotask(() => (this.#resolver = null));
      return broken();
    })());
  }

  // ask answers question: locally when the artifact can, else from the
  // backend when the site allows it, else with the offline notice.
  async ask(question, echo = true) {
    this.#empty.hidden = true;
    // Only the latest failure may be tried again: the history has moved on.
    for (const b of this.#log.querySelectorAll('[data-askplane-retry]')) b.hidden = true;
    if (echo) this.#echo(question);
    let ready = false;
    const pending = this.load().then((r) => ((ready = true), r));
    await 0;
    if (!ready) this.#announce('loading');
    const env = (await pending).resolve(question);
    this.#keep({ q: question });
    this.#respond(env, question, `m${++this.#seq}`);
  }

  // #sha256 returns the lowercase hex SHA-256 of text's UTF-8 bytes (or of
  // bytes, a Uint8Array), with
  // Web Crypto where the page has it; elsewhere (an http: page not on
  // localhost) with the core's own SHA-256, a module of its own that the
  // panel's markup names with its integrity, imported only then.
  #sha256 = async (text) => {
    const bytes = text.buffer ? text : new TextEncoder().encode(text);
    if (crypto.subtle) return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
    const el = hook(this.#root, 'sha256');
    return (await this.#root.askplane.import(new URL(attr(el, 'sha256'), document.baseURI).href, attr(el, 'sha256-integrity'))).sha256Hex(bytes);
  };

  // #code gives a code block its copy button.
  #code = (pre) => {
    const box = this.#clone('code').firstElementChild;
    const b = box.firstElementChild;
    b.onclick = () =>
      copyText(pre.textContent).then((ok) => {
        b.focus();
        if (!ok) return;
        b.textContent = this.#text('copied');
        this.#announce('copied');
        setTimeout(() => (b.textContent = this.#text('copy')), 2000);
      });
    box.append(pre);
    return box;
  };

  #echo(text) {
    const q = this.#clone('question');
    hook(q, 'question-text').textContent = text;
    this.#append(q);
  }

  #respond(env, question, messageId) {
    // Without a site config (it did not arrive, or did not decode) there
    // is no local answer, and, as AgentsKit hosts do with their bare
    // fallback adapter, the question goes to the Ask endpoint when the
    // page names one.
    const ep = !!this.#endpoint;
    const { action, envelope } = decide(env, this.#site ? this.#site.fallback.mode : ep ? 'backend' : 'disabled', ep);
    if (action === ACTION_ESCALATE) return this.#stream(question, envelope);
    if (envelope.outcome === OUTCOME_ANSWER) {
      // A site that records insights (the root's data-askplane-insights)
      // is told an exact answer was given, and nothing else: not the
      // question, not the fact (internal/sidecar/feedback.go).
      if (ep && this.#root.hasAttribute('data-askplane-insights')) post(sibling(this.#endpoint, 'feedback'), '{"outcome":"exact"}');
      const turn = { a: envelope.answer.markdown, s: envelope.answer.citations.map((c) => [c.title, isSafeHref(c.href) ? c.href : null]) };
      this.#card(turn);
      this.#keep(turn);
      return this.#announce('answered');
    }
    if (envelope.outcome === OUTCOME_CHOICES) return this.#choices(envelope, messageId);
    // No backend to ask: why there is no answer is the whole answer.
    const notice = this.#clone('offline', envelope.reason);
    const why = hook(notice, `reason-text="${envelope.reason}"`);
    why.hidden = false;
    this.#append(notice);
    this.#status.textContent = why.textContent;
  }

  // #card shows an answer turn, as kept: a local answer, or a backend one
  // (b) whole, as its stream ended (stopped by the reader when x), with
  // its review link (e).
  #card(turn) {
    const frag = this.#clone(turn.b ? 'stream' : 'answer');
    const entry = frag.firstElementChild;
    entry.lang = attr(this.#root, 'lang');
    fillMarkdown(hook(entry, 'markdown'), turn.a, this.#code);
    hook(entry, 'sources-block').hidden = !turn.s.length;
    for (const [title, href] of turn.s) this.#source(entry, title, href);
    if (turn.b) {
      this.#ended(entry, turn.x === 1 ? 'stopped' : 'done');
      if (turn.e) this.#reviewLink(entry, turn.e);
    }
    this.#append(frag);
  }

  // #ended marks a backend answer's entry as its stream ended: done,
  // stopped (which it says where a complete answer says where it came
  // from) or error.
  #ended(entry, state) {
    entry.setAttribute('aria-busy', 'false');
    entry.setAttribute('data-askplane-state', state);
    if (state === 'stopped') hook(entry, 'provenance').textContent = this.#text('stopped');
    hook(entry, 'progress').hidden = hook(entry, 'stop').hidden = true;
  }

  // #keep adds a turn to the history the Ask request carries and to the
  // transcript kept for the site's other pages, bounded (KEEP_TURNS,
  // KEEP_UNITS), with the session it belongs to. A run's turn still
  // answering (r) joins the history once it ends.
  #keep(turn) {
    if (!turn.r) this.#history.push({ role: turn.q != null ? 'user' : 'assistant', content: turn.q ?? turn.a });
    this.#turns.push(turn);
    this.#fresh.hidden = false;
    this.#save();
  }

  #save() {
    let json;
    while ((json = JSON.stringify({ session: this.#session, turns: this.#turns })).length > KEEP_UNITS || this.#turns.length > KEEP_TURNS) this.#turns.shift();
    try {
      sessionStorage.setItem(this.#storeKey(), json);
    } catch {
      // Storage may be full or refused: the conversation stays on this page.
    }
  }

  #storeKey() {
    return `askplane:${attr(this.#root, 'site')}`;
  }

  // #restore shows the transcript kept by the site's previous page and
  // resumes its session, so the sidecar continues the same conversation.
  // What it reads is checked as if a stranger wrote it: strings where
  // strings belong, links only of the kinds the widget keeps.
  #restore() {
    let kept;
    try {
      kept = JSON.parse(sessionStorage.getItem(this.#storeKey()));
    } catch {
      return;
    }
    if (!kept || !/^[0-9a-f]{32}$/.test(kept.session) || !Array.isArray(kept.turns)) return;
    this.#session = kept.session;
    this.#remote = kept.turns.some((t) => t?.b);
    let question = '';
    for (const [i, t] of kept.turns.entries()) {
      if (t && !(typeof t.e === 'string' && HTTP_URL.test(t.e))) delete t.e;
      if (typeof t?.q === 'string') this.#echo((question = t.q));
      else if (typeof t?.r === 'string') {
        // A run still answering when the reader left: the last turn is
        // read again from the run's log; an earlier one is gone.
        if (i === kept.turns.length - 1 && isSafeIdentifier(t.r)) this.#stream(question, undefined, null, runTurn(t.r, t.e));
        continue;
      } else if (typeof t?.a === 'string' && Array.isArray(t.s)) {
        t.s = t.s.filter((x) => Array.isArray(x) && typeof x[0] === 'string').map(([title, href]) => [title, typeof href === 'string' && SAFE_KEPT_HREF.test(href) ? href : null]);
        this.#card(t);
      } else continue;
      this.#keep(t);
    }
    this.#empty.hidden = this.#turns.length > 0;
  }

  // clear starts a new conversation: the log, the kept transcript and the
  // session (the next question starts a new one at the sidecar, which is
  // told to forget the old one) go.
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
    try {
      sessionStorage.removeItem(this.#storeKey());
    } catch {}
    this.#input.focus();
    this.#announce('cleared');
  }

  // #source lists one cited source under entry's answer.
  #source(entry, title, href) {
    const item = this.#clone('source');
    const a = hook(item, 'source-link');
    a.textContent = cleanTitle(title);
    if (href) a.setAttribute('href', href);
    hook(entry, 'sources').append(item);
    hook(entry, 'sources-block').hidden = false;
  }

  #choices(env, messageId) {
    this.#reservations.rememberChoices(this.#session, messageId, env);
    const frag = this.#clone('choices');
    const box = hook(frag, 'choices');
    this.#lists.set(box, { messageId, env });
    const list = hook(frag, 'choice-list');
    for (const s of env.suggestions) {
      const item = this.#clone('choice');
      const button = hook(item, 'choice');
      button.textContent = s.label;
      button.onclick = () => this.choose(box, s.id);
      list.append(item);
    }
    this.#append(frag);
    this.#announce('choices');
  }

  // choose submits choiceId of the choices entry box through the
  // session's reservations: a choice that was not offered there, or one
  // already used, is refused.
  choose(box, choiceId) {
    const state = this.#lists.get(box);
    const frame = state && choiceFrame(state.env, state.messageId);
    const { result, claim } = frame ? this.#reservations.submit(this.#session, frame.instanceId, frame.props, choiceId) : {};
    if (result !== SUBMIT_GRANTED) {
      this.#fail('refused');
      return false;
    }
    // A claim that does not commit is released, so the choice stays open.
    const release = (e) => {
      claim.release();
      throw e;
    };
    try {
      const label = state.env.suggestions.find((s) => s.id === choiceId)?.label ?? claim.value;
      this.#echo(label);
      this.#keep({ q: label });
      for (const b of box.querySelectorAll('[data-askplane-choice]')) {
        b.disabled = true;
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

  // #stream asks the backend and shows its answer as it arrives, with no
  // notice of why (the envelope's reason goes on the entry as
  // data-askplane-reason, for whoever debugs): the answer is what the
  // reader wanted. key is the question's Idempotency-Key: a retry of a
  // question whose answer never began (no response, or a stream lost for
  // good) sends the same one, so the sidecar joins the run it may have
  // started instead of paying for another. kept,
  // when given, is a transcript turn of a run still answering when the
  // reader left the previous page: its answer is read again from the
  // run's log, from its first event, instead of asked.
  async #stream(question, env, key = null, kept = null) {
    this.#inflight?.abort();
    key ||= randomId();
    const frag = this.#clone('stream', env?.reason);
    const entry = frag.firstElementChild;
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
    this.#announce('escalating');
    const endpoint = this.#endpoint;
    let failure = null;
    let review = kept?.e || '';
    let run = kept?.r || ''; // the run answering, once known
    let seen = 0; // events read of the run's log
    let turn = kept; // the transcript's turn of the run, kept while it answers
    let lost = false; // the stream ended before its last event
    let doubt = 0; // where a run's retryable error was read, to read again
    const cited = [];
    const ids = new Set();
    // events reads the run's log after the events already read.
    const events = () => fetch(sibling(endpoint, `runs/${run}/events`, seen), { headers: { accept: NDJSON }, signal });
    const known = (id) => {
      if (run || !isSafeIdentifier(id)) return;
      run = id;
      this.#keep((turn = runTurn(run, review)));
    };
    try {
      let res;
      if (kept) res = await events();
      else {
        const body = buildAskRequest({ question, history: this.#history.slice(0, -1), sessionId: this.#session, escalation: env });
        this.#remote = true;
        res = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', accept: NDJSON, 'idempotency-key': key }, body, signal });
      }
      for (let tries = 0, first = true; ; first = false) {
        if (!res.ok) {
          // A status that says no Ask service is there is kept; otherwise
          // the code of the Ask error body, when it is one, says more.
          // Neither is shown to the reader.
          const st = res.status;
          const body = /json/.test(res.headers.get('content-type')) && (await res.json().catch(() => null));
          failure = st === 429 ? 'ASK_RATE_LIMITED' : (!UNREACHABLE.test(st) && body?.error?.code) || `HTTP ${st}`;
          break;
        }
        if (first) {
          // The answer's review link: the Link header's rel="evidence"
          // target. Its fragment is the evidence recipe; it never reaches
          // a server until the reader asks the review page to rebuild it.
          if (!kept) review = evidenceHref(res.headers.get('link'), res.url || endpoint);
          if (review) this.#reviewLink(entry, review);
          known(res.headers.get('x-askplane-run'));
          this.#announce('streaming');
        }
        lost = true;
        try {
          for await (const ev of readAskEvents(res.body)) {
            seen++;
            const { type, args } = ev;
            if (type === 'text') {
              text += ev.delta;
              frame ||= requestAnimationFrame(render);
            } else if (type === 'tool' && ev.name === 'run') {
              known(args.run);
            } else if (type === 'tool' && ev.name === 'cite' && Array.isArray(args.sources)) {
              for (const s of args.sources) {
                if (typeof s?.title !== 'string' || typeof s.path !== 'string' || ids.has(s.id)) continue;
                ids.add(s.id);
                let href = typeof s.anchor === 'string' && s.anchor !== '' ? `${s.path}#${s.anchor}` : s.path;
                if (!isSafeHref(href)) href = null;
                cited.push([s.title, href]);
                this.#source(entry, s.title, href);
              }
              this.#scroll();
            } else if (type === 'error') {
              // A run's retryable error may be the notice of an instance
              // going away, which is not in the run's log: the log is read
              // again from before it, and only an error read twice at the
              // same place ends the answer.
              if (run && ev.retryable && doubt !== seen) {
                doubt = seen--;
                break;
              }
              failure = ev.code || 'ASK_INTERNAL';
              lost = false;
              break;
            } else if (type === 'done') {
              lost = false;
              break;
            }
          }
          // A live answer (no run) ends with its stream.
          if (!run) lost = false;
        } catch (e) {
          if (signal.aborted || !run) throw e;
        }
        if (!lost) break;
        // The connection dropped mid-run: the rest is in the run's log,
        // after the events already read. A request that fails is tried
        // again as a dropped stream is, a bounded number of times.
        for (res = null; !res; ) {
          if (tries >= RESUME_WAITS.length) throw new TypeError('askplane: the run could not be read again');
          await pause(RESUME_WAITS[tries++], signal);
          res = await events().catch((e) => {
            if (signal.aborted) throw e;
          });
        }
      }
    } catch (e) {
      if (!signal.aborted) failure = e instanceof RangeError ? 'ASK_INVALID_REQUEST' : 'NETWORK';
    }
    const ended = signal.aborted ? 'stopped' : 'done';
    // Stop ends the run too, so it spends nothing more (best effort).
    if (signal.aborted && run) post(sibling(endpoint, `runs/${run}/cancel`));
    render();
    if (this.#inflight === ctrl) {
      this.#inflight = null;
      this.#stop.hidden = true;
    }
    this.#ended(entry, failure ? 'error' : ended);
    // The answer is kept as it ended; a run's turn, kept while it
    // answered, is settled in its place or dropped.
    const done = failure === null && text !== '' && entry.isConnected && { a: text, s: cited, ...(ended === 'stopped' && { x: 1 }) };
    if (turn) {
      delete turn.r;
      const i = this.#turns.indexOf(turn);
      if (done) {
        this.#history.push({ role: 'assistant', content: text });
        Object.assign(turn, done);
      } else if (i >= 0) this.#turns.splice(i, 1);
      this.#save();
    } else if (done) this.#keep({ ...done, b: 1, ...(review && { e: review }) });
    if (failure !== null && !signal.aborted) {
      // A failed answer is not "answered by the docs backend": an entry
      // with no text goes, one with some keeps it without that line.
      if (text === '') entry.remove();
      else hook(entry, 'provenance').hidden = true;
      const fk = failureKey(failure);
      // The same key again only when the request may have been admitted
      // unseen (no response, or a run whose log could not be read again):
      // a run that ended, or a refusal, would only say the same.
      const again = failure === 'NETWORK' ? key : randomId();
      this.#fail(fk, fk === 'nosources' || failure === 'ASK_INVALID_REQUEST' ? null : () => this.#stream(question, env, again), failure);
    } else if (entry.isConnected) {
      // (Gone from the log: the reader started a new conversation.)
      this.#announce(ended);
      if (done && !done.x) this.#feedback(entry, review);
    }
  }

  // #feedback shows the helpful / not helpful control under a complete
  // backend answer, when the site takes feedback (the root's
  // data-askplane-feedback) and the answer's review link names its
  // context_id (in the recipe, its fragment). A choice posts
  // {context_id, verdict}, nothing the reader typed, once, to the
  // endpoint's sibling feedback?corpus=<the review link's corpus>.
  #feedback(entry, review) {
    const req = this.#root.hasAttribute('data-askplane-feedback') && review && feedbackRequest(review, this.#endpoint);
    if (!req) return;
    const box = hook(entry, 'feedback');
    box.hidden = false;
    box.onclick = (e) => {
      const verdict = e.target.closest('[data-askplane-verdict]')?.getAttribute('data-askplane-verdict');
      if (!verdict) return;
      post(req.url, JSON.stringify({ context_id: req.context_id, verdict }));
      box.replaceChildren(this.#text('thanks'));
      box.tabIndex = -1;
      box.focus();
      this.#announce('thanks');
    };
  }

  #reviewLink(entry, href) {
    Object.assign(hook(entry, 'evidence-link'), { href, target: '_blank', rel: 'noopener' });
    hook(entry, 'evidence').hidden = false;
  }

  // #fail shows one notice in the reader's language: the message key, and
  // a retry button when retry is given (it removes the notice and calls
  // retry). code (the backend's error code or HTTP status) goes on the
  // entry as data-askplane-code, for whoever debugs; it is never shown.
  #fail(key, retry = null, code = '') {
    const frag = this.#clone('error');
    const entry = frag.firstElementChild;
    hook(entry, 'error-text').textContent = this.#text(key);
    entry.setAttribute('data-askplane-code', code || key);
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
    this.#announce(key);
  }

  #template(name) {
    return this.#root.querySelector(`template[data-askplane-template="${name}"]`).content;
  }

  // #clone copies the markup's template name; reason, when given, goes
  // on its entry as data-askplane-reason.
  #clone(name, reason) {
    const frag = this.#template(name).cloneNode(true);
    if (reason) frag.firstElementChild.setAttribute('data-askplane-reason', reason);
    return frag;
  }

  #append(node) {
    this.#log.append(node);
    this.#scroll();
  }

  #scroll() {
    this.#log.scrollTop = this.#log.scrollHeight;
  }

  // #text returns the message for key in the page's language: every string
  // the script shows comes from the markup's "messages" template, so the
  // translations live in the module's i18n files only.
  #text(key) {
    return hook(this.#template('messages'), `message="${key}"`)?.textContent || '';
  }

  #announce(key) {
    this.#status.textContent = this.#text(key);
  }
}
