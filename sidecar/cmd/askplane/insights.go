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
	format := fs.String("format", "text", "print the report as `text`, json or csv")
	asJSON := fs.Bool("json", false, "the same as --format json")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s [--config FILE] --site ID [--days N] [--format text|json|csv]\n\n"+
			"Reports the coverage gaps of a site whose config turns insights on: clusters of\n"+
			"questions that ended without a good answer, the questions asked most, the pages\n"+
			"cited most, the share answered in the page by exact facts, the trend by week.\n\n", name)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *asJSON {
		*format = "json"
	}
	if *siteID == "" || fs.NArg() != 0 || *format != "text" && *format != "json" && *format != "csv" {
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
	rep, err := insights.Build(ctx, st, *siteID, n, time.Now(), nil)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		var fe *insights.FieldError
		if errors.As(err, &fe) {
			return exitUsage
		}
		return exitFailed
	}
	switch *format {
	case "json":
		err = rep.WriteJSON(stdout)
	case "csv":
		err = rep.WriteCSV(stdout)
	default:
		err = rep.WriteText(stdout)
	}
	if err != nil {
		return exitFailed
	}
	return exitOK
}
