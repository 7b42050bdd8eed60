package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// commandAnswer answers a pasted command ("askplane verify public/",
// "hugo mod get …") from the first section whose code runs it: the
// paragraph that introduces the code, the code, and what the text after
// it says the command does. A reader who pastes a command wants to know
// what it is for and when to run it, which is what the text around its
// code says; a sentence elsewhere that merely names the command does
// not. False when no code block runs the command, or the one that does
// has no text around it.
func (c *composer) commandAnswer() bool {
	if !commandAsked(c.verbatim) {
		return false
	}
	// A block that is the command alone ("hugo mod init …" with what it
	// creates after it) explains it better than a long script that runs
	// it among others; otherwise the engine's order decides.
	for _, alone := range []bool{true, false} {
		for ri := range c.pkg.Records {
			for bi, b := range c.pkg.Records[ri].Blocks {
				if b.Kind != chunk.Code || len(b.Text) > maxComposeCode || !runs(b.Text, c.verbatim) || alone && strings.Contains(strings.TrimSpace(b.Text), "\n") {
					continue
				}
				if c.explainCommand(ri, bi) {
					c.seeAlso(ri)
					return true
				}
			}
		}
	}
	return false
}

// explainCommand writes the code block bi of rec with the text around
// it, false (writing nothing) when no text is around it.
func (c *composer) explainCommand(rec, bi int) bool {
	bs := c.pkg.Records[rec].Blocks
	// The run of code blocks it closes ("Add the import … and fetch it:"
	// then the configuration, then the command).
	first, size := bi, len(bs[bi].Text)
	for first > 0 && bs[first-1].Kind == chunk.Code && size+len(bs[first-1].Text) <= maxComposeCode {
		first--
		size += len(bs[first].Text)
	}
	// Its introduction, past a theme's tab labels ("Unix shell"); when
	// that is a short label of its own ("For an npm package install:"),
	// with the paragraph before, which says what the command is for.
	at := first - 1
	for at >= 0 && tabLabel(bs[at]) {
		at--
	}
	// A short list of steps whose last runs the command ("1. Stop Docker
	// Compose … 2. Remove the produced images" then `docker-compose rm`)
	// is quoted with the paragraph that introduces it.
	steps := -1
	if at > 0 && bs[at].Kind == chunk.List && len(bs[at].Text) <= maxSupportBytes && strings.Count(bs[at].Text, "\n") < 5 {
		steps, at = at, at-1
	}
	intro := c.paragraph(rec, at, true)
	if n := len(intro); n == 1 && len(intro[0].text) < 60 && strings.HasSuffix(intro[0].text, ":") {
		if before := c.paragraph(rec, at-1, false); len(before) > 0 {
			intro = append(before, intro...)
		}
	}
	after := c.paragraph(rec, bi+1, false)
	if len(intro) == 0 && len(after) == 0 {
		return false
	}
	sep := ""
	for i, s := range intro {
		if i > 0 && s.block != intro[i-1].block {
			sep = "\n\n"
		}
		c.add(sep+s.text, rec)
		sep = " "
	}
	if steps >= 0 {
		n := 0
		c.quoteList(rec, steps, &n) // a list too long to quote leaves the code after the paragraph
	}
	for k := first; k <= bi; k++ {
		if c.out.size > 0 {
			sep = "\n\n"
		}
		c.add(sep+fence(bs[k]), rec)
	}
	sep = "\n\n"
	for i, s := range after {
		if i == 2 || c.out.size+len(sep)+len(s.text) > c.maxBytes {
			break
		}
		c.add(sep+s.text, rec)
		sep = " "
	}
	return true
}

// commandAsked: the question is a command line pasted as it is, a
// program and its arguments ("askplane verify public/"), not a setting
// ("static: true") or a question about one.
func commandAsked(verbatim string) bool {
	w := strings.Fields(verbatim)
	if len(w) < 2 || strings.ContainsAny(verbatim, "=?") || strings.Contains(verbatim, ": ") || asking[w[0]] || imperative[w[0]] {
		return false
	}
	for _, r := range w[0] {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '/' || r == '_') {
			return false
		}
	}
	return true
}

// asking: first words of a question or a sentence, never of a command.
var asking = map[string]bool{
	"how": true, "what": true, "why": true, "when": true, "where": true, "which": true, "who": true, "can": true,
	"does": true, "do": true, "is": true, "are": true, "should": true, "i": true, "my": true, "the": true, "a": true, "an": true,
}

// runs: a line of code, after any prompt, is the command v (plain), or
// v followed by more of the same path or more arguments ("hugo mod get
// github.com/x/y" runs in "hugo mod get github.com/x/y/hugo-module").
func runs(code, v string) bool {
	for _, l := range strings.Split(code, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(strings.TrimPrefix(l, "$ "), "> ")
		p := plain(l)
		if rest, ok := strings.CutPrefix(p, v); ok && (rest == "" || strings.ContainsRune(" /@\\", rune(rest[0]))) {
			return true
		}
	}
	return false
}
