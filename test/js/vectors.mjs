// Loader for the shared vectors under testdata/conformance, the same files
// the Go tests load through internal/conformance.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const conformanceDir = join(root, 'testdata', 'conformance');

export function load(name) {
  return JSON.parse(readFileSync(join(conformanceDir, name), 'utf8'));
}

// generate expands a {prefix, repeat, count, suffix} descriptor (prefix
// and suffix default to "").
export function generate(g) {
  return (g.prefix ?? '') + g.repeat.repeat(g.count) + (g.suffix ?? '');
}

// codeOf returns "ok" for a successful result, else its diagnostic code.
export function codeOf(r) {
  return r.ok ? 'ok' : r.diagnostic.code;
}

// runCases runs check on every case, collecting failures so one run shows
// them all, and reports how many vectors passed.
export function runCases(t, file, cases, label, check) {
  const failures = [];
  for (const c of cases) {
    try {
      check(c);
    } catch (e) {
      failures.push(`${label(c)}: ${e.message}`);
    }
  }
  t.diagnostic(`${file}: ${cases.length - failures.length}/${cases.length} vectors passed`);
  if (failures.length > 0) {
    throw new Error(`${failures.length} of ${cases.length} vectors failed:\n` + failures.slice(0, 20).join('\n'));
  }
}
