// The evidence review page. It reads the recipe from the URL fragment,
// shows what it names, and asks the sidecar to rebuild that evidence only
// when the reader submits the form. Every value goes in through
// textContent; links only to paths on this origin. No inline script, no
// eval, nothing from another origin: the page's CSP allows none of it.

const PAGE = 5; // records a page

const $ = (name) => document.querySelector(`[data-review-${name}]`);

function decodeFragment(fragment) {
  if (!fragment || fragment.length > 16000 || !/^[A-Za-z0-9_-]+$/.test(fragment)) return null;
  try {
    const bin = atob(fragment.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const recipe = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (!recipe || recipe.bundle !== 'askplane.evidence' || typeof recipe.question !== 'string' ||
        typeof recipe.version !== 'string' || typeof recipe.context_id !== 'string') return null;
    return recipe;
  } catch {
    return null;
  }
}

// safePath is a link on this origin: a path, never a scheme or another host.
function safePath(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.includes('\\') ? url : null;
}

function show(el, on) { el.hidden = !on; }

function renderRecords(records, page) {
  const list = $('records');
  list.replaceChildren();
  list.start = page * PAGE + 1;
  for (const r of records.slice(page * PAGE, page * PAGE + PAGE)) {
    const li = document.createElement('li');
    const title = document.createElement('h3');
    const href = safePath(r.anchor ? `${r.url}#${r.anchor}` : r.url);
    if (href) {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = r.title;
      title.append(a);
    } else {
      title.textContent = r.title;
    }
    const meta = document.createElement('p');
    meta.className = 'review__meta';
    meta.textContent = `${r.id} · score ${r.score}`;
    const text = document.createElement('p');
    text.className = 'review__excerpt';
    text.textContent = r.excerpt;
    li.append(title, meta, text);
    list.append(li);
  }
  const pages = Math.ceil(records.length / PAGE);
  show($('pages'), pages > 1);
  $('page').textContent = `Page ${page + 1} of ${pages}`;
  $('prev').disabled = page === 0;
  $('next').disabled = page + 1 >= pages;
}

function fail(code, message, recipe) {
  show($('result'), false);
  $('failure-code').textContent = code;
  $('failure-message').textContent = message;
  $('failure-context').textContent = recipe.context_id;
  show($('failure'), true);
  $('status').textContent = 'The evidence cannot be rebuilt.';
}

// post asks the sidecar to replay request ({fragment} or {recipe}). The
// page's query (?corpus=…) names the site on a sidecar of several.
async function post(request) {
  const res = await fetch('/v1/evidence/replay' + location.search, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
    credentials: 'same-origin',
  });
  return res.json();
}

// rebuild replays the link's recipe, or (newTask) the same corpus version
// and engine with the reader's own question: a new task, labelled so, whose
// evidence is never taken for the answer's.
async function rebuild(fragment, recipe, newTask) {
  const buttons = [$('submit'), $('newtask-submit')];
  buttons.forEach((b) => { b.disabled = true; });
  show($('failure'), false);
  $('status').textContent = newTask ? 'Searching this corpus version…' : 'Rebuilding the evidence…';
  let body;
  try {
    if (newTask) {
      const { context_id: _, ...rest } = recipe;
      body = await post({ recipe: { ...rest, question: newTask } });
    } else {
      body = await post({ fragment });
    }
  } catch {
    buttons.forEach((b) => { b.disabled = false; });
    return fail('unreachable', 'The sidecar did not answer. Try again later.', recipe);
  }
  buttons.forEach((b) => { b.disabled = false; });
  if (body.error) return fail(String(body.error.code), String(body.error.message), recipe);
  const ev = body.evidence;
  const id = body.replay_identity || {};
  if (!ev || (!newTask && ev.context_id !== recipe.context_id)) {
    return fail('context_mismatch', 'The rebuilt evidence is not the evidence this link names.', recipe);
  }
  show($('newtask-note'), !!newTask);
  $('result-title').textContent = newTask ? 'New evidence' : 'Evidence';
  $('identity-engine').textContent = [id.engine, ...(id.matching_engines || []).filter((e) => e !== id.engine)].join(', ');
  $('identity-origin').textContent = id.origin ? id.origin : 'Unknown: the link did not name the engine, so any engine listed above may have selected it.';
  $('identity-context').textContent = ev.context_id;
  $('identity-digest').textContent = ev.digest;
  const records = Array.isArray(ev.records) ? ev.records : [];
  let page = 0;
  renderRecords(records, page);
  $('prev').onclick = () => renderRecords(records, --page);
  $('next').onclick = () => renderRecords(records, ++page);
  show($('result'), true);
  const n = `${records.length} record${records.length === 1 ? '' : 's'}`;
  $('status').textContent = newTask ? `New task: ${n} for your question, not the answer's evidence.` : `Rebuilt: ${n}, byte for byte the answer's evidence.`;
}

function boot() {
  const fragment = location.hash.slice(1);
  const recipe = decodeFragment(fragment);
  if (!recipe) {
    show($('missing'), true);
    return;
  }
  $('question').textContent = recipe.question;
  $('version').textContent = recipe.version;
  $('engine').textContent = recipe.engine_id || 'not named';
  $('context').textContent = recipe.context_id;
  show($('historical'), !recipe.engine_id);
  show($('form'), true);
  $('form').addEventListener('submit', (e) => {
    e.preventDefault();
    rebuild(fragment, recipe, '');
  });
  // Only a recipe naming its engine can be asked again: a new question
  // needs an engine to answer it from the same version.
  if (recipe.engine_id) {
    $('newtask-question').value = recipe.question;
    show($('newtask'), true);
    $('newtask').addEventListener('submit', (e) => {
      e.preventDefault();
      const q = $('newtask-question').value.trim();
      if (q !== '') rebuild(fragment, recipe, q);
    });
  }
}

boot();
