package generate

import (
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// namedItems answers a question that names two or more entries of one
// list ("rclone about output: what are Trashed and Other?" over "-
// Trashed: Total space used by trash." and "- Other: Total amount in
// other storage …"; "what do = and + mean in the combined report") with
// those entries, whole, after the sentence introducing the list when it
// ends in a colon: the reader asked for those and not for the list's
// others, nor for one of them alone. An entry is named by what opens it,
// a code span or a few words before a colon, dash or equals sign, found
// in the question as whole words. Only the package's first record's lists
// are read; false, having written nothing, when none of them is asked.
func (c *composer) namedItems() bool {
	if !enumerates(c.plain) {
		return false
	}
	if len(c.pkg.Records) == 0 {
		return false
	}
	bs := c.pkg.Records[0].Blocks // the first record's lists only
	for bi, b := range bs {
		if b.Kind != chunk.List || properties(b.Text) {
			continue
		}
		items := c.itemsNamed(b.Text)
		if len(items) < 2 {
			continue
		}
		if bi > 0 && bs[bi-1].Kind == chunk.Paragraph {
			if i := c.lastIn(0, bi-1); i >= 0 && strings.HasSuffix(c.sents[i].text, ":") && !fewWords(c.sents[i].text, 3) {
				c.add(c.sents[i].text+"\n\n", 0)
			}
		}
		for k, it := range items {
			if k > 0 {
				it = "\n" + it
			}
			c.add(it, 0)
		}
		return true
	}
	return false
}

// itemsNamed is the top-level items of a list (as "- …" lines) that the
// question asks about by their opening names; nil unless it asks about
// at least two, fewer than all the list names, each saying something of
// its own within a table row's bound.
func (c *composer) itemsNamed(list string) []string {
	type entry struct{ name, line string }
	var entries []entry
	var names []string
	for _, l := range strings.Split(list, "\n") {
		if strings.HasPrefix(l, " ") {
			continue
		}
		item := strings.TrimSpace(listItem(l))
		name, says := itemName(item)
		if name == "" || slices.Contains(names, name) {
			continue
		}
		names = append(names, name)
		if hasWord(c.plain, name) {
			if fewWords(says, 3) || !quotable(item) || len(item) > maxTableRowBytes {
				return nil // a list of names ("- `Gzip`"), not of what they are
			}
			entries = append(entries, entry{name, "- " + item})
		}
	}
	asked := c.askedTogether(names)
	if len(asked) < 2 || len(asked) == len(names) {
		return nil
	}
	var out []string
	for _, e := range entries {
		if slices.Contains(asked, e.name) {
			out = append(out, e.line)
		}
	}
	return out
}

// askedTogether is the names the question asks about together: the last
// run of them it names one after another, as a reader enumerates what
// they ask ("Trashed and Other", "what do s and ! mean" after quoting
// "y/n/s/!/q"), with nothing but "and", "or", commas and slashes between
// them; nil when that run follows a word setting them aside ("if it
// isn't docs, blog or community").
func (c *composer) askedTogether(names []string) []string {
	type at struct {
		from, to int
		name     string
	}
	var found []at
	for _, n := range names {
		for i := 0; i < len(c.plain); {
			j := wordIndex(c.plain[i:], n)
			if j < 0 {
				break
			}
			found = append(found, at{i + j, i + j + len(n), n})
			i += j + len(n)
		}
	}
	slices.SortFunc(found, func(a, b at) int { return a.from - b.from })
	var run, last []at
	for k, f := range found {
		if k > 0 && f.from >= run[len(run)-1].to && onlySeparators(c.plain[run[len(run)-1].to:f.from]) {
			run = append(run, f)
		} else {
			run = []at{f}
		}
		if len(run) >= 2 {
			last = slices.Clone(run)
		}
	}
	if len(last) < 2 {
		return nil
	}
	before := strings.Fields(c.plain[:last[0].from])
	if n := len(before); n > 0 {
		switch before[n-1] {
		case "isn't", "isnt", "not", "except", "besides", "than", "excluding", "without":
			return nil
		}
	}
	var out []string
	for _, f := range last {
		if !slices.Contains(out, f.name) {
			out = append(out, f.name)
		}
	}
	return out
}

// enumerates: a question (plain) has what it takes to name things one
// after another: a comma, a slash, "and", "or" or "vs".
func enumerates(p string) bool {
	return strings.ContainsAny(p, ",/") || strings.Contains(p, " and ") || strings.Contains(p, " or ") || strings.Contains(p, " vs")
}

// onlySeparators: s holds nothing but "and", "or", "vs", commas,
// slashes and spaces.
func onlySeparators(s string) bool {
	for _, w := range strings.Fields(strings.NewReplacer(",", " ", "/", " ", "&", " ").Replace(s)) {
		if w != "and" && w != "or" && w != "vs" && w != "vs." && w != "versus" {
			return false
		}
	}
	return true
}

// itemName is what opens a list item as its name, plain, and what the
// item says after it: a code span ("`newest` - …"), or one to three
// words before ": ", " - " or " = " ("Trashed: Total space used by
// trash."); "" when it opens with none.
func itemName(item string) (name, says string) {
	if rest, ok := strings.CutPrefix(item, "`"); ok {
		name, says, ok := strings.Cut(rest, "`")
		if !ok {
			return "", ""
		}
		return plain(name), strings.TrimLeft(says, " :-–—=")
	}
	best, sep := -1, ""
	for _, s := range []string{": ", " - ", " – ", " — ", " = "} {
		if i := strings.Index(item, s); i > 0 && (best < 0 || i < best) {
			best, sep = i, s
		}
	}
	if best < 0 || !fewWords(item[:best], 4) {
		return "", ""
	}
	return plain(item[:best]), item[best+len(sep):]
}
