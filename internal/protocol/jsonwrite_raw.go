package protocol

import (
	"cmp"
	"math"
	"slices"
	"strconv"
)

// This file extends jsonWriter with what the Ask wire needs beyond fixed
// schemas: splicing an already-encoded value, and re-serialising a parsed
// value exactly as JSON.stringify(JSON.parse(text)) would in ECMAScript.

// raw splices b, which must be one complete JSON value, into the output.
func (w *jsonWriter) raw(b []byte) { w.sep(); w.b = append(w.b, b...) }

// quotedKey writes a member name that may need escaping, and its colon.
func (w *jsonWriter) quotedKey(k string) {
	w.str(k)
	w.b = append(w.b, ':')
	w.comma = false
}

// number writes f as JSON.stringify writes a Number.
func (w *jsonWriter) number(f float64) { w.sep(); w.b = appendECMANumber(w.b, f) }

// value writes v as JSON.stringify writes the value JSON.parse produced:
// object members in ECMAScript own-key order with duplicates merged (see
// ownMembers), numbers in Number::toString form, strings escaped as
// JSON.stringify escapes them. Depth is bounded by the parser.
func (w *jsonWriter) value(v *jsonValue) {
	switch v.kind {
	case jsonNull:
		w.sep()
		w.b = append(w.b, "null"...)
	case jsonBool:
		w.bool(v.isTrue())
	case jsonNumber:
		w.number(v.num)
	case jsonString:
		w.str(v.str)
	case jsonArray:
		w.open('[')
		for i := range v.items {
			w.value(&v.items[i])
		}
		w.close(']')
	case jsonObject:
		w.open('{')
		for _, m := range ownMembers(v) {
			w.quotedKey(m.key)
			w.value(m.val)
		}
		w.close('}')
	}
}

// ownMember is one property of a parsed object.
type ownMember struct {
	key string
	val *jsonValue
}

// ownMembers returns the members of o, an object, in the order
// Reflect.ownKeys lists the properties of the object JSON.parse builds: a
// repeated key keeps the position of its first occurrence and the value of
// its last, and keys that are array indices ("0" … "4294967294", no leading
// zeros) come first in ascending numeric order, before the other keys in
// insertion order.
func ownMembers(o *jsonValue) []ownMember {
	n := len(o.items) / 2
	out := make([]ownMember, 0, n)
	var seen map[string]int
	if n > 8 {
		seen = make(map[string]int, n)
	}
	indices := 0
	for i := 0; i+1 < len(o.items); i += 2 {
		k, v := o.items[i].str, &o.items[i+1]
		p := -1
		if seen != nil {
			if q, ok := seen[k]; ok {
				p = q
			} else {
				seen[k] = len(out)
			}
		} else {
			for j := range out {
				if out[j].key == k {
					p = j
					break
				}
			}
		}
		if p >= 0 {
			out[p].val = v
			continue
		}
		if _, ok := arrayIndex(k); ok {
			indices++
		}
		out = append(out, ownMember{k, v})
	}
	if indices == 0 {
		return out
	}
	sorted := make([]ownMember, 0, len(out))
	for _, m := range out {
		if _, ok := arrayIndex(m.key); ok {
			sorted = append(sorted, m)
		}
	}
	slices.SortFunc(sorted, func(a, b ownMember) int {
		x, _ := arrayIndex(a.key)
		y, _ := arrayIndex(b.key)
		return cmp.Compare(x, y)
	})
	for _, m := range out {
		if _, ok := arrayIndex(m.key); !ok {
			sorted = append(sorted, m)
		}
	}
	return sorted
}

// arrayIndex reports whether k is an ECMAScript array index: the canonical
// decimal form of an integer from 0 to 2^32-2.
func arrayIndex(k string) (uint32, bool) {
	if len(k) == 0 || len(k) > 10 || (k[0] == '0' && len(k) > 1) {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n > math.MaxUint32-1 {
		return 0, false
	}
	return uint32(n), true
}

// appendECMANumber appends f as ECMAScript Number::toString writes it, which
// is what JSON.stringify emits for a finite number: the shortest digits that
// round-trip, in plain notation when the decimal exponent is in [-6, 21) and
// in exponent form ("1e+21", "1.5e-7") otherwise. -0 is written "0", and
// non-finite values, which JSON.parse yields for overflowing literals such
// as 1e400, are written "null".
func appendECMANumber(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	if f == 0 {
		return append(b, '0')
	}
	if f < 0 {
		b = append(b, '-')
		f = -f
	}
	var scratch [32]byte
	e := strconv.AppendFloat(scratch[:0], f, 'e', -1, 64) // d.ddde±xx
	mant, exp := e, 0
	for i := range e {
		if e[i] == 'e' {
			mant = e[:i]
			x, _ := strconv.Atoi(string(e[i+1:]))
			exp = x
			break
		}
	}
	var digits [24]byte
	nd := 0
	for _, c := range mant {
		if c != '.' {
			digits[nd] = c
			nd++
		}
	}
	d := digits[:nd]
	k, n := nd, exp+1
	switch {
	case k <= n && n <= 21:
		b = append(b, d...)
		for range n - k {
			b = append(b, '0')
		}
	case 0 < n && n <= 21:
		b = append(b, d[:n]...)
		b = append(b, '.')
		b = append(b, d[n:]...)
	case -6 < n && n <= 0:
		b = append(b, '0', '.')
		for range -n {
			b = append(b, '0')
		}
		b = append(b, d...)
	default:
		b = append(b, d[0])
		if k > 1 {
			b = append(b, '.')
			b = append(b, d[1:]...)
		}
		b = append(b, 'e')
		if n-1 >= 0 {
			b = append(b, '+')
		}
		b = strconv.AppendInt(b, int64(n-1), 10)
	}
	return b
}
