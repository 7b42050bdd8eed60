package ecmajson

import "iter"

// Kind is the type of a parsed JSON value.
type Kind uint8

// The kinds, one per JSON type; true and false share Bool.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is one parsed JSON value. It is kept small because a maximum
// artifact parses into tens of thousands of them.
//
// Num holds a number, or 1 for true. Str holds a string; it shares the
// parsed input's memory when the string needed no unescaping. Items holds an
// array's elements, or an object's members as key, value pairs in document
// order (each key a String value), duplicates included, so a caller can see
// exactly what the text said; Member and OwnMembers apply JSON.parse's
// duplicate rule on top.
type Value struct {
	Kind  Kind
	Num   float64
	Str   string
	Items []Value
}

// Member returns the value of key in an object, comparing keys exactly, as
// JSON.parse does; when the key repeats, the last occurrence wins. It
// reports false for an absent key and for a v that is nil or not an object,
// so a present null stays distinct from absence.
func (v *Value) Member(key string) (*Value, bool) {
	if v == nil || v.Kind != Object {
		return nil, false
	}
	for i := len(v.Items) - 2; i >= 0; i -= 2 {
		if v.Items[i].Str == key {
			return &v.Items[i+1], true
		}
	}
	return nil, false
}

// Members yields an object's members in document order, duplicates
// included: strict schemas must look at every key the text holds, not only
// the ones JSON.parse keeps. It yields nothing when v is not an object.
func (v *Value) Members() iter.Seq2[string, *Value] {
	return func(yield func(string, *Value) bool) {
		if v == nil || v.Kind != Object {
			return
		}
		for i := 0; i+1 < len(v.Items); i += 2 {
			if !yield(v.Items[i].Str, &v.Items[i+1]) {
				return
			}
		}
	}
}

// IsTrue reports whether v is the literal true.
func (v *Value) IsTrue() bool { return v.Kind == Bool && v.Num == 1 }
