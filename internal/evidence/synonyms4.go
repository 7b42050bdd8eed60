package evidence

import (
	"slices"
	"strings"
)

// synDiv: a synonym weighs half of what the word itself does.
const synDiv = 2

// synonym is one word the documentation may use for a question's word:
// its term id in the corpus and its spelling (the reason a record
// matched it).
type synonym struct {
	id   int32
	form string
}

// synonymTable lists, for a word or two-word phrase a reader types, the
// words documentation commonly uses for the same thing: general English
// documentation vocabulary (how-to verbs, a few common nouns), never a
// site's own terms. A phrase's key is matched on two consecutive words
// of the question; a key's stem stands for its inflections ("disabling",
// "customized").
var synonymTable = map[string][]string{
	"turn off":   {"disable", "hide", "deactivate"},
	"switch off": {"disable", "hide", "deactivate"},
	"turn on":    {"enable", "activate", "show"},
	"switch on":  {"enable", "activate", "show"},
	"disable":    {"deactivate", "hide"},
	"deactivate": {"disable"},
	"enable":     {"activate"},
	"activate":   {"enable"},
	"hide":       {"disable", "exclude"},
	"remove":     {"delete", "disable", "exclude"},
	"delete":     {"remove"},
	"set up":     {"configure", "install", "setup"},
	"setup":      {"configure", "install"},
	"install":    {"setup"},
	"configure":  {"set", "setting", "config"},
	"change":     {"customize", "override", "modify"},
	"customize":  {"override", "change", "custom"},
	"customise":  {"customize", "override", "change"},
	"override":   {"customize", "change"},
	"modify":     {"change", "edit", "customize"},
	"edit":       {"modify", "change"},
	"add":        {"create", "insert", "include"},
	"create":     {"add", "new"},
	"insert":     {"add", "include", "embed"},
	"include":    {"embed", "insert"},
	"embed":      {"include", "insert"},
	"run":        {"start", "launch"},
	"start":      {"run", "launch"},
	"launch":     {"start", "run"},
	"publish":    {"deploy"},
	"deploy":     {"publish"},
	"upgrade":    {"update", "migrate"},
	"update":     {"upgrade"},
	"migrate":    {"upgrade", "convert"},
	"find":       {"search"},
	"fix":        {"troubleshoot", "solve"},
	"broken":     {"error", "troubleshoot"},
	"error":      {"troubleshoot"},
	"picture":    {"image"},
	"photo":      {"image"},
	"colour":     {"color"},
	"settings":   {"configuration", "option", "parameter"},
	"option":     {"setting", "parameter"},
	"show":       {"display"},
	"css":        {"scss", "sass", "stylesheet", "style"},
	"stylesheet": {"css", "scss", "style"},
	"sidebar":    {"nav", "navigation"},
	"one":        {"single"},
	"single":     {"one"},
	"display":    {"show"},
}

// indexSynonyms resolves the table against this corpus (English ones
// only: the table is English): each entry's stemmed key (two stems
// joined by a space for a phrase) to its synonyms the corpus holds.
func (ix *Index2) indexSynonyms() {
	if !strings.HasPrefix(ix.lang, "en") {
		return
	}
	ix.syn = map[string][]synonym{}
	for key, alts := range synonymTable {
		var found []synonym
		for _, a := range alts {
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

// expand adds to q, for each question word (or two-word phrase) of the
// table, its synonyms as terms of their own at half the word's weight,
// in question order while q has room: a record that says "disable"
// answers "turn off", but one that says what was asked scores more. A
// synonym already searched for (typed, or another word's) is not added
// twice. Like any term, a synonym adds its BM25 contribution, so a
// record holding the word and its synonym scores both (weighted OR, as
// query expansion does).
func (ix *Index2) expand(q *query, question string) {
	if len(ix.syn) == 0 {
		return
	}
	toks, _ := analyze(nil, question, 0)
	var stems, forms []string
	for _, t := range toks {
		if t.kind == kindPart && !t.multi {
			_, st, _ := ix.lookup(t.form) // the vocabulary's memo before the stemmer
			stems = append(stems, st)
			forms = append(forms, t.form)
		}
	}
	for i := range stems {
		var alts []synonym
		if i+1 < len(stems) {
			alts = ix.syn[stems[i]+" "+stems[i+1]]
		}
		if alts == nil {
			alts = ix.syn[stems[i]]
		}
		j := q.termOf(forms[i])
		if alts == nil || j < 0 {
			continue
		}
		w := max(q.terms[j].weight/synDiv, 1)
		for _, s := range alts {
			if len(q.terms) == maxQueryTerms2 {
				return
			}
			if q.hasID(s.id) {
				continue
			}
			q.terms = append(q.terms, qterm{reason: s.form, weight: w, list: &ix.posts[s.id], ids: []int32{s.id}, pos: -1, syn: true})
		}
	}
}

// termOf is the index of the term a question word was parsed into, -1
// if none.
func (q *query) termOf(form string) int {
	for j := range q.terms {
		r := q.terms[j].reason
		if r == form || strings.HasPrefix(r, form+"~") {
			return j
		}
	}
	return -1
}

// hasID reports whether one of q's terms stands for term id.
func (q *query) hasID(id int32) bool {
	for i := range q.terms {
		if q.terms[i].has(id) {
			return true
		}
	}
	return false
}
