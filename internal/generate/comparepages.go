package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// maxSideBytes bounds what one side of a comparison of two pages says.
const maxSideBytes = 300

// comparePages answers a comparison of two things that each have a page
// of their own, as a command reference gives each command ("rmdir or
// rmdirs to clean up empty folders?", "deletefile vs delete"): a line
// per side, the page's title and the opening of its section the package
// holds first in reading order, so the reader sees what each does side
// by side rather than one page's sentence about the other. A page is
// named by its title or, when both titles share their first word (the
// product's name, "rclone rmdir"), by the rest of it; the two names must
// sit on either side of the question's "or" or "vs". False, having
// written nothing, when the package holds no two such pages.
func (c *composer) comparePages() bool {
	sep := c.choiceAt()
	if sep < 0 {
		return false
	}
	var firsts []titledPage // each page's first record in reading order
	for ri := range c.pkg.Records {
		r := &c.pkg.Records[ri]
		found := false
		for k := range firsts {
			f := &c.pkg.Records[firsts[k].rec]
			if f.URL == r.URL {
				found = true
				if r.Order < f.Order {
					firsts[k].rec = ri
				}
			}
		}
		if !found {
			firsts = append(firsts, titledPage{ri, plain(r.Title)})
		}
	}
	var before, after []titledPage
	for _, f := range firsts {
		at := c.namedAt(f.title, firsts)
		switch {
		case at < 0:
		case at < sep:
			before = append(before, f)
		default:
			after = append(after, f)
		}
	}
	if len(before) != 1 || len(after) != 1 {
		return false
	}
	la, lb := c.pageLine(before[0].rec), c.pageLine(after[0].rec)
	if la == nil || lb == nil {
		return false
	}
	for i, line := range [2][]sideText{la, lb} {
		for k, t := range line {
			switch {
			case k > 0:
				c.add(" "+t.text, t.rec)
			case i > 0:
				c.add("\n- "+t.text, t.rec)
			default:
				c.add("- "+t.text, t.rec)
			}
		}
	}
	// A sentence of either page that sets it against the other ("This
	// removes the keys from the config file entirely, which is different
	// from setting them to an empty string with `config update`") is
	// the comparison the reader asked for, said by the docs.
	for _, pair := range [2][2]titledPage{{before[0], after[0]}, {after[0], before[0]}} {
		other := shortTitle(pair[1].title, pair[0].title)
		if i := c.contrast(pair[0].rec, other); i >= 0 && len(c.sents[i].text) <= maxSideBytes && !c.said(c.sents[i].text) {
			text := c.sents[i].text
			// with the sentence after it when that goes on contrasting
			// ("Removing a key restores rclone's default behaviour …,
			// whereas setting it to an empty string …")
			if n := i + 1; n < len(c.sents) && c.sents[n].rec == c.sents[i].rec && c.sents[n].block == c.sents[i].block &&
				len(text)+len(c.sents[n].text) < 2*maxSideBytes && contrasting(factsOf(c.sents[n].text).plain) {
				text += " " + c.sents[n].text
			}
			c.add("\n\n"+text, c.sents[i].rec)
			break
		}
	}
	return true
}

// contrast is the sentence of rec's page that names other and sets the
// page's thing against it ("different from", "unlike", "whereas",
// "instead of", "rather than"), or -1.
func (c *composer) contrast(rec int, other string) int {
	url := c.pkg.Records[rec].URL
	for i := range c.sents {
		s := &c.sents[i]
		if c.pkg.Records[s.rec].URL != url || s.kind == chunk.Code || s.kind == chunk.Table {
			continue
		}
		if p := factsOf(s.text).plain; wordIndex(p, other) >= 0 && contrasting(p) {
			return i
		}
	}
	return -1
}

// contrasting: a plain sentence sets one thing against another.
func contrasting(p string) bool {
	for _, m := range []string{"different from", "differs from", "unlike ", "whereas", "instead of", "rather than", "as opposed to", "in contrast"} {
		if strings.Contains(p, m) {
			return true
		}
	}
	return false
}

// shortTitle is title without the first word it shares with other
// ("config update" of "rclone config update" beside "rclone config
// unset"): how the pages name each other.
func shortTitle(title, other string) string {
	first, rest, ok := strings.Cut(title, " ")
	if ok && strings.HasPrefix(other, first+" ") && len(rest) >= 3 {
		return rest
	}
	return title
}

// choiceAt is where the question's "or", "vs" or "versus" (or the
// "and" of "difference between a and b") sits between the two things it
// compares, or -1.
func (c *composer) choiceAt() int {
	sep := -1
	for _, s := range []string{" or ", " vs ", " vs. ", " versus ", " and "} {
		if i := strings.Index(c.plain, s); i >= 0 && (sep < 0 || i < sep) && (s != " and " || strings.Contains(c.plain, "difference between")) {
			sep = i
		}
	}
	return sep
}

// compareOptions answers a comparison of options that each have a
// section headed with their flag ("bisync --resilient or --recover,
// which do I need?" over the sections "--resilient" and "--recover";
// "-v vs -vv vs -q"): a line per section, the flags the question named
// of it and what the section opens with, in the question's order. A
// section is named by any flag its own heading gives ("--local-links,
// --links, -l"), and a flag several sections give is read from the
// first the package holds. The flags must be named one after another,
// with only "or", "vs", "and", commas or slashes between them. False,
// having written nothing, unless two sections or more are so named.
func (c *composer) compareOptions() bool {
	if !enumerates(c.plain) {
		return false
	}
	var names []string
	recOf := map[string]int{}
	for ri := range c.pkg.Records {
		r := &c.pkg.Records[ri]
		if len(r.Headings) == 0 {
			continue
		}
		for _, f := range headingFlags(r.Headings[len(r.Headings)-1]) {
			if _, seen := recOf[f]; !seen {
				recOf[f] = ri
				names = append(names, f)
			}
		}
	}
	asked := c.askedTogether(names)
	var recs []int
	label := map[int]string{}
	for _, f := range asked {
		ri := recOf[f]
		if _, ok := label[ri]; !ok {
			recs = append(recs, ri)
			label[ri] = "`" + f + "`"
		} else {
			label[ri] += ", `" + f + "`"
		}
	}
	if len(recs) < 2 || len(recs) > maxComparedSides {
		return false
	}
	lines := make([]string, len(recs))
	for k, ri := range recs {
		if lines[k] = c.opening(ri, maxSideBytes); lines[k] == "" {
			return false
		}
	}
	for k, ri := range recs {
		sep := "\n- "
		if k == 0 {
			sep = "- "
		}
		c.add(sep+label[ri]+": "+lines[k], ri)
	}
	return true
}

// maxComparedSides bounds the options one comparison lists.
const maxComparedSides = 4

// headingFlags is the flags an option's heading gives, lower case
// ("--local-links, --links, -l": --local-links, --links and -l).
func headingFlags(heading string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(plain(heading), func(r rune) bool { return r == ' ' || r == ',' || r == '/' }) {
		if f := optionFlag(w); f != "" {
			out = append(out, f)
		} else if shortFlag(w) {
			out = append(out, w)
		}
	}
	return out
}

// shortFlag: w is a short flag ("-l", "-vv").
func shortFlag(w string) bool {
	if len(w) < 2 || len(w) > 3 || w[0] != '-' {
		return false
	}
	for _, r := range w[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// choiceEnds: a question's words end with "A or B" ("local backend
// symlinks: --copy-links or --links?").
func choiceEnds(words []string) bool {
	n := len(words)
	return n >= 3 && words[n-2] == "or"
}

// titledPage is a page of the package: its first record there in
// reading order, and its title, plain.
type titledPage struct {
	rec   int
	title string
}

// namedAt is where the question names a page titled title (plain): the
// whole title, or, when another page of the package shares its first
// word, the rest of it; -1 when it does not.
func (c *composer) namedAt(title string, pages []titledPage) int {
	if i := wordIndex(c.plain, title); i >= 0 {
		return i
	}
	first, rest, ok := strings.Cut(title, " ")
	if !ok || len(rest) < 3 {
		return -1
	}
	for _, p := range pages {
		if p.title != title && strings.HasPrefix(p.title, first+" ") {
			return wordIndex(c.plain, rest)
		}
	}
	return -1
}

// wordIndex is where v first occurs in p as whole words, or -1.
func wordIndex(p, v string) int {
	word := func(b byte) bool { return b == '_' || b == '-' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	for i := 0; ; {
		j := strings.Index(p[i:], v)
		if j < 0 {
			return -1
		}
		j += i
		if (j == 0 || !word(p[j-1])) && (j+len(v) == len(p) || !word(p[j+len(v)])) {
			return j
		}
		i = j + 1
	}
}

// pageLine is one side of a comparison of pages: the page's title and
// the opening sentences of its record, up to maxSideBytes, each piece
// with the record it quotes; nil when the record opens with no
// sentence.
func (c *composer) pageLine(rec int) []sideText {
	line := c.opening(rec, maxSideBytes)
	if line == "" {
		return nil
	}
	side := []sideText{{rec, c.pkg.Records[rec].Title + ": " + line}}
	// A one-line summary ("Move file or directory from source to dest.")
	// goes on with the opening of the page's next section when the
	// package holds it: the synopsis says what sets the command apart
	// ("This can be used to rename files …").
	if ri := c.following(rec); len(line) < shortLine && ri >= 0 {
		if more := c.opening(ri, maxSideBytes-len(line)-1); more != "" {
			side = append(side, sideText{ri, more})
		}
	}
	return side
}

// sideText is a piece of one side's line and the record it quotes.
type sideText struct {
	rec  int
	text string
}

// shortLine is the length under which a page's line is a bare summary.
const shortLine = 80

// opening is the opening sentences of rec's first paragraph, up to
// limit bytes; "" when it opens with none that fits.
func (c *composer) opening(rec, limit int) string {
	line := ""
	for i := range c.sents {
		s := &c.sents[i]
		if s.rec != rec {
			continue
		}
		if s.kind != chunk.Paragraph || strings.HasSuffix(s.text, ":") || strings.HasSuffix(s.text, "?") {
			if line != "" {
				break
			}
			continue
		}
		if line != "" && len(line)+1+len(s.text) > limit {
			break
		}
		if line == "" && len(s.text) > limit {
			return ""
		}
		if line != "" {
			line += " "
		}
		line += s.text
	}
	return line
}
