// Every export of the widget's JavaScript (hugo-module/assets/askplane/js)
// carries a JSDoc block: its types, which tsc --noEmit --checkJs holds
// the code to (tsconfig.json; scripts/test.sh runs it), and what it is
// for. (Issue 26.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../hugo-module/assets/askplane/js/', import.meta.url));

const EXPORT = /^export (async )?(function\*?|const|class|let) (\w+)/;

// undocumented returns "file:line name" for each export in text whose
// line does not follow the end of a /** … */ block.
function undocumented(file, text) {
  const lines = text.split('\n');
  const out = [];
  lines.forEach((line, i) => {
    const m = EXPORT.exec(line);
    if (!m) return;
    let j = i - 1;
    if (j >= 0 && lines[j].trim().endsWith('*/')) {
      while (j >= 0 && !lines[j].includes('/*')) j--;
      if (j >= 0 && lines[j].includes('/**')) return;
    }
    out.push(`${file}:${i + 1} ${m[3]}`);
  });
  return out;
}

function files(dir, rel = '') {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(dir, join(rel, e.name)) : e.name.endsWith('.js') ? [join(rel, e.name)] : [],
  );
}

test('every export of the widget has a JSDoc block', () => {
  const all = files(root);
  assert.ok(all.length > 20, `found ${all.length} files under ${root}`);
  const missing = all.flatMap((f) => undocumented(f, readFileSync(join(root, f), 'utf8')));
  assert.deepEqual(missing, []);
});

test('an export after a line comment counts as undocumented', () => {
  assert.deepEqual(undocumented('x.js', '// not JSDoc\nexport const A = 1;\n/** JSDoc */\nexport const B = 2;\n/* block */\nexport const C = 3;'), ['x.js:2 A', 'x.js:6 C']);
});
