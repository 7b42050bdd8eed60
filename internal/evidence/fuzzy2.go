package evidence

import (
	"cmp"
	"slices"
	"unicode"
	"unicode/utf8"
)

// delEntry is one entry of the typo index: the hash of a vocabulary term
// with at most one character deleted, and the term. Two words one edit
// apart share such a variant (symmetric deletion), so a question's word is
// looked up by its own variants, a few binary searches, and the terms
// found are then checked with oneEdit: the index only narrows, never
// decides, so hash collisions cannot change a result.
type delEntry struct {
	h  uint64
	id int32
}

// fuzzyTerm reports whether a vocabulary term may be a correction: letters
// only (as the words corrected are), 4 to maxFuzzyRunes runes.
func fuzzyTerm(t string) bool {
	n := 0
	for _, r := range t {
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			return false
		}
		n++
	}
	return n >= 4 && n <= maxFuzzyRunes
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvAdd(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	return h
}

// forEachDeletion calls f with the hash of t and of t without each of its
// runes.
func forEachDeletion(t string, f func(uint64)) {
	f(fnvAdd(fnvOffset, t))
	for i := 0; i < len(t); {
		_, size := utf8.DecodeRuneInString(t[i:])
		f(fnvAdd(fnvAdd(fnvOffset, t[:i]), t[i+size:]))
		i += size
	}
}

func buildDeletions(vocab []string) []delEntry {
	var dels []delEntry
	for id, t := range vocab {
		if fuzzyTerm(t) {
			forEachDeletion(t, func(h uint64) { dels = append(dels, delEntry{h, int32(id)}) })
		}
	}
	slices.SortFunc(dels, func(x, y delEntry) int {
		if c := cmp.Compare(x.h, y.h); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	return slices.Compact(dels)
}

// neighbours returns the vocabulary terms one edit from w, in id order.
func (ix *Index2) neighbours(w string) []int32 {
	var ids []int32
	forEachDeletion(w, func(h uint64) {
		i, _ := slices.BinarySearchFunc(ix.dels, h, func(e delEntry, h uint64) int { return cmp.Compare(e.h, h) })
		for ; i < len(ix.dels) && ix.dels[i].h == h; i++ {
			ids = append(ids, ix.dels[i].id)
		}
	})
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := ids[:0]
	for _, id := range ids {
		if oneEdit(w, ix.vocab[id]) {
			out = append(out, id)
		}
	}
	return out
}
