package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/askplane/askplane/internal/devloop"
)

// runDev is askplane dev (internal/devloop): it builds a site
// (exampleSite by default) with the pinned Hugo, serves it and the Ask API
// on one local port, and rebuilds and reloads on change, until SIGINT or
// SIGTERM.
func runDev(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runDevContext(ctx, args, stdout, stderr)
}

// runDevContext is runDev until ctx is done: the flags, then the loop.
func runDevContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askplane dev", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port`")
	site := fs.String("site", "exampleSite", "the Hugo site `folder` to build")
	sessions := fs.String("sessions", "", "the SQLite `file` conversations persist in (default .askplane/sessions.db in the checkout)")
	watch := fs.Bool("watch", true, "rebuild and reload the page when the site or the module changes")
	csp := fs.String("csp", "", "the Content-Security-Policy `policy` the pages are sent with (default: the widget's own, which keeps out what a theme loads from other hosts or runs inline)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "askplane dev: takes flags only")
		return exitUsage
	}
	err := devloop.Run(ctx, devloop.Options{Addr: *addr, Site: *site, Sessions: *sessions, Watch: *watch, CSP: *csp, Stdout: stdout, Stderr: stderr})
	if err != nil {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	return exitOK
}
