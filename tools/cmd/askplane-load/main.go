// Command askplane-load is a load generator for the askplane Ask sidecar:
// it asks a running `askplane serve` questions drawn from the headings of
// the same built site's corpus (plus a few designed to find no source),
// from N keep-alive workers, each one browser with its own cookie and
// conversations, in a closed loop (--rate 0, maximum throughput) or at a
// constant arrival rate, and prints a table and a JSON report: answered
// requests/s, p50/p90/p99 time to the first NDJSON event and to the end,
// designed 429/422 counts and errors by kind.
//
//	askplane-load --public public --url http://127.0.0.1:8080/v1/ask \
//	    --workers 32 --duration 10s [--rate 500] [--json report.json]
//
// scripts/bench-ask.sh runs it against the example site and a generated
// 10,000-page site.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/tools/loadgen"
)

// Exit codes, as askplane's.
const (
	exitOK     = 0
	exitFailed = 1 // the run could not be made
	exitUsage  = 2 // the command line or the site folder could not be used
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process, for tests.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askplane-load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: askplane-load --public DIR [flags]\n\nDrives POST /v1/ask of a running askplane serve and reports throughput and latency.\n\n")
		fs.PrintDefaults()
	}
	var (
		url       = fs.String("url", "http://127.0.0.1:8080/v1/ask", "the Ask endpoint `URL` (add ?corpus=ID when the server has several sites)")
		urls      = fs.String("urls", "", "comma-separated Ask endpoint `URLs` of several instances, workers spread over them (overrides --url)")
		public    = fs.String("public", "", "the built site `folder` the server answers from; questions come from its corpus")
		lang      = fs.String("lang", "en", "the corpus `language`")
		questions = fs.Int("questions", 200, "how many heading questions to draw from the corpus (at most 10000)")
		every     = fs.Int("unanswerable-every", 10, "insert one question designed to get 422 after every `K` heading questions (0: none)")
		workers   = fs.Int("workers", 16, "concurrent workers, each a browser with its own connection and cookie")
		rate      = fs.Float64("rate", 0, "target arrivals per second, constant spacing; 0 asks as fast as answers come (closed loop)")
		duration  = fs.Duration("duration", 10*time.Second, "measured window")
		warmup    = fs.Duration("warmup", 2*time.Second, "unmeasured run before the window")
		turns     = fs.Int("turns", 4, "questions per conversation (sessionId); 0 sends no sessionId")
		timeout   = fs.Duration("timeout", loadgen.DefaultTimeout, "bound on one request")
		origin    = fs.String("origin", "", "Origin header to send (must be one of the site's origins)")
		jsonPath  = fs.String("json", "", "also write the JSON report to `file`")
		printJSON = fs.Bool("print-json", true, "print the JSON report after the table")
		records   = fs.Bool("records", false, "print how many records the corpus holds, as the server's engine reads it, and exit")
	)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 0 || *public == "" {
		fmt.Fprintln(stderr, "askplane-load: want --public DIR [flags]")
		return exitUsage
	}
	c, err := corpus.LoadDir(os.DirFS(*public), *lang)
	if err != nil {
		fmt.Fprintln(stderr, "askplane-load: loading the questions' corpus:", err)
		return exitUsage
	}
	if *records {
		fmt.Fprintln(stdout, len(c.Records))
		return exitOK
	}
	qs := loadgen.Mix(loadgen.FromCorpus(c, *questions), *every)
	opts := loadgen.Options{
		URL: *url, Origin: *origin, Workers: *workers, Rate: *rate,
		Duration: *duration, Warmup: *warmup, Questions: qs,
		TurnsPerSession: *turns, Timeout: *timeout,
	}
	if *urls != "" {
		opts.URLs = strings.Split(*urls, ",")
	}
	if err := opts.Validate(); err != nil {
		fmt.Fprintln(stderr, "askplane-load:", err)
		return exitUsage
	}
	r, err := loadgen.Run(ctx, opts)
	if err != nil {
		fmt.Fprintln(stderr, "askplane-load:", err)
		return exitFailed
	}
	if err := r.WriteTable(stdout); err != nil {
		return exitFailed
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		fmt.Fprintln(stderr, "askplane-load:", err)
		return exitFailed
	}
	data = append(data, '\n')
	if *printJSON {
		stdout.Write(data)
	}
	if *jsonPath != "" {
		if err := os.WriteFile(*jsonPath, data, 0o644); err != nil {
			fmt.Fprintln(stderr, "askplane-load:", err)
			return exitFailed
		}
	}
	return exitOK
}
