package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/askplane/askplane/internal/sidecar"
)

// runServe is askplane serve: the sidecar for built sites described by a
// config file (see sidecar.Config).
func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askplane serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: askplane serve [--config FILE] [--addr HOST:PORT]

Serves POST /v1/ask (the Ask backend), /mcp, /review/, GET /health,
GET /ready and, when the config says so, GET /metrics and a site's built
folder at /. The config format is described in
sidecar/config/askplane.example.json and the README. Without --config,
the config comes from the environment: ASKPLANE_CONFIG names the file,
or ASKPLANE_CONFIG_JSON holds it (as a container is configured); setting
both is refused. --config wins over the environment.

`)
		fs.PrintDefaults()
	}
	configPath := fs.String("config", "", "the JSON config `file`")
	addr := fs.String("addr", "", "listen on `host:port` (overrides the config's addr)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "askplane serve: want [--config FILE] [--addr HOST:PORT]")
		return exitUsage
	}
	cfg, err := sidecar.LoadEnv(nil, *configPath, "")
	if err != nil {
		fmt.Fprintln(stderr, "askplane serve:", err)
		return exitUsage
	}
	if *addr != "" {
		cfg.Addr = *addr
	}
	return serve("askplane serve", cfg, sidecar.Options{Logger: slog.New(slog.NewTextHandler(stderr, nil))}, nil, stdout, stderr)
}

// serve provisions the sidecar for cfg, listens (on ln, or on cfg.Addr
// when ln is nil) and serves until SIGINT or SIGTERM.
func serve(name string, cfg *sidecar.Config, opts sidecar.Options, ln net.Listener, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := sidecar.New(ctx, cfg, opts)
	if err != nil {
		fmt.Fprintln(stderr, name+":", err)
		if errors.Is(err, sidecar.ErrConfig) {
			return exitUsage
		}
		return exitFailed
	}
	defer srv.Close()
	if ln == nil {
		addr := cfg.Addr
		if addr == "" {
			addr = sidecar.DefaultAddr
		}
		if ln, err = net.Listen("tcp", addr); err != nil {
			fmt.Fprintln(stderr, name+":", err)
			return exitFailed
		}
	}
	fmt.Fprintf(stdout, "%s: listening on http://%s/ (%d site(s))\n", name, ln.Addr(), len(cfg.Sites))
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintln(stderr, name+":", err)
		return exitFailed
	}
	return exitOK
}
