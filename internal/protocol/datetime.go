package protocol

// ParseDateTime validates s as an AgentsKit Chat v1 timestamp and returns it
// as milliseconds since the Unix epoch.
//
// Acceptance is exactly that of zod 4.4.3 z.string().datetime({offset:
// true}) and the value exactly that of JavaScript Date.parse, because the
// TypeScript reference validates and orders messages with those; Go's
// time.Parse(time.RFC3339) differs in both directions (it requires seconds
// but accepts a "+24:00" offset and a comma before the fraction), so this is
// a hand-written scanner with integer arithmetic. The accepted grammar is
//
//	YYYY-MM-DD "T" HH:MM [ ":" SS [ "." 1*DIGIT ] ] ( "Z" / ("+"/"-") HH:MM )
//
// with a 4-digit year 0000..9999, a date that exists in the proleptic
// Gregorian calendar, hours 00..23, minutes and seconds 00..59, and offset
// hours 00..23. Only ASCII digits count. Fractional seconds of any length
// are accepted and converted to milliseconds as V8 does: truncated (not
// rounded) for up to 9 digits, see v8Milliseconds for longer ones.
func ParseDateTime(s string) (epochMs int64, ok bool) {
	// Shortest form: "YYYY-MM-DDTHH:MMZ".
	if len(s) < 17 {
		return 0, false
	}
	year, ok1 := digits(s, 0, 4)
	month, ok2 := digits(s, 5, 2)
	day, ok3 := digits(s, 8, 2)
	hour, ok4 := digits(s, 11, 2)
	minute, ok5 := digits(s, 14, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5) ||
		s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' {
		return 0, false
	}
	i := 16
	second, milli := 0, 0
	if s[i] == ':' {
		var ok bool
		if second, ok = digits(s, i+1, 2); !ok {
			return 0, false
		}
		i += 3
		if i < len(s) && s[i] == '.' {
			i++
			start := i
			for i < len(s) && isASCIIDigit(s[i]) {
				i++
			}
			if i == start {
				return 0, false
			}
			milli = v8Milliseconds(s[start:i])
		}
	}
	if i >= len(s) {
		return 0, false // the zone is required
	}
	offsetMin := 0
	switch s[i] {
	case 'Z':
		i++
	case '+', '-':
		oh, okh := digits(s, i+1, 2)
		om, okm := digits(s, i+4, 2)
		if !okh || !okm || s[i+3] != ':' || oh > 23 || om > 59 {
			return 0, false
		}
		offsetMin = oh*60 + om
		if s[i] == '-' {
			offsetMin = -offsetMin
		}
		i += 6
	default:
		return 0, false
	}
	if i != len(s) {
		return 0, false
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(year, month) ||
		hour > 23 || minute > 59 || second > 59 {
		return 0, false
	}
	days := daysFromCivil(int64(year), month, day)
	secs := days*86400 + int64(hour*3600+minute*60+second) - int64(offsetMin)*60
	return secs*1000 + int64(milli), true
}

// v8Milliseconds converts the fraction digits f (at least one) to
// milliseconds exactly as V8's Date parser does, because the reference value
// is Node's Date.parse. For up to 9 digits that is plain truncation
// (".9999" -> 999, ".1" -> 100). V8 keeps only 9 significant digits after
// skipping leading zeros, but scales by the full length capped at 9, so a
// fraction longer than 9 digits that starts with '0' is misread:
// ".0123456789" gives 123, not 12. The quirk is reproduced on purpose.
func v8Milliseconds(f string) int {
	const maxDigits = 9
	i := 0
	for i < len(f) && f[i] == '0' {
		i++
	}
	n := 0
	for k := 0; i < len(f) && k < maxDigits; i, k = i+1, k+1 {
		n = n*10 + int(f[i]-'0')
	}
	switch length := min(len(f), maxDigits); {
	case length == 1:
		return n * 100
	case length == 2:
		return n * 10
	default:
		for ; length > 3; length-- {
			n /= 10
		}
		return n
	}
}

// digits parses s[i:i+n] as exactly n ASCII digits.
func digits(s string, i, n int) (int, bool) {
	if i < 0 || i+n > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		if !isASCIIDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysIn(y, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// daysFromCivil returns the number of days from 1970-01-01 to y-m-d in the
// proleptic Gregorian calendar (Howard Hinnant's algorithm), valid for
// negative results too.
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
