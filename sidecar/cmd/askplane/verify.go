package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/verify"
)

// runVerify checks everything the Hugo module published in a built site's
// publish folder: askplane verify PUBLIC_DIR.
func runVerify(args []string, stdout, stderr io.Writer) int {
	const name = "askplane verify"
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s PUBLIC_DIR\n\n"+
			"Checks the askplane outputs of a built Hugo site (PUBLIC_DIR/askplane/<lang>/):\n"+
			"manifest, site config, knowledge artifact and corpus, for every language;\n"+
			"and, when the site publishes llms.txt, every llms.txt, the Markdown twins\n"+
			"it links and the link relations of every page.\n", name)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "%s: want one PUBLIC_DIR, the folder Hugo published the site to\n", name)
		return exitUsage
	}
	return verifyDir(fs.Arg(0), stdout, stderr)
}

// verifyDir checks the publish folder dir and prints what it found; the
// problems whose codes are in ignore are not printed (askplane dev runs
// the sidecar itself, so it does not warn that one must be deployed).
func verifyDir(dir string, stdout, stderr io.Writer, ignore ...string) int {
	const name = "askplane verify"
	// An os.Root keeps every read inside dir, symbolic links included.
	root, err := os.OpenRoot(dir)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	defer root.Close()
	rep, err := verify.Site(root.FS())
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
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
		return exitOK
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
	return exitFailed
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
