package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// maxCommandIntro is how long the paragraph before a command may be and
// still be quoted whole; a longer one gives only its last sentence, the
// one that introduces the code.
const maxCommandIntro = 300

// commandAnswer answers a pasted command ("askplane verify public/",
// "hugo mod get …") from the first section whose code runs it: the
// paragraph that introduces the code, the code, and what the text after
// it says the command does. A reader who pastes a command wants to know
// what it is for and when to run it, which is what the text around its
// code says; a sentence elsewhere that merely names the command does
// not. False when no code block runs the command, or the one that does
// has no text around it.
func (c *composer) commandAnswer() bool {
	if !commandAsked(c.question, c.verbatim) {
		return false
	}
	for ri := range c.pkg.Records {
		bs := c.pkg.Records[ri].Blocks
		for bi, b := range bs {
			if b.Kind != chunk.Code || len(b.Text) > maxComposeCode || !runs(b.Text, c.verbatim) {
				continue
			}
			// The run of code blocks it closes ("Add the import … and
			// fetch it:" then the configuration, then the command).
			first, size := bi, len(b.Text)
			for first > 0 && bs[first-1].Kind == chunk.Code && size+len(bs[first-1].Text) <= maxComposeCode {
				first--
				size += len(bs[first].Text)
			}
			intro := c.paragraph(ri, first-1, true)
			after := c.paragraph(ri, bi+1, false)
			if len(intro) == 0 && len(after) == 0 {
				continue
			}
			sep := ""
			for _, s := range intro {
				c.add(sep+s.text, ri)
				sep = " "
			}
			for k := first; k <= bi; k++ {
				if c.out.size > 0 {
					sep = "\n\n"
				}
				c.add(sep+fence(bs[k]), ri)
			}
			sep = "\n\n"
			for i, s := range after {
				if i == 2 || c.out.size+len(sep)+len(s.text) > c.maxBytes {
					break
				}
				c.add(sep+s.text, ri)
				sep = " "
			}
			c.seeAlso(ri)
			return true
		}
	}
	return false
}

// paragraph is the quotable sentences of rec's block when it is a
// paragraph: the whole of a short one, or of a longer one only its last
// sentence when last (an introduction) and its first when not.
func (c *composer) paragraph(rec, block int, last bool) []*sent {
	if block < 0 || block >= len(c.pkg.Records[rec].Blocks) || c.pkg.Records[rec].Blocks[block].Kind != chunk.Paragraph {
		return nil
	}
	var ss []*sent
	n := 0
	for i := range c.sents {
		if s := &c.sents[i]; s.rec == rec && s.block == block {
			ss = append(ss, s)
			n += len(s.text) + 1
		}
	}
	switch {
	case len(ss) == 0 || n <= maxCommandIntro:
		return ss
	case last:
		return ss[len(ss)-1:]
	}
	return ss[:1]
}

// commandAsked: the question is a command line pasted as it is, a
// program and its arguments ("askplane verify public/"), not a setting
// ("static: true") or a question about one.
func commandAsked(q, verbatim string) bool {
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
