package retrievalbench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Kinds are the question kinds a file may use.
var Kinds = []string{
	"howto",      // how do I …
	"what",       // what is …
	"why",        // why …, does it …, can I …
	"error",      // an error code or message as a reader pastes it
	"config",     // a configuration key or setting
	"command",    // a command line as a reader pastes it
	"navigation", // where is …, which version …, what is it called
	"long",       // a long question in a reader's own words
	"procedure",  // the steps of a task, in order
	"choice",     // how can I …, when the docs offer several ways
	"reference",  // what a function, shortcode or parameter takes and does
	"compare",    // … or …, … versus …, the difference between …
}

// File is one labelled question set for one site and language.
type File struct {
	Site     string `json:"site"`
	Language string `json:"language"`
	// Source is the site's folder from the repository root, when it is
	// not the site name.
	Source    string     `json:"source,omitempty"`
	About     string     `json:"about,omitempty"`
	Questions []Question `json:"questions"`
}

// Question is one question and the pages that answer it, best first,
// and what a useful answer must say (see Nugget).
type Question struct {
	Q       string   `json:"q"`
	Pages   []string `json:"pages"`
	Kind    string   `json:"kind"`
	Nuggets []Nugget `json:"nuggets,omitempty"`
}

// Load reads and checks a question file. Unknown fields are errors.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: trailing data after the object", path)
	}
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &f, nil
}

// Validate checks the file's shape: a site and language, at least one
// question, each with text, a known kind and one or more distinct page
// paths of the form "/…/" (or "/"), valid nuggets when it has any (see
// validateNuggets), and no question asked twice.
func (f *File) Validate() error {
	var errs []error
	if f.Site == "" || f.Language == "" {
		errs = append(errs, errors.New("site and language are required"))
	}
	if len(f.Questions) == 0 {
		errs = append(errs, errors.New("no questions"))
	}
	seen := map[string]bool{}
	for i, q := range f.Questions {
		at := fmt.Sprintf("questions[%d] %q", i, q.Q)
		if strings.TrimSpace(q.Q) != q.Q || q.Q == "" {
			errs = append(errs, fmt.Errorf("%s: q must be non-empty and trimmed", at))
		}
		key := strings.ToLower(q.Q)
		if seen[key] {
			errs = append(errs, fmt.Errorf("%s: asked twice", at))
		}
		seen[key] = true
		if !slices.Contains(Kinds, q.Kind) {
			errs = append(errs, fmt.Errorf("%s: kind %q is not one of %v", at, q.Kind, Kinds))
		}
		if len(q.Pages) == 0 {
			errs = append(errs, fmt.Errorf("%s: no pages", at))
		}
		for j, p := range q.Pages {
			if !validPath(p) {
				errs = append(errs, fmt.Errorf("%s: pages[%d] %q must be a URL path from / to a trailing /", at, j, p))
			}
			if slices.Index(q.Pages, p) != j {
				errs = append(errs, fmt.Errorf("%s: page %q twice", at, p))
			}
		}
		for _, err := range validateNuggets(q) {
			errs = append(errs, fmt.Errorf("questions[%d] %w", i, err))
		}
	}
	return errors.Join(errs...)
}

func validPath(p string) bool {
	return strings.HasPrefix(p, "/") && strings.HasSuffix(p, "/") && !strings.ContainsAny(p, "#?\\ ") && !strings.Contains(p, "//")
}

// WithoutNuggets returns the questions that have no nuggets, in order.
func (f *File) WithoutNuggets() []string {
	var out []string
	for _, q := range f.Questions {
		if len(q.Nuggets) == 0 {
			out = append(out, q.Q)
		}
	}
	return out
}

// MissingPages returns the labelled pages that the built site in public
// did not publish (no <page>index.html), sorted and distinct.
func (f *File) MissingPages(public string) []string {
	var missing []string
	for _, q := range f.Questions {
		for _, p := range q.Pages {
			if _, err := os.Stat(filepath.Join(public, filepath.FromSlash(p), "index.html")); err != nil && !slices.Contains(missing, p) {
				missing = append(missing, p)
			}
		}
	}
	slices.Sort(missing)
	return missing
}

// CountKinds returns how many questions each kind has, in Kinds order,
// kinds with none left out.
func (f *File) CountKinds() []KindCount {
	var out []KindCount
	for _, k := range Kinds {
		n := 0
		for _, q := range f.Questions {
			if q.Kind == k {
				n++
			}
		}
		if n > 0 {
			out = append(out, KindCount{k, n})
		}
	}
	return out
}

// KindCount is one kind and its number of questions.
type KindCount struct {
	Kind string
	N    int
}
