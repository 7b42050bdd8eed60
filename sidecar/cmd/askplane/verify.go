package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

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

// verifyDir checks the publish folder dir and prints what it found
// (verify.Dir).
func verifyDir(dir string, stdout, stderr io.Writer) int {
	ok, err := verify.Dir(dir, stdout, stderr)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "askplane verify: %v\n", err)
		return exitUsage
	case !ok:
		return exitFailed
	}
	return exitOK
}
