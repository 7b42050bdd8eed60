// Command askplane-retrievalbench measures retrieval quality on one built
// site against a labelled question file, side by side: each evidence
// engine's records, the pages each answer generator cites over each
// engine's evidence (and the sidecar's answer, over HTTP), and Pagefind
// over the same pages. It prints hit@1, hit@3, hit@5 and MRR per system,
// for the answers the share holding every nugget of their question and
// their median length, MRR and nugget share per question kind, checks of
// the answers, and writes the questions some system missed and the
// answers missing a nugget to a file.
//
//	askplane-retrievalbench --public public --questions testdata/retrieval/examplesite-en.json \
//	    [--engines askplane.bm25/1,…] [--generators extractive/1,…] [--pagefind=false] [--misses misses.txt]
//
// scripts/bench-retrieval.sh builds the sites and runs it; the work is in
// tools/retrievalbench.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/askplane/askplane/tools/retrievalbench"
)

const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askplane-retrievalbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	public := fs.String("public", "", "the built site `folder` (hugo --destination)")
	questions := fs.String("questions", "", "the labelled question `file`")
	engines := fs.String("engines", "all", "comma-separated engine `ids` to compare, or all")
	generators := fs.String("generators", "all", "comma-separated answer generator `names` to compare, or all")
	pagefind := fs.Bool("pagefind", true, "also index and search the site with Pagefind (needs node and npm ci)")
	records := fs.Int("records", retrievalbench.DefaultMaxRecords, "evidence records per question (the site's maxSources)")
	misses := fs.String("misses", "", "write the per-question misses to this `file`")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *public == "" || *questions == "" || fs.NArg() != 0 {
		fmt.Fprintln(stderr, "askplane-retrievalbench: --public and --questions are required, and nothing else")
		return exitUsage
	}
	f, err := retrievalbench.Load(*questions)
	if err != nil {
		fmt.Fprintln(stderr, "askplane-retrievalbench:", err)
		return exitUsage
	}
	if missing := f.MissingPages(*public); len(missing) > 0 {
		fmt.Fprintf(stderr, "askplane-retrievalbench: labelled pages not in %s: %v\n", *public, missing)
		return exitUsage
	}
	list, err := retrievalbench.LookupEngines(*engines)
	if err != nil {
		fmt.Fprintln(stderr, "askplane-retrievalbench:", err)
		return exitUsage
	}
	gens, err := retrievalbench.LookupGenerators(*generators)
	if err != nil {
		fmt.Fprintln(stderr, "askplane-retrievalbench:", err)
		return exitUsage
	}
	ctx := context.Background()
	opts := retrievalbench.Options{Public: *public, File: f, Engines: list, Generators: gens, MaxRecords: *records}
	if *pagefind {
		if opts.Pagefind, err = retrievalbench.RunPagefind(ctx, *public, *questions, f.Language); err != nil {
			fmt.Fprintln(stderr, "askplane-retrievalbench:", err)
			return exitFailed
		}
	}
	rep, err := retrievalbench.Run(ctx, opts)
	if err != nil {
		fmt.Fprintln(stderr, "askplane-retrievalbench:", err)
		return exitFailed
	}
	rep.WriteTable(stdout)
	if *misses != "" {
		out, err := os.Create(*misses)
		if err == nil {
			rep.WriteMisses(out, f.Questions)
			err = out.Close()
		}
		if err != nil {
			fmt.Fprintln(stderr, "askplane-retrievalbench:", err)
			return exitFailed
		}
		fmt.Fprintf(stdout, "\nper-question misses: %s\n", *misses)
	}
	return exitOK
}
