package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// noteBody is a note's text as an answer quotes it: without the alert
// marker a site renders literally when its theme has no blockquote hook
// ("[!WARNING] …", GitHub's syntax), and without a short title, which
// the marker's line held and the chunker's collapsed white space glued
// to the body ("[!TIP] Hugo Tip Run `hugo server …`" quotes "Run `hugo
// server …`"). A title of five words or more says the point ("You can
// only enable a single search option at a time If you …") and stays the
// body's opening. A title is only recognized where the body goes on
// with a word the sentences of notes open with.
func noteBody(text string) string {
	rest, ok := strings.CutPrefix(text, "[!")
	if !ok {
		return text
	}
	end := strings.IndexByte(rest, ']')
	if end < 1 || end > 12 || strings.ToUpper(rest[:end]) != rest[:end] {
		return text
	}
	body := strings.TrimLeft(rest[end+1:], " -:")
	words := strings.Fields(body)
	split := 0 // the body's first word, when a title comes before it
	for i := 1; i < len(words) && i <= 12; i++ {
		prev := words[i-1]
		if strings.ContainsAny(prev, ".:!?;`") {
			break // the title ended, or there was none
		}
		if opensNote[strings.TrimRight(words[i], ",")] {
			split = i
		}
	}
	if split == 0 || split >= 5 {
		return body
	}
	for range split {
		body = strings.TrimLeft(body, " ")
		body = body[strings.IndexByte(body+" ", ' '):]
	}
	return strings.TrimLeft(body, " ")
}

// opensNote: words a note's first sentence opens with, after a title
// ("Deprecation note and warning While you can …").
var opensNote = map[string]bool{
	"While": true, "If": true, "By": true, "Run": true, "To": true, "When": true, "You": true, "The": true,
	"This": true, "These": true, "Use": true, "For": true, "In": true, "Set": true, "Add": true, "Make": true,
	"Before": true, "After": true, "Once": true, "Unless": true, "Although": true, "As": true, "It": true,
	"We": true, "Your": true, "Do": true, "Don’t": true, "Don't": true, "Always": true, "Never": true, "Only": true,
}

// settingNote is one line of a code block's Notes (internal/chunk's
// annotate: "`key` in `[table]`: text", "`key` in `parent.key`: text")
// as an answer quotes it: the setting by its full dotted name, then
// what the comment says of it ("`params.askplane.endpoint`: where the
// widget sends questions it cannot answer."). "" for a table's own note
// or a line of another form.
func settingNote(line string) string {
	key, rest, ok := strings.Cut(line, "`: ")
	if !ok || !strings.HasPrefix(key, "`") || strings.HasPrefix(key, "`[") || strings.TrimSpace(rest) == "" {
		return ""
	}
	key = key[1:]
	if k, in, ok := strings.Cut(key, "` in `"); ok {
		key = strings.Trim(in, "[]") + "." + k
	}
	if strings.ContainsAny(key, "` ") {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasSuffix(rest, ".") && !strings.HasSuffix(rest, "!") && !strings.HasSuffix(rest, "?") {
		rest += "."
	}
	return "`" + key + "`: " + rest
}

// namesKey: the question names the key a line of a code block's Notes
// is about, a key written as code ("fetch-depth", "baseURL",
// "cache_dir"), not a plain word a sentence could mean otherwise.
func (c *composer) namesKey(line string) bool {
	key, _, ok := strings.Cut(line, "`: ")
	if !ok || !strings.HasPrefix(key, "`") {
		return false
	}
	key, _, _ = strings.Cut(key[1:], "`")
	if len(key) < 4 || !strings.ContainsAny(key, "-_.") && camelParts(key) == key {
		return false
	}
	return hasWord(c.plain, strings.ToLower(key))
}

// deprecation is what a note of rec says when it says something is
// deprecated ("This setting is deprecated. Use path_base_for_github_subdir
// instead."): its first two sentences, "" when no note of the section
// says so or the sentences are too long to lead an answer.
func (c *composer) deprecation(rec int) string {
	for _, b := range c.pkg.Records[rec].Blocks {
		if b.Kind != chunk.Note || !strings.Contains(strings.ToLower(b.Text), "deprecat") {
			continue
		}
		ss := sentencesOf(noteBody(b.Text))
		if len(ss) > 2 {
			ss = ss[:2]
		}
		d := strings.Join(ss, " ")
		if len(ss) == 0 || len(d) > maxSupportBytes || !factsOf(d).quotable || c.said(d) {
			return ""
		}
		return d
	}
	return ""
}
