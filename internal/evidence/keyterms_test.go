package evidence

import (
	"slices"
	"testing"
)

// KeyTerms gives a question's distinct stems, sorted, each marked by
// whether the corpus holds it; word order, inflection, case and
// stopwords do not change the key. An engine without a vocabulary marks
// none known.
func TestKeyTerms(t *testing.T) {
	ix := NewIndex3(tiny(t))
	a := KeyTerms(ix, "How do I install the CLI with Kubernetes?")
	b := KeyTerms(ix, "kubernetes: installing the cli, install!")
	want := []KeyTerm{{"cli", true}, {"instal", true}, {"kubernet", false}}
	if !slices.Equal(a, want) || !slices.Equal(b, want) {
		t.Errorf("keys %v and %v, want %v", a, b, want)
	}
	for _, k := range KeyTerms(NewIndex(tiny(t)), "install the CLI") {
		if k.Known {
			t.Errorf("bm25/1 marked %q known", k.Stem)
		}
	}
	if k := KeyTerms(ix, "how do I?"); len(k) != 0 {
		t.Errorf("stopwords only: %v", k)
	}
}
