package evidence

import (
	"strings"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/protocol"
)

// Sentences splits text into sentences, each a verbatim substring of text
// with surrounding whitespace trimmed. Excerpts and the extractive
// generator both cut on these boundaries, so an answer sentence is always
// a substring of a cited record.
//
// A sentence ends at a line break, or after . ! ? … 。！？ followed by
// whitespace or the end of the text. Dots inside tokens (file.json,
// example.com, 1.5) do not end one; abbreviations such as "e.g. " do,
// which only makes a sentence shorter, never changes its words.
func Sentences(text string) []string {
	spans := sentenceSpans(text)
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s[0]:s[1]]
	}
	return out
}

// sentenceSpans returns the byte ranges of the sentences of text.
func sentenceSpans(text string) [][2]int {
	var spans [][2]int
	add := func(from, to int) {
		s := text[from:to]
		t := protocol.Trim(s)
		if t == "" {
			return
		}
		// t has no leading space, so its first occurrence is where trimming
		// left it.
		lead := strings.Index(s, t)
		spans = append(spans, [2]int{from + lead, from + lead + len(t)})
	}
	start := 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		next := i + size
		switch {
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			add(start, i)
			start = next
		case r == '.' || r == '!' || r == '?' || r == '…' || r == '。' || r == '！' || r == '？':
			if next == len(text) {
				break
			}
			nr, _ := utf8.DecodeRuneInString(text[next:])
			if protocol.IsSpace(nr) || r == '。' || r == '！' || r == '？' {
				add(start, next)
				start = next
			}
		}
		i = next
	}
	add(start, len(text))
	return spans
}
