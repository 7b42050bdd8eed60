package evidence

import (
	"strconv"

	"github.com/gowebpki/jcs"
)

// A package is written by hand, twice over: as its wire JSON (what
// encoding/json with HTML escaping off writes, field by field) and as
// its RFC 8785 (JCS) canonical form for the identities. Both used to go
// through encoding/json, and the canonical form through jcs.Transform
// as well, several times per search; the writers below produce the same
// bytes directly. Every value in a package is a string, an int or an
// array of strings, so two string spellings and two int spellings are all
// it takes: strings are ecmajson.AppendGoString (wire) and
// ecmajson.AppendString (canonical). differential_test.go checks both
// forms against encoding/json and jcs on adversarial strings and ints.

// appendStrings appends list as a JSON array of strings, each spelled by
// appendOne, or null for a nil slice as encoding/json does.
func appendStrings(b []byte, list []string, appendOne func([]byte, string) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendOne(b, s)
	}
	return append(b, ']')
}

// maxExactInt bounds the ints a float64 holds exactly; within it JCS
// writes an int as its decimal digits.
const maxExactInt = 1 << 53

// appendJCSInt appends n as JCS writes the number json.Marshal wrote for
// it: a JSON number is an IEEE double, so beyond ±2^53 it is rounded and
// written the ECMAScript way. Searches never get there (the ints are
// small budgets and lengths); Check on an arbitrary package may, and
// then jcs itself spells it.
func appendJCSInt(b []byte, n int) []byte {
	if n >= -maxExactInt && n <= maxExactInt {
		return strconv.AppendInt(b, int64(n), 10)
	}
	out, err := jcs.Transform(strconv.AppendInt(nil, int64(n), 10))
	if err != nil {
		panic("evidence: canonicalizing an int: " + err.Error()) // a decimal int is always a JSON number
	}
	return append(b, out...)
}

// intLen is the number of bytes strconv writes for n.
func intLen(n int) int {
	var tmp [24]byte
	return len(strconv.AppendInt(tmp[:0], int64(n), 10))
}
