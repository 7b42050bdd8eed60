package verify

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Dir checks the publish folder dir, as askplane verify does, and prints
// what it found: problems to stderr (their codes in ignore left out:
// askplane dev runs the sidecar itself, so it does not warn that one must
// be deployed), each good language's summary and notes to stdout. ok
// reports a site without errors; err a folder that could not be read.
func Dir(dir string, stdout, stderr io.Writer, ignore ...string) (ok bool, err error) {
	// An os.Root keeps every read inside dir, symbolic links included.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return false, err
	}
	defer root.Close()
	rep, err := Site(root.FS())
	if err != nil {
		return false, err
	}
	for _, p := range rep.Problems {
		if slices.Contains(ignore, p.Code) {
			continue
		}
		// Published files are named by their path from the current
		// directory; authors' source files stay as the manifest gives them.
		if p.Source == "askplane" || strings.HasPrefix(p.Source, "askplane/") {
			p.Source = filepath.Join(dir, filepath.FromSlash(p.Source))
		}
		fmt.Fprintln(stderr, p.String())
	}
	for _, l := range rep.Languages {
		if l.OK() {
			fmt.Fprintln(stdout, l.Summary())
		}
		for _, n := range l.Notes {
			fmt.Fprintln(stdout, n.String())
		}
	}
	if rep.LLMs != nil && rep.LLMs.Errors == 0 {
		fmt.Fprintln(stdout, rep.LLMs.Summary())
	}
	if rep.OK() {
		return true, nil
	}
	summary := fmt.Sprintf("askplane: %s", count(rep.Errors(), "problem"))
	if w := rep.Warnings(); w > 0 {
		summary += ", " + count(w, "warning")
	}
	if n := len(rep.Languages); n > 0 {
		failed := 0
		for _, l := range rep.Languages {
			if !l.OK() {
				failed++
			}
		}
		summary += fmt.Sprintf(" in %d of %s", failed, count(n, "language"))
	}
	fmt.Fprintln(stderr, summary)
	return false, nil
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
