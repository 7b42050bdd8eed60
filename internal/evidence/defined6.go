package evidence

import (
	"slices"
	"strings"
	"unicode"
)

// A question asking what something is ("what is rclone bisync", "what
// does rclone obscure do?") whose subject is a page's title is answered
// by that page: askplane.bm25/6 puts the page's opening first. BM25
// alone ranks it by the words it shares with the question, which a
// longer section elsewhere that keeps repeating the name ("bisync"
// errors, a crypt section on obscured passwords) outscores.

// definedPrefixes open a question asking what its subject is.
var definedPrefixes = []string{"what is a ", "what is an ", "what is the ", "what is ", "what's a ", "what's an ", "what's the ", "what's ", "whats ", "what are the ", "what are ", "what does the ", "what does ", "define ", "meaning of "}

// definedSuffixes close the subject of such a question.
var definedSuffixes = []string{" used for", " good for", " for", " do", " mean"}

// indexDefined records each page's opening record under its title,
// plain ("rclone bisync"), and, when most titles open with one word (the
// product's name), also under the rest of the title.
func (ix *Index2) indexDefined() {
	ix.defined = map[string]int32{}
	first := map[string]int{}
	pages := 0
	for i := range ix.records {
		if i > 0 && ix.records[i-1].URL == ix.records[i].URL {
			continue
		}
		pages++
		if w, _, ok := strings.Cut(titleKey(ix.records[i].Title), " "); ok {
			first[w]++
		}
	}
	product := ""
	for w, n := range first {
		if n*10 >= pages && n >= 5 && (product == "" || n > first[product] || n == first[product] && w < product) {
			product = w
		}
	}
	for i := range ix.records {
		if i > 0 && ix.records[i-1].URL == ix.records[i].URL {
			continue
		}
		key := titleKey(ix.records[i].Title)
		if key == "" || ix.isHome(ix.records[i].URL) {
			continue // a home page is titled with the site's name and greets more than it defines
		}
		if _, seen := ix.defined[key]; !seen {
			ix.defined[key] = int32(i)
		}
		if rest, ok := strings.CutPrefix(key, product+" "); ok && product != "" {
			if _, seen := ix.defined[rest]; !seen {
				ix.defined[rest] = int32(i)
			}
		}
	}
}

// isHome: u is the site's home page, or its language's ("/", "/en/").
func (ix *Index2) isHome(u string) bool {
	segs := strings.Fields(urlPath(u))
	return len(segs) == 0 || len(segs) == 1 && strings.EqualFold(segs[0], ix.lang)
}

// titleKey is a title or a question's subject as the two are compared:
// lower case, words of letters, digits and inner punctuation, one space
// apart.
func titleKey(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return unicode.IsSpace(r) || r == '?' || r == '!' || r == ',' || r == '"' || r == '“' || r == '”'
	})
	for i, w := range f {
		f[i] = strings.Trim(w, ".:;'`()")
	}
	return strings.Join(strings.Fields(strings.Join(f, " ")), " ")
}

// definedPage is the opening record of the page whose title is what
// question asks to define, or -1.
func (ix *Index2) definedPage(question string) int32 {
	q := titleKey(question)
	if rec, ok := ix.defined[q]; ok {
		return rec // a page titled with the question itself ("What is askplane?")
	}
	subject := ""
	for _, p := range definedPrefixes {
		if rest, ok := strings.CutPrefix(q, p); ok {
			subject = rest
			break
		}
	}
	if subject == "" {
		return -1
	}
	for _, s := range definedSuffixes {
		subject = strings.TrimSuffix(subject, s)
	}
	if rec, ok := ix.defined[subject]; ok {
		return rec
	}
	return -1
}

// pinDefined puts the opening of the page the question asks to define
// first in hits, above the best score, with the question terms it
// holds, keeping k records.
func (ix *Index2) pinDefined(question string, q *query, hits []hit2, k int) []hit2 {
	rec := ix.definedPage(question)
	if rec < 0 {
		return hits
	}
	top := hit2{rec: rec, score: minScore}
	if len(hits) > 0 {
		top.score = max(top.score, hits[0].score+1)
	}
	for i := range q.terms {
		if l := q.terms[i].list; l != nil {
			if _, ok := slices.BinarySearch(l.recs, rec); ok {
				top.mask |= 1 << uint(i)
			}
		}
	}
	out := make([]hit2, 0, len(hits)+1)
	out = append(out, top)
	for _, h := range hits {
		if h.rec != rec {
			out = append(out, h)
		}
	}
	return out[:min(len(out), k)]
}
