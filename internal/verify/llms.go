package verify

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// What the module publishes for programs (issue 27), checked in the spirit
// of the AFDocs agent-readiness checks: every llms.txt parses as the
// llms.txt convention v2 (an H1, an optional block-quote summary, H2
// sections of one Markdown link a line) with llms-full.txt beside it;
// every link resolves to a Markdown twin in the folder; every twin starts
// with an H1, holds at most MaxTwinChars characters (or is split into
// parts that each do, "Continued in" linking the next) and no theme
// chrome; every HTML page links the llms.txt that covers it
// (rel="describedby") and, when it has a twin, the twin
// (rel="alternate" type="text/markdown"), which that llms.txt lists.
// A site with no llms.txt (params.askplane.markdown = false) is not
// checked.

// Bounds of the llms.txt check.
const (
	// MaxTwinChars is the most characters a twin may hold: agents read a
	// page whole, and AFDocs-style checks flag pages over 50,000.
	MaxTwinChars = 50000
	// MaxLLMsBytes bounds what is read of one llms.txt, twin or page.
	MaxLLMsBytes = 16 << 20
	// MaxLLMsFiles bounds how many files of the folder are looked at.
	MaxLLMsFiles = 500000
	// MaxLLMsProblems bounds how many llms problems are reported; one more
	// (llms.more) says how many were left out.
	MaxLLMsProblems = 50
	// maxTwinParts bounds how many parts of one split twin are followed.
	maxTwinParts = 100
)

// LLMs summarizes the llms.txt check of a publish folder.
type LLMs struct {
	Indexes int // llms.txt files
	Twins   int // twins they link (parts of split twins not counted)
	Pages   int // HTML pages checked for their link relations
	Errors  int
	Warns   int
}

// llmsLine is one link line of an llms.txt section: - [title](url): description.
var llmsLine = regexp.MustCompile(`^- \[((?:[^\]\\]|\\.)+)\]\(([^)\s]+)\)(?:: (.+))?$`)

// continued is the link a part of a split twin ends with.
var continued = regexp.MustCompile(`\nContinued in \[part \d+ of \d+\]\(([^)\s]+)\)\.\n$`)

// chrome is what a theme draws around a page's content, which a twin must
// not carry (looked for outside code): the widget's markup included.
var chrome = []string{"<nav", "<header", "<footer", "<aside", "<script", "<style", "<link", "<html", "<body", "data-askplane", "askplane-launcher"}

type llmsChecker struct {
	fsys     fs.FS
	base     string // the site's base path, "/" or "/docs/"
	sum      LLMs
	problems []Problem
	dropped  int
	listed   map[string]string // twin → the llms.txt listing it
	twins    map[string]bool   // twins already checked
}

func (c *llmsChecker) add(warning bool, code, source, format string, args ...any) {
	if warning {
		c.sum.Warns++
	} else {
		c.sum.Errors++
	}
	if len(c.problems) >= MaxLLMsProblems {
		c.dropped++
		return
	}
	c.problems = append(c.problems, Problem{Code: code, Source: source, Message: fmt.Sprintf(format, args...), Warning: warning})
}

// checkLLMs runs the check on fsys, whose base path is base. It returns
// nil when the folder holds no llms.txt.
func checkLLMs(fsys fs.FS, base string) (*LLMs, []Problem) {
	c := &llmsChecker{fsys: fsys, base: base, listed: map[string]string{}, twins: map[string]bool{}}
	var indexes, pages []string
	files := 0
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable folders are the other checks' business
		}
		if files++; files > MaxLLMsFiles {
			return fs.SkipAll
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		switch {
		case d.Name() == "llms.txt":
			indexes = append(indexes, name)
		case strings.HasSuffix(name, ".html"):
			pages = append(pages, name)
		}
		return nil
	})
	if err != nil || len(indexes) == 0 {
		return nil, nil
	}
	if files > MaxLLMsFiles {
		c.add(true, "llms.unchecked", ".", "the folder holds more than %d files: the llms.txt check looked at the first %d only", MaxLLMsFiles, MaxLLMsFiles)
	}
	for _, name := range indexes {
		c.index(name)
	}
	for _, name := range pages {
		c.page(name)
	}
	if c.dropped > 0 {
		c.problems = append(c.problems, Problem{Code: "llms.more", Source: ".", Warning: true,
			Message: fmt.Sprintf("%d more llms.txt problems not shown", c.dropped)})
	}
	return &c.sum, c.problems
}

// read reads name, bounded; ok false (and a problem) when it cannot.
func (c *llmsChecker) read(name, code, what string) ([]byte, bool) {
	data, size, err := readFile(c.fsys, name, MaxLLMsBytes)
	var esc *escapeError
	switch {
	case errors.As(err, &esc):
		c.add(false, "file.escape", name, "the file is a symbolic link to %q, outside the publish folder", esc.target)
		return nil, false
	case err != nil:
		c.add(false, code, name, "%s cannot be read: %v", what, err)
		return nil, false
	case size > MaxLLMsBytes:
		c.add(false, code, name, "%s is %d bytes, over the %d verify reads", what, size, MaxLLMsBytes)
		return nil, false
	}
	return data, true
}

// index checks one llms.txt and the twins it links.
func (c *llmsChecker) index(name string) {
	c.sum.Indexes++
	data, ok := c.read(name, "llms.invalid", "the llms.txt")
	if !ok {
		return
	}
	if _, err := fs.Stat(c.fsys, path.Join(path.Dir(name), "llms-full.txt")); err != nil {
		c.add(false, "llms.full.missing", name, "no llms-full.txt beside it")
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if !strings.HasPrefix(lines[0], "# ") || len(strings.TrimSpace(lines[0])) < 3 {
		c.add(false, "llms.invalid", name, "line 1 is %s, not an H1 (# title)", quote(lines[0]))
	}
	links, section := 0, false
	for i, line := range lines[1:] {
		n := i + 2
		switch {
		case line == "" || strings.HasPrefix(line, "> ") && !section:
		case strings.HasPrefix(line, "## "):
			section = true
		case section && strings.HasPrefix(line, "- "):
			m := llmsLine.FindStringSubmatch(line)
			if m == nil {
				c.add(false, "llms.invalid", name, "line %d is not a link line (- [title](url): description): %s", n, quote(line))
				continue
			}
			links++
			twin, ok := c.local(m[2], name)
			if !ok || !strings.HasSuffix(twin, ".md") {
				c.add(false, "llms.link.missing", name, "line %d links %s, which is not a Markdown twin in the publish folder", n, quote(m[2]))
				continue
			}
			if _, err := fs.Stat(c.fsys, twin); err != nil {
				c.add(false, "llms.link.missing", name, "line %d links %s, but %s is not in the publish folder", n, quote(m[2]), twin)
				continue
			}
			c.listed[twin] = name
			c.sum.Twins++
			c.twin(twin)
		default:
			c.add(false, "llms.invalid", name, "line %d is neither a summary, a section heading nor a link line: %s", n, quote(line))
		}
	}
	if links == 0 {
		c.add(false, "llms.empty", name, "the llms.txt lists no page")
	}
}

// twin checks one Markdown twin and the parts that follow it.
func (c *llmsChecker) twin(name string) {
	for part := 0; part < maxTwinParts && name != "" && !c.twins[name]; part++ {
		c.twins[name] = true
		data, ok := c.read(name, "twin.invalid", "the twin")
		if !ok {
			return
		}
		s := string(data)
		if !strings.HasPrefix(s, "# ") {
			c.add(false, "twin.invalid", name, "the twin does not start with the page's title as an H1")
		}
		if n := utf8.RuneCountInString(s); n > MaxTwinChars {
			c.add(false, "twin.too-long", name, "the twin holds %d characters, over the %d agents read whole; split it", n, MaxTwinChars)
		}
		if found := ChromeIn(s); found != "" {
			c.add(false, "twin.chrome", name, "the twin holds theme chrome (%s) outside code", quote(found))
		}
		next := ""
		if m := continued.FindStringSubmatch(s); m != nil {
			if p, ok := c.local(m[1], name); ok {
				next = p
			} else {
				c.add(false, "twin.invalid", name, "its \"Continued in\" link %s names no file in the publish folder", quote(m[1]))
			}
		}
		name = next
	}
}

// ChromeIn returns the first piece of theme chrome (navigation, scripts,
// the widget's markup) a Markdown twin s holds outside code fences and
// code spans, or "": code samples may show markup.
func ChromeIn(s string) string {
	var prose strings.Builder
	fence := false
	for line := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if !fence && !strings.Contains(line, "`") {
			prose.WriteString(line + "\n")
		}
	}
	for _, c := range chrome {
		if holdsChrome(prose.String(), c) {
			return c
		}
	}
	return ""
}

// holdsChrome reports whether prose holds c; a tag ("<nav") only where its
// name ends there, so an author's autolinked e-mail address
// (<naveen@example.com>) is not navigation.
func holdsChrome(prose, c string) bool {
	if c[0] != '<' {
		return strings.Contains(prose, c)
	}
	for i := 0; ; {
		j := strings.Index(prose[i:], c)
		if j < 0 {
			return false
		}
		end := i + j + len(c)
		if end == len(prose) || strings.IndexByte(" \t\n\r>/", prose[end]) >= 0 {
			return true
		}
		i = end
	}
}

// page checks an HTML page's link relations.
func (c *llmsChecker) page(name string) {
	data, ok := c.read(name, "page.unreadable", "the page")
	if !ok {
		return
	}
	head := bytes.ToLower(data[:min(len(data), 1024)])
	if bytes.Contains(head, []byte(`http-equiv="refresh"`)) || bytes.Contains(head, []byte(`http-equiv=refresh`)) || !bytes.Contains(head, []byte("<html")) {
		return // an alias, or a fragment (the widget's panel), not a page
	}
	c.sum.Pages++
	rels := linkRels(data)
	twin := strings.TrimSuffix(name, ".html") + ".md"
	_, err := fs.Stat(c.fsys, twin)
	hasTwin := err == nil
	href, ok := rels["describedby"]
	if !ok {
		c.add(true, "page.describedby.missing", name, "the page has no <link rel=\"describedby\"> to its llms.txt: does its template call askplane/widget.html or askplane/links.html?")
		return
	}
	index, ok := c.local(href, name)
	if !ok || path.Base(index) != "llms.txt" {
		c.add(true, "page.describedby.missing", name, "rel=\"describedby\" is %s, not an llms.txt in the publish folder", quote(href))
		return
	}
	if dir := path.Dir(index); dir != "." && !strings.HasPrefix(name, dir+"/") {
		c.add(true, "page.describedby.missing", name, "rel=\"describedby\" names %s, which does not cover the page (an llms.txt covers the pages below its folder)", index)
	}
	if !hasTwin {
		return
	}
	alt, has := rels["alternate text/markdown"]
	if file, ok := c.local(alt, name); !has || !ok || file != twin {
		c.add(true, "page.alternate.missing", name, "the page has a twin (%s) but no <link rel=\"alternate\" type=\"text/markdown\"> to it", twin)
		return
	}
	if c.listed[twin] != index {
		c.add(false, "twin.unlisted", name, "its twin %s is not listed in %s, the llms.txt it names", twin, index)
	}
}

// local maps a link found in the file from (an absolute URL on any host, a
// root-relative path under the base path, or a path relative to from) to
// a file in the publish folder: a folder URL names its index.html.
func (c *llmsChecker) local(ref, from string) (string, bool) {
	u, err := url.Parse(ref)
	if err != nil || (u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") || u.Path == "" {
		return "", false
	}
	p := u.Path
	if strings.HasPrefix(p, "/") {
		if !strings.HasPrefix(p, c.base) {
			return "", false
		}
		p = strings.TrimPrefix(p, c.base)
	} else {
		if u.Host != "" {
			return "", false
		}
		p = path.Join(path.Dir(from), p)
		if strings.HasSuffix(u.Path, "/") {
			p += "/"
		}
	}
	if p == "" || strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	p = path.Clean(p)
	if !fs.ValidPath(p) || p == "." {
		return "", false
	}
	return p, true
}

// linkRels reads a page's link elements: rel → href, with
// "alternate text/markdown" for a Markdown alternate; the first of each.
func linkRels(page []byte) map[string]string {
	out := map[string]string{}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if string(name) != "link" || !hasAttr {
			continue
		}
		var rel, typ, href string
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			switch string(k) {
			case "rel":
				rel = strings.ToLower(strings.TrimSpace(string(v)))
			case "type":
				typ = strings.ToLower(strings.TrimSpace(string(v)))
			case "href":
				href = string(v)
			}
		}
		if rel == "alternate" && typ == "text/markdown" {
			rel = "alternate text/markdown"
		}
		if _, dup := out[rel]; !dup {
			out[rel] = href
		}
	}
}

// Summary is the one-line report of the llms.txt check, e.g.
//
//	askplane: llms.txt: 2 indexes list 63 twins; 70 pages checked for their link relations  OK
func (l *LLMs) Summary() string {
	status := "OK"
	if l.Errors > 0 {
		status = "FAILED (" + plural(l.Errors, "problem") + ")"
	}
	indexes := "1 index lists"
	if l.Indexes != 1 {
		indexes = fmt.Sprintf("%d indexes list", l.Indexes)
	}
	return fmt.Sprintf("askplane: llms.txt: %s %s; %s checked for their link relations  %s",
		indexes, plural(l.Twins, "twin"), plural(l.Pages, "page"), status)
}
