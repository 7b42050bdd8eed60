package generate

import (
	"slices"
	"strings"
)

// classify says what the question asks and which of its terms name the
// subject (the terms after "what is", or the whole short question).
func classify(q string, c *composer) (shape, uint64) {
	l := strings.ToLower(strings.TrimSpace(q))
	l = strings.TrimRight(l, "?!. ")
	words := strings.Fields(l)
	has := func(ps ...string) bool {
		for _, p := range ps {
			if strings.HasPrefix(l, p) {
				return true
			}
		}
		return false
	}
	rest := func(ps ...string) uint64 {
		for _, p := range ps {
			if r, ok := strings.CutPrefix(l, p); ok {
				return c.mask(r)
			}
		}
		return c.all
	}
	switch {
	case has("should i ", "should we ", "do i ", "is it better to ") && strings.Contains(l, " or "):
		// "should I start from the example site or from scratch": a
		// choice between two, weighed, not the steps of either.
		return shapeCompare, c.all
	case procedureAsked(l):
		return shapeHowto, c.all
	case errorLike(q):
		return shapeError, c.all
	case strings.Contains(l, "difference between") || strings.Contains(l, " vs ") || strings.Contains(l, " versus ") || strings.Contains(l, "difference") && strings.Contains(l, " or "):
		return shapeCompare, c.all
	case has("why ", "does ", "do ", "can ", "is ", "are ", "should ", "will ", "has ", "have "):
		return shapeWhy, c.all
	case has("what is ", "what's ", "what are ", "what is a ", "define ", "meaning of ", "what does ") && !strings.Contains(l, " need") && !has("what does the ", "what does a "):
		return shapeDefine, rest("what is a ", "what is an ", "what is the ", "what is ", "what's ", "what are the ", "what are ", "define ", "meaning of ", "what does ")
	case has("how ", "to ", "where ", "when ", "which ", "what ", "can i", "i "):
		return shapeHowto, c.all
	case len(words) <= 4 && codeLike(q):
		return shapeReference, c.all
	case len(words) <= 5 && !imperative[words[0]] && !strings.HasSuffix(strings.TrimSpace(q), "?"):
		// A few nouns, no question word and no verb ("request body
		// size limit", "tabpane options"): a lookup of what they are.
		return shapeReference, c.all
	}
	return shapeHowto, c.all
}

// opensWithChoice: a question's words open with "A or B", each of one
// to three words, and A is no question word or verb ("rclone delete or
// rclone purge to …"; not "how do I … or …", "can I … or …").
func opensWithChoice(words []string) bool {
	for i := 1; i <= 3 && i < len(words)-1; i++ {
		if words[i] == "or" {
			// A verb opening "A or B" is a command's name when A is that
			// one word ("move or moveto if I just want …"): the pages
			// must still be titled with both.
			w := words[0]
			return (!imperative[w] || i == 1) && !questionWord[w]
		}
	}
	return false
}

// namesChoice: the question opens or ends by naming two things with
// "or" between them ("rmdir or rmdirs to clean up …", "local backend
// symlinks: --copy-links or --links?") without saying "difference".
func (c *composer) namesChoice() bool {
	words := strings.Fields(strings.TrimRight(c.plain, "?!. "))
	return opensWithChoice(words) || choiceEnds(words)
}

// questionWord: a question opening with it asks something else than a
// choice, even when it names two things ("can I use a or b").
var questionWord = map[string]bool{
	"how": true, "what": true, "why": true, "where": true, "when": true, "which": true, "who": true,
	"can": true, "do": true, "does": true, "is": true, "are": true, "should": true, "will": true, "i": true,
	"my": true, "to": true, "a": true, "an": true, "the": true, "it": true, "if": true,
}

// listingAsked: l (lower case) asks for several things ("which keys",
// "what are the parts", "ways to …").
func listingAsked(l string) bool {
	return strings.HasPrefix(l, "which ") || strings.HasPrefix(l, "what are ") || strings.HasPrefix(l, "list ") ||
		strings.Contains(l, " are there") || pluralAsked(l) ||
		strings.HasPrefix(l, "ways to ") || strings.HasPrefix(l, "ways of ") || strings.HasPrefix(l, "options for ") || strings.Contains(l, "different ways")
}

// pluralAsked: "what <things> …" asks for several ("what files does
// it write", "what order are the steps in"); "what does …", "what is …"
// do not, whatever plural follows.
func pluralAsked(l string) bool {
	w := strings.Fields(l)
	if len(w) < 3 || w[0] != "what" {
		return false
	}
	switch w[1] {
	case "is", "does", "do", "was", "has", "happens", "causes":
		return false
	}
	return strings.Contains(l, "s ")
}

// procedureAsked: the question asks for the steps, not one action.
func procedureAsked(l string) bool {
	for _, w := range []string{"steps", "step by step", "step-by-step", "set up", "setup", "get started", "getting started", "walk me through", "from scratch"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// codeLike: a question naming a setting or function (a dot, an
// underscore, camelCase, a colon) rather than asking in words.
func codeLike(q string) bool {
	for _, w := range strings.Fields(q) {
		if strings.ContainsAny(w, "._:/") && len(w) > 2 {
			return true
		}
		for i := 1; i < len(w); i++ {
			if w[i] >= 'A' && w[i] <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z' {
				return true
			}
		}
	}
	return len(strings.Fields(q)) <= 2
}

// errorLike: a pasted error message, or a question about one.
func errorLike(q string) bool {
	l := strings.ToLower(q)
	for _, w := range []string{"error", "warning", "failed", "fails", "not found", "can't", "cannot", "404", "unable", "invalid", "panic", "refused", "denied", "doesn't work", "does not work", "not working", "broken", "misbehav", "no longer", "stopped working", "disappeared", "is gone", "are gone"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	if errorCodeIn(q) != "" {
		return true // "what does ASK_PERSISTENCE_CONFLICT mean"
	}
	if w := strings.Fields(q); len(w) >= 4 && len(w[0]) > 2 && strings.HasSuffix(w[0], ":") && !strings.HasSuffix(q, "?") && messageSource(strings.TrimSuffix(w[0], ":")) {
		return true // a message as a program prints it: "x509: certificate signed by unknown authority"
	}
	return strings.ContainsAny(q, "\"“") && len(strings.Fields(q)) > 3
}

// messageSource: w, before a colon, is what a program's message starts
// with: a level or a name in capitals ("NOTICE", "ERROR"), a module with
// a digit ("x509"), or a level word ("fatal", "warning"); not a setting's
// key ("kind: latest …").
func messageSource(w string) bool {
	switch strings.ToLower(w) {
	case "error", "warning", "warn", "fatal", "panic", "notice", "critical", "info", "debug", "failed", "failure", "exception", "traceback":
		return true
	}
	return strings.ToUpper(w) == w && strings.ToLower(w) != w || strings.ContainsAny(w, "0123456789")
}

// errorCode: an upper-case code with an underscore, as error codes are
// written (ASK_RATE_LIMITED, EACCES_DENIED), not an acronym (CSS, SHA256).
func errorCode(w string) bool {
	if len(w) < 5 || !strings.Contains(w, "_") {
		return false
	}
	for _, r := range w {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// errorCodeIn is the first error code q names, quoted or not, or "".
func errorCodeIn(q string) string {
	for _, w := range strings.Fields(q) {
		if w = strings.Trim(w, "`'\"“”?!.,:;()"); errorCode(w) {
			return w
		}
	}
	return ""
}

// weighing: the question asks which of several options is better in
// some way ("Hugo modules or git submodule, which is easier to
// maintain?", "which installation option do you recommend").
func weighing(l string) bool {
	for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' || r == '?' }) {
		switch w {
		case "easier", "harder", "better", "worse", "faster", "slower", "simpler", "safer", "cheaper", "best", "easiest", "simplest", "recommend", "recommended", "prefer", "preferred":
			return true
		}
	}
	return false
}

// namesSetting: the heading h (plain) is a setting the question names
// among other words ("github_url (optional)" for "github_url front
// matter"): the section that documents it is the one asked about.
func namesSetting(h, plainQuestion string) bool {
	name, _, _ := strings.Cut(h, " (")
	if strings.ContainsRune(name, ' ') || !strings.ContainsAny(name, "_.") && camelParts(name) == name {
		return false
	}
	words := strings.Fields(plainQuestion)
	return len(words) > 1 && slices.Contains(words, name)
}

// unframed is a plain question without the words that frame code asked
// about ("what does hidden: true do" is about "hidden: true").
func unframed(v string) string {
	for _, p := range []string{"what does ", "what do ", "what is ", "what's ", "meaning of ", "explain "} {
		if r, ok := strings.CutPrefix(v, p); ok {
			v = r
			break
		}
	}
	for _, s := range []string{" do", " does", " mean", " means", " for"} {
		if r, ok := strings.CutSuffix(v, s); ok {
			return r
		}
	}
	return v
}

// request is the part of a how-to that asks, after the situation a
// reader tells first ("the table of contents marks a heading as active
// too late while I scroll, can I make it switch earlier?" asks to
// "make it switch earlier"); the whole question when it tells none. A
// verb of no meaning of its own ("make it switch") gives way to the
// next word.
func request(q string) string {
	l := strings.ToLower(q)
	at := -1
	for _, m := range [...]string{", how do i ", ", how can i ", ", can i ", ", how to ", ", how do we ", ", how can we ", ", can we ", ", what do i ", ", what should i ", "; how do i ", " - how do i "} {
		if i := strings.LastIndex(l, m); i > at {
			at = i + len(m)
		}
	}
	if at < 0 {
		return q
	}
	r := q[at:]
	for _, v := range [...]string{"make it ", "make them ", "get it to ", "get them to ", "have it ", "have them ", "make "} {
		if strings.HasPrefix(strings.ToLower(r), v) {
			return r[len(v):]
		}
	}
	return r
}

// excludedIn is what a question sets aside ("rootMargin" of "ScrollSpy
// options other than rootMargin, like threshold"; "docsy-example" of
// "besides docsy-example, is there another template"): the words after
// "other than", "besides", "except" or "apart from", up to the next
// comma or question word; "" when it sets nothing aside. Not "instead
// of": what a reader wants to replace is usually what the answer names
// ("use a model instead of the extractive generator": give the site a
// generator).
func excludedIn(q string) string {
	l := strings.ToLower(q)
	for _, m := range [...]string{"other than ", "besides ", "except ", "apart from "} {
		i := strings.Index(l, m)
		if i < 0 || i > 0 && l[i-1] != ' ' && l[i-1] != ',' {
			continue
		}
		rest := l[i+len(m):]
		end := len(rest)
		if j := strings.IndexAny(rest, ",;?"); j >= 0 {
			end = j
		}
		for _, stop := range [...]string{" like ", " such as ", " is ", " are ", " can ", " do ", " does ", " how ", " what ", " which "} {
			if j := strings.Index(rest[:end], stop); j >= 0 {
				end = j
			}
		}
		if len(l) != len(q) {
			return strings.TrimSpace(rest[:end]) // lower case changed the length: no original spelling to keep
		}
		return strings.TrimSpace(q[i+len(m) : i+len(m)+end]) // as typed: "rootMargin" is also "root margin"
	}
	return ""
}

// flagHeading: heading h (plain) names flag, then its type, as option
// references title their sections ("--log-format string").
func flagHeading(h, flag string) bool {
	return strings.HasPrefix(flag, "-") && !strings.Contains(flag, " ") && strings.HasPrefix(h, flag+" ") && !strings.Contains(h[len(flag)+1:], " ")
}

// titles: a page or section heading h (plain) names what a definition
// asks about (titled, as a page would be titled): the name itself, the
// name without the kind of thing it is ("Chunker" for "chunker
// backend"), or the one word that ends it after the product's name
// ("Crypt" for "rclone crypt remote").
func titles(h, titled string) bool {
	if titled == "" {
		return false
	}
	k := kindless(titled)
	return h == titled || h == k || !strings.Contains(h, " ") && strings.HasSuffix(k, " "+h)
}

// kindless is a thing's name asked with the kind of thing it is ("chunker
// backend", "alias remote", "ref shortcode") without the kind ("chunker"):
// how its page or section is titled. name itself when it names no kind or
// is the kind alone.
func kindless(name string) string {
	i := strings.LastIndexByte(name, ' ')
	if i <= 0 || !kinds[name[i+1:]] {
		return name
	}
	return name[:i]
}

var kinds = map[string]bool{
	"backend": true, "backends": true, "remote": true, "command": true, "subcommand": true, "shortcode": true,
	"function": true, "option": true, "flag": true, "setting": true, "parameter": true, "param": true,
	"feature": true, "plugin": true, "module": true, "overlay": true, "provider": true, "partial": true,
}
