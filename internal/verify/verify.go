// Package verify checks what the askplane Hugo module published: for every
// language under PUBLIC_DIR/askplane/<lang>/, the manifest, the site config,
// the knowledge artifact and the corpus. It is the engine of
// `askplane verify PUBLIC_DIR`.
//
// The artifact is verified with the protocol package, exactly as the widget
// and the sidecar verify it. When the protocol rejects it, the generic wire
// diagnostic says only that a rule failed, so this package reads the raw
// JSON again, loosely, and names every rule violation it finds with the
// fact id and the source file the manifest records for it. These reports
// are for the site's own authors at build time, so unlike wire diagnostics
// they may quote the author's phrasings.
//
// Every read is bounded, and every file is read through the fs.FS given to
// Site, by a path checked with fs.ValidPath, so nothing outside it is read.
// Symbolic links that point outside the folder are reported.
//
// Problem codes, in the templates' dotted style:
//
//	outputs.missing                  no askplane/<lang>/manifest.json at all
//	manifest.missing manifest.invalid manifest.too-large manifest.href.invalid
//	manifest.sources.mismatch
//	file.missing file.escape file.unreadable
//	site.invalid site.too-large site.mismatch
//	site.fallback.unchecked          (warning) the Ask backend cannot be checked
//	artifact.invalid artifact.too-large artifact.name.mismatch
//	artifact.hash.invalid artifact.hash.mismatch artifact.site.mismatch
//	artifact.id.invalid artifact.generated-at.invalid
//	artifact.expires-at.invalid artifact.expires-at.too-early facts.too-many
//	fact.invalid fact.id.missing fact.id.invalid fact.id.duplicate
//	fact.kind.invalid fact.label.missing fact.label.too-long
//	fact.match.missing fact.match.too-many fact.match.empty fact.match.too-long
//	fact.match.duplicate fact.match.not-unique
//	fact.answer.missing fact.answer.too-long
//	fact.cite.invalid fact.cite.too-many fact.cite.title.too-long fact.href.unsafe
//	corpus.missing                   (warning) fallback is backend but no corpus was built
//	corpus.invalid corpus.too-large corpus.hash.mismatch corpus.name.mismatch
//	corpus.url.unsafe corpus.url.duplicate corpus.anchor.duplicate corpus.text.empty
//	corpus.html.invalid
//
// The llms.txt check (llms.go), when the folder holds an llms.txt:
//
//	llms.invalid llms.empty llms.full.missing llms.link.missing
//	twin.invalid twin.too-long twin.chrome twin.unlisted page.unreadable
//	page.describedby.missing page.alternate.missing (warnings) a page
//	                                 without its link relations
//	llms.unchecked llms.more         (warnings) the check's own bounds
//
// Raised only by the module's templates, which fail the hugo build:
//
//	config.invalid config.endpoint.missing fact.list.invalid fact.cite.missing
//	fact.cite.page-not-found
//
// Warnings only hugo prints (the published files cannot show them):
//
//	widget.missing                   facts were published but no page rendered the widget
//	facts.generated.trimmed          generated document facts were cut to the 1,024-entry limit
//
// Notes the manifest lists under "notes" (what fact generation left out;
// not problems):
//
//	fact.generated.phrasing-dropped  a generated phrasing a declared fact owns
//	fact.generated.dropped           a generated fact with no phrasing left
//
// This list is the registry of build-time codes: a test fails when a
// template raises a code that is not listed here.
package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// Bounds of the files verify reads that have no protocol limit of their own.
const (
	// MaxManifestBytes bounds askplane/<lang>/manifest.json: 1024 ids with
	// their source paths fit many times over.
	MaxManifestBytes = 4 << 20
	// MaxCorpusBytes bounds askplane/<lang>/corpus.<hash>.json.
	MaxCorpusBytes = 64 << 20
)

// outputsDir is where the module publishes, at the root of the publish
// folder, one directory per language.
const outputsDir = "askplane"

// Report is the result of checking a publish folder.
type Report struct {
	// Languages are the languages found, in directory name order.
	Languages []Language
	// Problems are every error and warning, by language, then in the
	// order the outputs are checked: manifest, site config, artifact (its
	// entries in artifact order), corpus; then the llms.txt check's.
	Problems []Problem
	// LLMs is the llms.txt check's summary (llms.go), nil when the folder
	// holds no llms.txt.
	LLMs *LLMs
}

// Errors returns the number of problems that are not warnings.
func (r *Report) Errors() int {
	n := 0
	for _, p := range r.Problems {
		if !p.Warning {
			n++
		}
	}
	return n
}

// Warnings returns the number of warnings.
func (r *Report) Warnings() int { return len(r.Problems) - r.Errors() }

// OK reports whether the folder holds askplane outputs and none has an
// error. Warnings do not count.
func (r *Report) OK() bool { return len(r.Languages) > 0 && r.Errors() == 0 }

// Language summarizes one language's outputs.
type Language struct {
	Lang     string // the directory name under askplane/
	SiteID   string // the manifest's siteId
	Fallback string // the site config's fallback mode, "" when unknown

	Facts       int    // entries of the verified artifact
	ContentHash string // the verified artifact's content hash
	Pages       int    // corpus pages
	Chunks      int    // corpus chunks
	CorpusHash  string // sha256: of the corpus bytes

	Errors, Warnings int // problems reported for this language

	// Notes are what the manifest says the build left out on purpose
	// (generated phrasings a declared fact owns, say), at most MaxNotes.
	Notes []Note
}

// MaxNotes bounds the notes verify keeps per language.
const MaxNotes = 100

// Note is one entry of a manifest's "notes": not a problem, a choice the
// build made that an author may want to know about.
type Note struct {
	Code, Fact, Message string
}

// String formats a note as askplane verify prints it.
func (n Note) String() string {
	s := "askplane: note: [" + n.Code + "]"
	if n.Fact != "" {
		s += " fact " + strconv.Quote(n.Fact) + ":"
	}
	return s + " " + n.Message
}

// OK reports whether the language has no errors.
func (l Language) OK() bool { return l.Errors == 0 }

// Summary is the one-line report of a language that verified, e.g.
//
//	askplane: en: my-docs: 42 facts, 130 corpus chunks from 28 pages, artifact sha256:…  OK
//	askplane: en: my-docs: 1 fact, no corpus (fallback is disabled), artifact sha256:…  OK
func (l Language) Summary() string {
	status := "OK"
	if !l.OK() {
		status = "FAILED (" + plural(l.Errors, "problem") + ")"
	}
	corpus := plural(l.Chunks, "corpus chunk") + " from " + plural(l.Pages, "page")
	if l.CorpusHash == "" {
		// A site without a backend publishes no corpus; "0 chunks" would
		// read as a build that lost its pages.
		corpus = "no corpus"
		if l.Fallback != "" {
			corpus += " (fallback is " + l.Fallback + ")"
		}
	}
	return fmt.Sprintf("askplane: %s: %s: %s, %s, artifact %s  %s",
		l.Lang, l.SiteID, plural(l.Facts, "fact"), corpus, l.ContentHash, status)
}

// Problem is one rule violation (or, with Warning, one thing verify could
// not check).
type Problem struct {
	// Code is a stable dotted code, the same family the templates use
	// (fact.match.duplicate, artifact.hash.mismatch, ...).
	Code string
	// Source is the file to fix: the fact's source file as the manifest
	// records it (content/docs/x.md, data/askplane/y), or the published
	// file's path inside the publish folder (askplane/en/site.json).
	Source string
	// Fact is the id of the fact concerned, or "".
	Fact    string
	Message string
	Warning bool
}

// String formats the problem as one line:
//
//	askplane: [<code>] <source file>: fact "<id>": <message>
//
// Warnings read "askplane: warning: [<code>] ...". Source and fact are left
// out when empty.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString("askplane: ")
	if p.Warning {
		b.WriteString("warning: ")
	}
	b.WriteString("[" + p.Code + "] ")
	if p.Source != "" {
		b.WriteString(p.Source + ": ")
	}
	if p.Fact != "" {
		b.WriteString("fact " + strconv.Quote(p.Fact) + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Site checks every language's askplane outputs in fsys, the root of a
// built site's publish folder (pass os.DirFS or, better, (*os.Root).FS,
// which also refuses symbolic links that leave the folder). Rule violations
// are reported as Problems; the error is for a folder that cannot be read
// at all.
func Site(fsys fs.FS) (*Report, error) {
	if fsys == nil {
		return nil, errors.New("verify: nil file system")
	}
	r := &Report{}
	base := "" // the site's base path, from the first manifest that gives one
	dirs, err := fs.ReadDir(fsys, outputsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, d := range dirs {
		dir := path.Join(outputsDir, d.Name())
		if !d.IsDir() {
			if d.Type()&fs.ModeSymlink == 0 {
				continue
			}
			// A link to a directory inside the folder is checked like one.
			var esc *escapeError
			if err := checkLinks(fsys, dir); errors.As(err, &esc) {
				r.Problems = append(r.Problems, Problem{Code: "file.escape", Source: dir,
					Message: fmt.Sprintf("the language folder is a symbolic link to %q, outside the publish folder; publish the files themselves, not a link", esc.target)})
				continue
			}
			if fi, err := fs.Stat(fsys, dir); err != nil || !fi.IsDir() {
				continue
			}
		}
		manifest := path.Join(dir, "manifest.json")
		if _, err := fs.Stat(fsys, manifest); errors.Is(err, fs.ErrNotExist) {
			if hasOutputs(fsys, dir) {
				r.Problems = append(r.Problems, Problem{Code: "manifest.missing", Source: dir,
					Message: "askplane outputs without a manifest.json: the folder is from an incomplete or older build; rebuild the site"})
			}
			continue // otherwise not ours: some other askplane/ folder of the site
		}
		c := &checker{fsys: fsys, lang: Language{Lang: d.Name()}, dir: dir}
		c.run(manifest)
		r.Languages = append(r.Languages, c.lang)
		r.Problems = append(r.Problems, c.problems...)
		if base == "" && c.base != "" {
			base = c.base
		}
	}
	if base == "" {
		base = "/"
	}
	var llms []Problem
	r.LLMs, llms = checkLLMs(fsys, base)
	r.Problems = append(r.Problems, llms...)
	if len(r.Languages) == 0 && len(r.Problems) == 0 {
		r.Problems = append(r.Problems, Problem{Code: "outputs.missing", Source: outputsDir,
			Message: "no askplane outputs (no <lang>/manifest.json here): does the base template call the askplane/widget.html partial?"})
	}
	return r, nil
}

// hasOutputs reports whether dir holds files the module publishes.
func hasOutputs(fsys fs.FS, dir string) bool {
	entries, _ := fs.ReadDir(fsys, dir)
	for _, e := range entries {
		for _, pattern := range []string{"site.json", "knowledge.*.json", "corpus.*.json"} {
			if ok, _ := path.Match(pattern, e.Name()); ok {
				return true
			}
		}
	}
	return false
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
