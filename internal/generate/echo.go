package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// minEcho is the fewest characters of the question a block must repeat
// verbatim to be the question itself: longer than any phrase two
// unrelated texts share by chance.
const minEcho = 24

// echoes: text repeats the message the question is, as the entry that
// explains an error quotes the message a reader pasted: half the
// question or more, verbatim. Quoting it back tells the reader nothing;
// the cause and the fix around it do. A pasted command line is no
// message: the example that shows it run is what explains it.
func (c *composer) echoes(text string) bool {
	return c.echoRun(factsOf(text).plain) > 0
}

// isEcho: text is the pasted message and little more (the message makes
// most of it), where a sentence that names the message and goes on
// ("`x509: …` may occur on outdated systems") says something of it.
func (c *composer) isEcho(text string) bool {
	t := factsOf(text).plain
	return t != "" && 20*c.echoRun(t) >= 17*len(t)
}

// echoRun is the length of the longest run of the question, from the
// start of one of its words, that t (plain) holds verbatim, when it is
// an echo's (half the question or more); 0 otherwise.
func (c *composer) echoRun(t string) int {
	q := c.plain
	n := max(minEcho, len(q)/2)
	if len(q) < n || c.command {
		return 0
	}
	best := 0
	for i := 0; i+n <= len(q); i++ {
		if i > 0 && q[i-1] != ' ' || !strings.Contains(t, q[i:i+n]) {
			continue
		}
		j := i + n
		for j < len(q) && strings.Contains(t, q[i:j+1]) {
			j++
		}
		best = max(best, j-i)
	}
	return best
}

// quotesMessage: s quotes, in a code span, words of the message pasted
// (12 characters or more, a setting's name is no message): the sentence
// says when it is given.
func (c *composer) quotesMessage(s string) bool {
	return anySpan(s, func(span string) bool {
		p := plain(span)
		return len(p) >= 12 && strings.Contains(p, " ") && strings.Contains(c.plain, p)
	})
}

// anySpan reports whether f holds for one of s's code spans (the text
// between a pair of backticks).
func anySpan(s string, f func(span string) bool) bool {
	for rest := s; ; {
		_, after, ok := strings.Cut(rest, "`")
		if !ok {
			return false
		}
		span, tail, ok := strings.Cut(after, "`")
		if !ok {
			return false
		}
		if f(span) {
			return true
		}
		rest = tail
	}
}

// flagged: q (plain) is a command line: a program's name, then
// arguments among which a flag or a path ("rclone lsf -R --hash MD5 …",
// "node scripts/cli.mjs static/").
func flagged(q string) bool {
	w := strings.Fields(q)
	if len(w) < 2 || strings.Trim(w[0], "abcdefghijklmnopqrstuvwxyz0123456789-_.") != "" {
		return false
	}
	for _, a := range w[1:] {
		if len(a) > 1 && a[0] == '-' || strings.Contains(a, "/") {
			return true
		}
	}
	return false
}

// fixWording are the words that name an error's fix in its entry ("The
// simplest fix is to run", "A simple solution may be restarting …").
var fixWording = map[string]bool{"fix": true, "fixes": true, "solution": true, "workaround": true, "resolve": true, "solve": true}

// fixes: s says what to do about an error: it names the fix, or it is
// an instruction.
func fixes(s string) bool {
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "note") || strings.HasPrefix(l, "please note") {
		return false // an aside ("Please note that this workaround only …")
	}
	for w := range strings.FieldsSeq(l) {
		if fixWording[strings.Trim(w, ".,:;!?()")] {
			return true // "So doing something like this should fix the problem."
		}
	}
	return imperative[firstWord(s)] && !leans(s)
}

// fixAfter is, for an error answered from its entry, the sentence that
// says what to do when the answer so far only says what happened (the
// lead, in lead's block or before): the first prose sentence of a later
// block of lead's record that fixes; -1 when the answer already holds
// one or the entry has none.
func (c *composer) fixAfter(lead *sent) int {
	for _, ev := range c.out.deltas {
		if fixes(ev.Delta) {
			return -1
		}
	}
	for i := range c.sents {
		s := &c.sents[i]
		if s.rec != lead.rec || s.block <= lead.block || s.kind != chunk.Paragraph && s.kind != chunk.Note {
			continue
		}
		if fixes(s.text) && !c.said(s.text) {
			return i
		}
	}
	return -1
}
