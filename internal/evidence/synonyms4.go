package evidence

import (
	"strings"
)

// synDiv: a synonym scores half of what the word itself would.
const synDiv = 2

// synonymTable lists, for a word or two-word phrase a reader types, the
// words documentation commonly uses for the same thing.
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

// indexSynonyms resolves the table against this corpus: each entry's
// stemmed key (two stems joined by a space for a phrase) to the term ids
// of its synonyms the corpus holds.
func (ix *Index2) indexSynonyms() {
	if !strings.HasPrefix(ix.lang, "en") {
		return
	}
	ix.syn = map[string][]int32{}
	for key, alts := range synonymTable {
		var ids []int32
		for _, a := range alts {
			if id, _, ok := ix.lookup(a); ok && !containsID(ids, id) {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		words := strings.Fields(key)
		for i, w := range words {
			words[i] = ix.stemOf(w)
		}
		ix.syn[strings.Join(words, " ")] = ids
	}
}

func containsID(ids []int32, id int32) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// expand merges each question word's synonyms into its posting list: a
// record scores the better of the word's contribution and a synonym's
// divided by synDiv.
func (ix *Index2) expand(q *query, question string) {
	if len(ix.syn) == 0 {
		return
	}
	toks, _ := analyze(nil, question, 0)
	var done uint64
	var stems []string
	var forms []string
	for _, t := range toks {
		if t.kind != kindPart || t.multi {
			continue
		}
		stems = append(stems, ix.stemOf(t.form))
		forms = append(forms, t.form)
	}
	for i := range stems {
		var alts []int32
		if i+1 < len(stems) {
			alts = ix.syn[stems[i]+" "+stems[i+1]]
		}
		if alts == nil {
			alts = ix.syn[stems[i]]
		}
		if alts == nil {
			continue
		}
		j := q.termOf(forms[i])
		if j < 0 {
			continue
		}
		t := &q.terms[j]
		if done&(1<<uint(j)) != 0 {
			continue
		}
		done |= 1 << uint(j)
		for _, id := range alts {
			if t.has(id) {
				continue
			}
			t.list = mergeMax(t.list, &ix.posts[id], synDiv)
			t.ids = append(t.ids[:len(t.ids):len(t.ids)], id)
		}
	}
}

// termOf is the index of the term a question word was parsed into.
func (q *query) termOf(form string) int {
	for j := range q.terms {
		r := q.terms[j].reason
		if r == form || strings.HasPrefix(r, form+"~") {
			return j
		}
	}
	return -1
}

// mergeMax is a posting list holding, per record, the better of a's
// contribution and b's divided by div; a may be nil.
func mergeMax(a, b *posts2, div int64) *posts2 {
	var ar []int32
	var as []int64
	if a != nil {
		ar, as = a.recs, a.score
	}
	out := &posts2{recs: make([]int32, 0, len(ar)+len(b.recs)), score: make([]int64, 0, len(ar)+len(b.recs))}
	i, j := 0, 0
	for i < len(ar) || j < len(b.recs) {
		var r int32
		var s int64
		switch {
		case j == len(b.recs) || i < len(ar) && ar[i] < b.recs[j]:
			r, s = ar[i], as[i]
			i++
		case i == len(ar) || b.recs[j] < ar[i]:
			r, s = b.recs[j], b.score[j]/div
			j++
		default:
			r, s = ar[i], max(as[i], b.score[j]/div)
			i++
			j++
		}
		out.recs = append(out.recs, r)
		out.score = append(out.score, s)
		out.max = max(out.max, s)
	}
	return out
}
