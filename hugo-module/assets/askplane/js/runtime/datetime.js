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

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-](\d{2}):(\d{2}))$/;

// v8Milliseconds converts fraction digits to milliseconds as V8 does:
// truncation for up to 9 digits (".9999" → 999); for longer fractions V8
// keeps 9 significant digits after leading zeros but scales by the full
// length capped at 9, so ".0123456789" gives 123. Go reproduces the quirk;
// so does this. (The division is exact enough: n is an integer under
// 10^9, and floor only errs when a quotient lies within rounding of an
// integer, never the case for a divisor of at most 10^6.)
/** @param {string} f */
function v8Milliseconds(f) {
  const n = +f.replace(/^0+/, '').slice(0, 9);
  const length = Math.min(f.length, 9);
  return length < 3 ? n * 10 ** (3 - length) : Math.floor(n / 10 ** (length - 3));
}

// parseDateTime returns the epoch milliseconds of s, or null when s is not
// a v1 DateTime.
/**
 * @param {unknown} s
 * @returns {number | null}
 */
export function parseDateTime(s) {
  const m = typeof s === 'string' ? DATETIME.exec(s) : null;
  if (m === null) return null;
  // The fields compare as numbers; a missing one (seconds, an offset) is
  // undefined, and a comparison with it is false.
  const [, year, month, day, hour, minute, second, fraction, zone, zoneHour, zoneMinute] = /** @type {any[]} */ (m);
  // Day 0 of the next month is the last of this one; the calendar repeats
  // every 400 years, and 2000..2399 stays clear of Date.UTC's two-digit
  // years.
  const days = new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59 || zoneHour > 23 || zoneMinute > 59) {
    return null;
  }
  const ms = fraction === undefined ? 0 : v8Milliseconds(fraction);
  const value = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}.${String(ms).padStart(3, '0')}${zone}`);
  return Number.isFinite(value) ? value : null;
}
// isDateTime reports whether s is a v1 DateTime.
/**
 * @param {unknown} s
 * @returns {boolean}
 */
export function isDateTime(s) {
  return parseDateTime(s) !== null;
}
