// DateTime of the v1 contracts: what zod 4.4.3's
// z.string().datetime({offset: true}) accepts, valued as Date.parse values
// it, in milliseconds:
//
//   YYYY-MM-DD "T" HH:MM [":" SS ["." 1*DIGIT]] ("Z" / ("+" / "-") HH:MM)
//
// with a date that exists, hours 00..23, minutes and seconds 00..59 and
// offset hours 00..23. Seconds are optional and the fraction may have any
// length, but Date.parse is only specified for exactly three fraction
// digits and required seconds; beyond that each engine does as it likes.
// So the fraction is first cut to milliseconds the way V8 (the reference)
// reads it, and Go's ParseDateTime (internal/protocol/datetime.go) does
// too, then the specified form "YYYY-MM-DDTHH:MM:SS.sssZ" is handed to
// Date.parse. Every engine then returns the same value as Go.

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

function daysIn(y, m) {
  if (m === 2) return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

// v8Milliseconds converts fraction digits to milliseconds as V8 does:
// truncation for up to 9 digits (".9999" → 999); for longer fractions V8
// keeps 9 significant digits after leading zeros but scales by the full
// length capped at 9, so ".0123456789" gives 123. Go reproduces the quirk;
// so does this.
function v8Milliseconds(f) {
  let i = 0;
  while (i < f.length && f.charCodeAt(i) === 0x30) i++;
  let n = 0;
  for (let k = 0; i < f.length && k < 9; i++, k++) n = n * 10 + (f.charCodeAt(i) - 0x30);
  let length = Math.min(f.length, 9);
  if (length === 1) return n * 100;
  if (length === 2) return n * 10;
  for (; length > 3; length--) n = Math.floor(n / 10);
  return n;
}

// parseDateTime returns the epoch milliseconds of s, or null when s is not
// a v1 DateTime.
export function parseDateTime(s) {
  if (typeof s !== 'string') return null;
  const m = DATETIME.exec(s);
  if (m === null) return null;
  const year = +m[1];
  const month = +m[2];
  const day = +m[3];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (+m[4] > 23 || +m[5] > 59 || (m[6] !== undefined && +m[6] > 59)) return null;
  if (m[8] !== undefined && (+m[9] > 23 || +m[10] > 59)) return null;
  const ms = m[7] === undefined ? 0 : v8Milliseconds(m[7]);
  const zone = m[8] === undefined ? 'Z' : m[8] + m[9] + ':' + m[10];
  const canonical =
    m[1] + '-' + m[2] + '-' + m[3] + 'T' + m[4] + ':' + m[5] + ':' + (m[6] ?? '00') + '.' + String(ms).padStart(3, '0') + zone;
  const value = Date.parse(canonical);
  return Number.isFinite(value) ? value : null;
}

// isDateTime reports whether s is a v1 DateTime.
export function isDateTime(s) {
  return parseDateTime(s) !== null;
}
