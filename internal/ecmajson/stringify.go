package ecmajson

import (
	"cmp"
	"math"
	"slices"
)

// This file re-serialises a parsed value exactly as
// JSON.stringify(JSON.parse(text)) would in ECMAScript, which is how a
// canonical form is agreed with a JavaScript peer without sharing code.

// Value writes v as JSON.stringify writes the value JSON.parse produced:
// object members in ECMAScript own-key order with duplicates merged (see
// OwnMembers), numbers in Number::toString form, strings escaped as
// JSON.stringify escapes them. Depth is bounded by the parser.
func (w *Writer) Value(v *Value) {
	switch v.Kind {
	case Null:
		w.Null()
	case Bool:
		w.Bool(v.IsTrue())
	case Number:
		w.Number(v.Num)
	case String:
		w.Str(v.Str)
	case Array:
		w.BeginArray()
		for i := range v.Items {
			w.Value(&v.Items[i])
		}
		w.EndArray()
	case Object:
		w.BeginObject()
		for _, m := range v.OwnMembers() {
			w.Key(m.Key)
			w.Value(m.Value)
		}
		w.EndObject()
	}
}

// Member is one property of a parsed object.
type Member struct {
	Key   string
	Value *Value
}

// OwnMembers returns the members of v, an object, in the order
// Reflect.ownKeys lists the properties of the object JSON.parse builds: a
// repeated key keeps the position of its first occurrence and the value of
// its last, and keys that are array indices ("0" … "4294967294", no leading
// zeros) come first in ascending numeric order, before the other keys in
// insertion order. It returns nil when v is not an object.
func (v *Value) OwnMembers() []Member {
	if v == nil || v.Kind != Object {
		return nil
	}
	n := len(v.Items) / 2
	out := make([]Member, 0, n)
	var seen map[string]int
	if n > 8 {
		seen = make(map[string]int, n)
	}
	indices := 0
	for k, val := range v.Members() {
		p := -1
		if seen != nil {
			if q, ok := seen[k]; ok {
				p = q
			} else {
				seen[k] = len(out)
			}
		} else {
			for j := range out {
				if out[j].Key == k {
					p = j
					break
				}
			}
		}
		if p >= 0 {
			out[p].Value = val
			continue
		}
		if _, ok := arrayIndex(k); ok {
			indices++
		}
		out = append(out, Member{k, val})
	}
	if indices == 0 {
		return out
	}
	sorted := make([]Member, 0, len(out))
	for _, m := range out {
		if _, ok := arrayIndex(m.Key); ok {
			sorted = append(sorted, m)
		}
	}
	slices.SortFunc(sorted, func(a, b Member) int {
		x, _ := arrayIndex(a.Key)
		y, _ := arrayIndex(b.Key)
		return cmp.Compare(x, y)
	})
	for _, m := range out {
		if _, ok := arrayIndex(m.Key); !ok {
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
