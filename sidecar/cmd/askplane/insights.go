package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/sidecar"
)

// insightsTimeout bounds a report: opening the store and reading it.
const insightsTimeout = time.Minute

// runInsights prints a site's insights report (internal/insights).
func runInsights(args []string, stdout, stderr io.Writer) int {
	const name = "askplane insights"
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "the sidecar's JSON config `FILE` (default: the environment's, as askplane serve reads it)")
	siteID := fs.String("site", "", "the site's siteId")
	days := fs.Int("days", 0, "the last `N` days (default: the site's retentionDays)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s [--config FILE] --site ID [--days N] [--json]\n\n"+
			"Reports the coverage gaps of a site whose config turns insights on: clusters of\n"+
			"questions that ended without a good answer, the questions asked most, the pages\n"+
			"cited most.\n\n", name)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *siteID == "" || fs.NArg() != 0 {
		fs.Usage()
		return exitUsage
	}
	cfg, err := sidecar.LoadEnv(nil, *config, "")
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), insightsTimeout)
	defer cancel()
	st, icfg, closeStore, err := sidecar.OpenInsights(ctx, cfg, os.LookupEnv, *siteID)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		if errors.Is(err, sidecar.ErrConfig) {
			return exitUsage
		}
		return exitFailed
	}
	defer closeStore()
	n := *days
	if n == 0 {
		n = icfg.RetentionDays
	}
	rep, err := insights.Build(ctx, st, *siteID, n, time.Now())
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		var fe *insights.FieldError
		if errors.As(err, &fe) {
			return exitUsage
		}
		return exitFailed
	}
	if *asJSON {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		return exitFailed
	}
	return exitOK
}
