package generate

import (
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/evidence"
)

// mask is the question terms s contains, computed once per text: titles,
// headings and code blocks are read again by several steps.
func (c *composer) mask(s string) uint64 {
	if m, ok := c.masks[s]; ok {
		return m
	}
	m := c.maskOf(s)
	if c.masks == nil {
		c.masks = make(map[string]uint64, 64)
	}
	c.masks[s] = m
	return m
}

func (c *composer) maskOf(s string) uint64 {
	var m uint64
	for _, w := range stemsOf(s) {
		if i, ok := slices.BinarySearch(c.terms, w); ok {
			m |= 1 << uint(i)
			continue
		}
		if len(w) < 5 {
			continue // too short to be a derived form of anything
		}
		d, ok := c.derived[w]
		if !ok {
			// A derived form: "installation" for "install", "configure"
			// for "configuration".
			for i, q := range c.terms {
				short, long := q, w
				if len(long) < len(short) {
					short, long = long, short
				}
				if len(short) >= 5 && len(long)-len(short) <= 5 && strings.HasPrefix(long, short[:len(short)-1]) {
					d |= 1 << uint(i)
				}
			}
			if c.derived == nil {
				c.derived = make(map[string]uint64, 64) // a question's packages: 41–111 words, median 62
			}
			c.derived[w] = d
		}
		m |= d
	}
	return m
}

// scaffold words: what a question is asked in, never what it is about
// ("what fields does a fact have", "do I need PostCSS"). The engines keep
// their own, frozen stopwords; these only steer which sentence answers.
var scaffold = map[string]bool{
	"have": true, "has": true, "had": true, "should": true, "would": true, "could": true, "must": true,
	"want": true, "please": true, "possible": true, "only": true, "just": true, "really": true, "actually": true,
	// when it is asked ("for now", "still", "again") is not what
	"may": true, "might": true, "now": true, "later": true, "still": true, "again": true, "anymore": true,
	"currently": true, "yet": true, "ever": true, "also": true,
	// "leaving the small ones": a pronoun for what the question named
	"ones": true,
}

// camelParts is s followed, when it holds camelCase identifiers, by
// their parts ("contentHash" also as "content Hash"), so a question's
// "content hash" meets `contentHash` and "maxSources" meets "sources".
func camelParts(s string) string {
	boundary := func(i int) bool { return s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' }
	first := 0
	for i := 1; i < len(s) && first == 0; i++ {
		if boundary(i) {
			first = i
		}
	}
	if first == 0 {
		return s
	}
	b := make([]byte, 0, 2*len(s)+8)
	b = append(b, s...)
	b = append(b, ' ')
	for i := 0; i < len(s); i++ {
		if i > 0 && boundary(i) {
			b = append(b, ' ')
		}
		b = append(b, s[i])
	}
	return string(b)
}

// camelPhrase is the first two parts, as words, of a camelCase setting
// asked alone ("cookie secret" of "cookieSecretEnv"); "" for any other
// question.
func camelPhrase(q string) string {
	q = strings.Trim(strings.TrimSpace(q), "`?")
	parts := strings.Fields(camelParts(q))
	if len(parts) < 3 || strings.ContainsAny(q, " ._-/:") {
		return "" // camelParts gives the identifier, then its parts
	}
	return strings.ToLower(parts[1] + " " + parts[2])
}

// stemTerms is the question's terms, stemmed, sorted and distinct, at
// most 64.
func stemTerms(q string) []string {
	t := evidence.Terms(camelParts(q))
	t = slices.DeleteFunc(t, func(w string) bool { return scaffold[w] })
	for i := range t {
		t[i] = stem(t[i])
	}
	slices.Sort(t)
	t = slices.Compact(t)
	return t[:min(len(t), 64)]
}

// stem strips a few English suffixes and a final e, so "pages" meets
// "page", "serves" and "serving" meet "serve", "gets" and "getting" meet
// "get", and "locally" meets "local".
// It is applied to the question and the sentences alike, so a stem need
// only be the same for the forms of one word, not a word itself.
func stem(w string) string {
	if b, ok := irregular[w]; ok {
		return b
	}
	w = american(w)
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "sses"):
		w = w[:n-2]
	case n > 4 && strings.HasSuffix(w, "es") && (strings.ContainsRune("sxz", rune(w[n-3])) || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		w = w[:n-2]
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:n-2])
	case n > 5 && strings.HasSuffix(w, "ly"):
		w = w[:n-2]
	case n > 3 && w[n-1] == 's' && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	w = american(w) // "colours" once its s is gone
	if len(w) > 4 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	if s, ok := synonym[w]; ok {
		return s
	}
	return w
}

// phrasal turns the phrasal verbs readers ask with into the verb docs
// write ("turn off the feedback widget" is "disable" on the page), for
// the question's terms only.
var phrasal = strings.NewReplacer(
	"turn off", "disable", "Turn off", "disable", "switch off", "disable", "Switch off", "disable",
	"turn on", "enable", "Turn on", "enable", "switch on", "enable", "Switch on", "enable",
	"get rid of", "remove", "Get rid of", "remove", "set up", "configure", "Set up", "configure",
	"top bar", "navbar", "top nav bar", "navbar", "nav bar", "navbar",
)

// vague: verbs a how-to can open with that say nothing of what is done
// ("use our own logo", "make the navbar taller", "get the sidebar to
// fold"); the word after them is the doing.
var vague = map[string]bool{"use": true, "make": true, "get": true, "let": true, "do": true, "need": true}

// synonym maps the stems of the verbs docs and readers use for one
// action to one of them: a reader asks to "change" what the page says
// to "customize", to "delete" what it says to "remove". Only words that
// name the same action whatever the subject; "set", "hide" or "override"
// say more than "change" and keep their own stems. So too the names
// readers shorten or vary for one thing: a "folder" the page calls a
// "directory", a "repo" it calls a "repository".
var synonym = map[string]string{
	"customiz": "chang", "modify": "chang", "modifi": "chang", "alter": "chang", "adjust": "chang",
	"delet": "remov", "display": "show", "activat": "enabl", "deactivat": "disabl",
	"launch": "start", "upgrad": "updat",
	"folder": "directory", "subfolder": "subdirectory", "dir": "directory", "repo": "repository",
}

// american spells w as American English does where British differs
// ("colour", "customise", "initialisation"), so either meets the other.
func american(w string) string {
	n := len(w)
	switch {
	case n > 5 && strings.HasSuffix(w, "our"):
		return w[:n-2] + "r"
	case n > 7 && strings.HasSuffix(w, "isation"):
		return w[:n-6] + "zation"
	}
	for _, suf := range []string{"ise", "ised", "ises", "ising"} {
		if n > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:n-len(suf)] + "iz" + suf[2:]
		}
	}
	return w
}

// irregular verb forms docs use, by their base form ("No question is
// sent" answers "does it send my questions").
var irregular = map[string]string{
	"sent": "send", "built": "build", "ran": "run", "got": "get", "gotten": "get", "made": "make",
	"written": "write", "wrote": "write", "kept": "keep", "found": "find", "chose": "choose", "chosen": "choose",
	"gave": "give", "given": "give", "took": "take", "taken": "take", "shown": "show", "known": "know",
	"began": "begin", "begun": "begin", "broke": "break", "broken": "break", "hidden": "hide", "hid": "hide",
	"went": "go", "gone": "go", "saw": "see", "seen": "see", "held": "hold", "meant": "mean", "lost": "lose",
	"told": "tell", "thrown": "throw", "drawn": "draw", "left": "leave",
}

// undouble drops the doubled consonant a suffix left ("runn" of
// "running", "stopp" of "stopped"), keeping ll, ss and zz ("install",
// "pass") and a word of three letters ("add" of "adding").
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// hasWord: p holds v, not as the start or end of a longer identifier.
func hasWord(p, v string) bool {
	word := func(b byte) bool { return b == '_' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }
	for i := 0; ; {
		j := strings.Index(p[i:], v)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(v)
		if (j == 0 || !word(p[j-1]) || !word(v[0])) && (end == len(p) || !word(p[end]) || !word(v[len(v)-1])) {
			return true
		}
		i = j + 1
	}
}

// mentioned: the plain sentence p names v only as an example of
// something else ("recorded by its stable code, such as ASK_TIMEOUT",
// "a stable code — ask_timeout, ask_invalid_request and the others", "a
// post to the ask endpoint (params.askplane.endpoint)").
func mentioned(p, v string) bool {
	for _, m := range []string{"such as ", "e.g. ", "for example ", "like ", "— "} {
		if strings.Contains(p, m+v) {
			return true
		}
	}
	if strings.Contains(p, "("+v+")") {
		return true // named alone in parentheses; "(x makes it …)" speaks of it
	}
	return strings.Contains(p, " and the others") || strings.Contains(p, " and others")
}

// containsFold: s holds sub, ASCII case ignored, without allocating (a
// filter before the checks that lower-case a sentence).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// unquote drops backticks and double quotes, straight and curly. Built
// once: a Replacer's first Replace builds its tables, which cost more
// than the replacing when it was made anew for every sentence.
var unquote = strings.NewReplacer("`", "", "\u201c", "", "\u201d", "", "\"", "")

// plain is s for a verbatim comparison: lower case, without backticks
// or quotes, runs of white space as one space.
func plain(s string) string {
	s = unquote.Replace(strings.ToLower(s))
	return strings.Join(strings.Fields(s), " ")
}
