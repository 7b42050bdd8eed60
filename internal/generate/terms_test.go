package generate

import (
	"slices"
	"testing"
)

// "The small ones" names again what the question asked about: "ones" is
// no term a sentence should be chosen for ("… older than one hour").
func TestStemTermsDropsPronounOnes(t *testing.T) {
	got := stemTerms("delete the files over 100 megs, leaving the small ones")
	if slices.Contains(got, "one") {
		t.Errorf("stemTerms kept the pronoun: %q", got)
	}
	if !slices.Contains(stemTerms("only one file at a time"), "one") {
		t.Error("the number one was dropped")
	}
}
