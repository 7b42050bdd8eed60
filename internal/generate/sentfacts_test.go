package generate

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Every fact a sentence's cache entry holds is what the function it
// stands for returns, on sentences that set each fact and on ones that
// set none, asked twice (computed, then from the cache).
func TestFactsAreTheFunctionsTheyReplace(t *testing.T) {
	for _, s := range []string{
		"See the configuration page for details.",
		"This works only with Hugo modules.",
		"A fact is a value with a stable id.",
		"Congratulations, you're done!",
		"A body that breaks any of these rules is refused.",
		"`editURL` sets the page's edit link.",
		"this page lists every setting.",
		"{{ partial \"askplane/widget.html\" . }",
		"Run `hugo server` and open localhost:1313.",
	} {
		for range 2 {
			f := factsOf(s)
			l := strings.ToLower(s)
			closes := slices.ContainsFunc(closing, func(d string) bool { return strings.Contains(l, d) })
			want := textFacts{lower: l, plain: plain(s), quotable: quotable(s), leans: leansLower(l), anaphoric: anaphoric(l),
				pointer: pointer(l), definitional: definitional(l), closing: closes}
			if *f != want {
				t.Errorf("factsOf(%q) = %+v, want %+v", s, *f, want)
			}
		}
	}
	text := "Docsy is a theme. It is built with Hugo vs. Jekyll e.g. as shown.2 Next steps follow."
	if got, want := sentencesOf(text), sentences(text); !slices.Equal(got, want) || !slices.Equal(sentencesOf(text), want) {
		t.Errorf("sentencesOf = %q, want %q", got, want)
	}
}

// The caches stay bounded however many distinct texts pass through.
func TestTextCacheStaysBounded(t *testing.T) {
	c := newTextCache[int]()
	for i := range 3*textCacheSize + 7 {
		if got := c.of(strconv.Itoa(i), func(s string) int { return len(s) }); got != len(strconv.Itoa(i)) {
			t.Fatalf("of(%d) = %d", i, got)
		}
	}
	if n := c.len(); n > 2*textCacheSize {
		t.Errorf("cache holds %d texts, bound %d", n, 2*textCacheSize)
	}
	// The newest text is held: asking again does not compute.
	last := strconv.Itoa(3*textCacheSize + 6)
	if got := c.of(last, func(string) int { return -1 }); got != len(last) {
		t.Errorf("the newest text was computed again: %d", got)
	}
}
