package evidence

import (
	"maps"
	"slices"
	"strings"
)

// synonymTable5 is askplane.bm25/5's table: bm25/4's (synonymTable),
// which it keeps whole, and synonymsUI.
var synonymTable5 = joinSynonyms(synonymTable, synonymsUI)

// synonymsUI lists the words readers type for the parts and looks of a
// site's interface, and the words documentation uses for them: general
// English web and documentation vocabulary, never one site's or theme's
// own terms. As in synonymTable, a key is a word or two consecutive
// words of the question, and its stem stands for its inflections
// ("narrower" is "narrow"; "search engines" is "search engine").
var synonymsUI = map[string][]string{
	// The bar of links across the top of a site.
	"top bar":        {"navbar", "navigation"},
	"nav bar":        {"navbar"},
	"navigation bar": {"navbar"},
	"top navigation": {"navbar"},
	"menu bar":       {"navbar"},
	// The list of pages down the side (bm25/4 has sidebar → nav, navigation).
	"left nav":        {"sidebar", "navigation"},
	"side nav":        {"sidebar", "navigation"},
	"left navigation": {"sidebar", "nav"},
	"side navigation": {"sidebar", "nav"},
	"side bar":        {"sidebar"},
	// Things that open over the page.
	"popup":   {"popover", "dropdown", "modal"},
	"tooltip": {"popover"},
	// A line between items.
	"divider": {"separator"},
	// The small image a browser shows for a site.
	"tab icon":     {"favicon"},
	"browser icon": {"favicon"},
	"site icon":    {"favicon"},
	// Sizes.
	"narrower": {"width"},
	"wider":    {"width"},
	"taller":   {"height"},
	"shorter":  {"height"},
	// Search engines and what they read.
	"search engine": {"seo", "robots", "crawlers"},
	"crawler":       {"robots", "seo"},
	// Controls that switch between states or choices.
	"toggle":   {"switcher", "switch"},
	"switcher": {"toggle", "selector"},
	"picker":   {"selector", "switcher", "dropdown"},
	// Notes set apart from the text.
	"callout":    {"alert", "admonition"},
	"admonition": {"callout", "alert"},
	// Collapsing parts of a page or a menu.
	"collapse": {"foldable", "fold"},
	// Other names for the same thing.
	"night mode": {"dark"},
	"typeface":   {"font"},
	"screenshot": {"image"},
	"homepage":   {"home", "landing"},
	"landing":    {"home", "homepage"},
	"toc":        {"contents"},
	"contents":   {"toc"},
	"rid":        {"remove", "delete"},
	"bump":       {"update", "upgrade"},
	"rss":        {"feed"},
	"feed":       {"rss"},
	"tracking":   {"analytics"},
}

// joinSynonyms is base with more's entries added: a key of both keeps
// base's words first, then more's it lacks.
func joinSynonyms(base, more map[string][]string) map[string][]string {
	out := maps.Clone(base)
	for k, alts := range more {
		have := slices.Clone(out[k])
		for _, a := range alts {
			if !slices.Contains(have, a) {
				have = append(have, a)
			}
		}
		out[k] = have
	}
	return out
}

// resolveSynonyms is indexSynonyms over table (indexSynonyms reads
// bm25/4's table and is bound by its manifest). Keys are taken in sorted
// order, so were two to share a stem the same one would win every time;
// TestSynonymTable5 keeps them apart.
func (ix *Index2) resolveSynonyms(table map[string][]string) {
	if !strings.HasPrefix(ix.lang, "en") {
		return
	}
	ix.syn = map[string][]synonym{}
	for _, key := range slices.Sorted(maps.Keys(table)) {
		var found []synonym
		for _, a := range table[key] {
			if id, _, ok := ix.lookup(a); ok && !slices.ContainsFunc(found, func(s synonym) bool { return s.id == id }) {
				found = append(found, synonym{id: id, form: a})
			}
		}
		if len(found) == 0 {
			continue
		}
		words := strings.Fields(key)
		for i, w := range words {
			words[i] = ix.stemOf(w)
		}
		ix.syn[strings.Join(words, " ")] = found
	}
}
