package generate

import (
	"math/bits"
	"strings"
)

// waysAsked: l (lower case) asks for the ways to do something ("what are
// the ways to install …", "options for setting up …").
func waysAsked(l string) bool {
	for _, w := range []string{"ways to ", "ways of ", "different ways", "options for ", "which ways", "what ways"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// waysWords say that several are asked for, not what they are for.
const waysWords = "ways way different options option methods method"

// parentAsked: heading h names what the ways are asked for: two terms
// of the question at least, besides the words asking for ways, and all
// of them but one at most (the product's name, which a page's headings
// leave out: "Windows installation" for "ways to install rclone on
// windows").
func (c *composer) parentAsked(h string) bool {
	need := c.all &^ c.mask(waysWords)
	held := bits.OnesCount64(c.mask(h) & need)
	return held >= 2 && held+1 >= bits.OnesCount64(need)
}
