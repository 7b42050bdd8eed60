package retrievalbench

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var (
	preBlock = regexp.MustCompile(`(?s)<pre[^>]*>(.*?)</pre>`)
	anyTag   = regexp.MustCompile(`<[^>]*>`)
	// frontMatter is a front matter fence followed by a key: what an
	// answer holds when it copied a YAML (---) or TOML (+++) header.
	frontMatter = regexp.MustCompile(`(^|\s)(---|\+\+\+)\s+[A-Za-z_][A-Za-z0-9_.]*\s*[:=]`)
)

// collapse trims s and turns every whitespace run into one space, as the
// corpus text has it.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// codeBlocks returns the text of every <pre> block of the built page at
// path, whitespace collapsed, so it can be found in corpus text (which
// flattens code blocks into the prose around them).
func codeBlocks(public, page string) []string {
	data, err := os.ReadFile(filepath.Join(public, filepath.FromSlash(page), "index.html"))
	if err != nil {
		return nil
	}
	var out []string
	for _, m := range preBlock.FindAllStringSubmatch(string(data), -1) {
		if t := collapse(html.UnescapeString(anyTag.ReplaceAllString(m[1], ""))); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// codeWindow is how many bytes of a code block an answer must repeat to
// count as quoting it.
const codeWindow = 24

// cutWindow is how much of a block's start or end an answer must repeat
// to count as cut inside it: more than a config table's name in prose.
const cutWindow = 32

// quotes reports whether text repeats at least codeWindow consecutive
// bytes of block (all of it, when it is shorter), and whether it is cut
// inside the block: it repeats the block's start but stops before its
// end, or its end without its start. A stretch from the middle only
// (prose naming a path the block also holds) is quoting, not cutting.
func quotes(text, block string) (part, cut bool) {
	if strings.Contains(text, block) {
		return true, false
	}
	if len(block) <= codeWindow {
		return false, false
	}
	for i := 0; i+codeWindow <= len(block); i++ {
		if strings.Contains(text, block[i:i+codeWindow]) {
			part = true
			break
		}
	}
	if !part {
		return false, false
	}
	// Containment of a prefix (a suffix) only shrinks as it grows, so
	// the first length that fails tells the longest one present.
	prefix := sort.Search(len(block)+1, func(n int) bool { return !strings.Contains(text, block[:n]) }) - 1
	suffix := sort.Search(len(block)+1, func(n int) bool { return !strings.Contains(text, block[len(block)-n:]) }) - 1
	return true, prefix >= cutWindow || suffix >= cutWindow
}

// openTemplate reports whether text opens a template action it does not
// close: a "{{" after the last "}}", or more "{{" than "}}".
func openTemplate(text string) bool {
	open, closed := strings.LastIndex(text, "{{"), strings.LastIndex(text, "}}")
	return open > closed || strings.Count(text, "{{") > strings.Count(text, "}}")
}
