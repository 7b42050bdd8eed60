package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/askplane/askplane/internal/devserver"
	"github.com/askplane/askplane/internal/sidecar"
)

// Polling intervals of the dev loop: how often the site's sources are
// fingerprinted, and how long they must stay unchanged before a rebuild
// (an editor saving several files, or git checking out a branch).
const (
	devPoll   = 500 * time.Millisecond
	devSettle = 300 * time.Millisecond
)

// How long askplane dev works before it says what it is doing, and how
// often it then says it is still at it: no silence longer than 10 s.
const (
	devQuiet     = 2 * time.Second
	devHeartbeat = 8 * time.Second
)

// runDev builds a site (exampleSite by default) with the pinned Hugo,
// checks what the module emitted, and serves the site and the Ask API on
// one local port with the embedded defaults (sidecar.Dev), through the
// same sidecar as askplane serve. It then watches the site and the Hugo
// module: each change rebuilds the site, re-verifies it, serves the new
// build and reloads the open pages. A failed build keeps the last good one
// serving.
func runDev(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runDevContext(ctx, args, stdout, stderr)
}

// runDevContext is runDev until ctx is done.
func runDevContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askplane dev", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port`")
	site := fs.String("site", "exampleSite", "the Hugo site `folder` to build")
	sessions := fs.String("sessions", "", "the SQLite `file` conversations persist in (default .askplane/sessions.db in the checkout)")
	watch := fs.Bool("watch", true, "rebuild and reload the page when the site or the module changes")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(stderr, "askplane dev: takes flags only")
		return exitUsage
	}
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	siteDir := *site
	if !filepath.IsAbs(siteDir) {
		siteDir = filepath.Join(root, siteDir)
	}
	hugo, err := prepareHugo(root, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	if *sessions == "" {
		// The embedded default, in a local folder that git ignores.
		*sessions = filepath.Join(root, ".askplane", "sessions.db")
	}
	d := &devLoop{root: root, site: siteDir, hugo: hugo, sessions: *sessions, stdout: stdout, stderr: stderr}

	fmt.Fprintf(stdout, "askplane dev: building %s with Hugo and checking what the module emitted…\n", *site)
	var public string
	err = whileSaying(stdout, "still building", "building the site", func() error {
		var err error
		public, err = d.build()
		return err
	})
	if err != nil {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		os.RemoveAll(public)
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	d.hosts = []string{ln.Addr().String(), "localhost:" + port, "127.0.0.1:" + port}
	d.origins = []string{"http://" + ln.Addr().String(), "http://localhost:" + port, "http://127.0.0.1:" + port}
	srv, err := d.start(ctx, public)
	if err != nil {
		ln.Close()
		os.RemoveAll(public)
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	defer func() { d.current.Close(); os.RemoveAll(d.public) }()

	reload := devserver.NewReloader()
	var swap devserver.Swap
	swap.Set(srv)
	hs := srv.HTTPServer()
	hs.Handler = reload.Wrap(&swap)
	hs.RegisterOnShutdown(reload.Close) // open tabs' streams would hold Shutdown
	go func() {
		<-ctx.Done()
		d.current.Drain()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shutdown)
	}()
	if *watch {
		go d.watch(ctx, func(next *sidecar.Server) { swap.Set(next); reload.Rebuilt() })
		fmt.Fprintf(stdout, "askplane dev: open http://%s/  (watching %s; Ctrl-C to stop)\n", ln.Addr(), *site)
	} else {
		fmt.Fprintf(stdout, "askplane dev: open http://%s/  (Ctrl-C to stop)\n", ln.Addr())
	}
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	return exitOK
}

// devLoop is one askplane dev session: the site it builds and the sidecar
// serving the last good build.
type devLoop struct {
	root, site, hugo string
	sessions         string // the SQLite file
	stdout, stderr   io.Writer
	hosts, origins   []string

	env     sidecar.Env // the first build's, so cookies outlive rebuilds
	current *sidecar.Server
	public  string
}

// build builds the site into a fresh folder and verifies it; on failure
// the folder is removed.
func (d *devLoop) build() (string, error) {
	public, err := os.MkdirTemp("", "askplane-dev-")
	if err != nil {
		return "", err
	}
	if err := buildSite(d.root, d.hugo, d.site, public, d.stderr); err != nil {
		os.RemoveAll(public)
		return "", err
	}
	if verifyDir(public, d.stdout, d.stderr, "site.fallback.unchecked") != exitOK {
		os.RemoveAll(public)
		return "", errors.New("the build does not verify (see above)")
	}
	return public, nil
}

// start provisions a sidecar for the build in public and makes it current.
func (d *devLoop) start(ctx context.Context, public string) (*sidecar.Server, error) {
	cfg, env, err := sidecar.Dev(public, d.hosts, d.origins, "sqlite:"+d.sessions)
	if err != nil {
		return nil, err
	}
	if d.env == nil {
		d.env = env
	}
	srv, err := sidecar.New(ctx, cfg, sidecar.Options{Env: d.env, Logger: slog.Default()})
	if err != nil {
		return nil, err
	}
	d.current, d.public = srv, public
	return srv, nil
}

// watch polls the site's and the module's sources and, when they change
// and settle, rebuilds and hands the new sidecar to serve. The previous
// sidecar finishes the answers it streams, then is closed.
func (d *devLoop) watch(ctx context.Context, serve func(*sidecar.Server)) {
	roots := []string{d.site, filepath.Join(d.root, "hugo-module")}
	last, err := devserver.Fingerprint(roots...)
	if err != nil {
		fmt.Fprintln(d.stderr, "askplane dev: not watching:", err)
		return
	}
	tick := time.NewTicker(devPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now, err := devserver.Fingerprint(roots...)
		if err != nil || now == last {
			continue
		}
		// Let a burst of saves settle into one rebuild.
		for {
			time.Sleep(devSettle)
			again, err := devserver.Fingerprint(roots...)
			if err != nil || again == now {
				break
			}
			now = again
		}
		last = now
		started := time.Now()
		fmt.Fprintln(d.stdout, "askplane dev: change seen, rebuilding…")
		public, err := d.build()
		if err != nil {
			fmt.Fprintln(d.stderr, "askplane dev:", err, "— still serving the last good build")
			continue
		}
		old, oldPublic := d.current, d.public
		next, err := d.start(ctx, public)
		if err != nil {
			os.RemoveAll(public)
			fmt.Fprintln(d.stderr, "askplane dev:", err, "— still serving the last good build")
			continue
		}
		serve(next)
		fmt.Fprintf(d.stdout, "askplane dev: rebuilt in %s; pages reloaded\n", time.Since(started).Round(10*time.Millisecond))
		go func() {
			// Answers in flight on the old build end on it.
			time.Sleep(30 * time.Second)
			old.Close()
			os.RemoveAll(oldPublic)
		}()
	}
}

// prepareHugo resolves the pinned Hugo (go tool -n hugo), which compiles
// it on the first run: that takes minutes, so it says so and keeps
// saying it is still working.
func prepareHugo(root string, stdout io.Writer) (string, error) {
	cmd := exec.Command("go", "tool", "-n", "hugo")
	cmd.Dir = root
	var out []byte
	err := whileSaying(stdout, "preparing the pinned Hugo (the first run compiles it, which takes a few minutes)", "preparing Hugo", func() error {
		var err error
		out, err = cmd.Output()
		return err
	})
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return "", fmt.Errorf("go tool -n hugo: %w\n%s", err, exit.Stderr)
		}
		return "", fmt.Errorf("go tool -n hugo: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// whileSaying runs work; if it takes longer than devQuiet it says what it
// is doing, then repeats every devHeartbeat that it is still at it, so an
// author never faces a silent terminal for long.
func whileSaying(stdout io.Writer, doing, still string, work func() error) error {
	done := make(chan error, 1)
	go func() { done <- work() }()
	started := time.Now()
	select {
	case err := <-done:
		return err
	case <-time.After(devQuiet):
	}
	fmt.Fprintf(stdout, "askplane dev: %s…\n", doing)
	beat := time.NewTicker(devHeartbeat)
	defer beat.Stop()
	for {
		select {
		case err := <-done:
			fmt.Fprintf(stdout, "askplane dev: done %s after %s\n", still, time.Since(started).Round(time.Second))
			return err
		case <-beat.C:
			fmt.Fprintf(stdout, "askplane dev: still %s (%s so far)…\n", still, time.Since(started).Round(time.Second))
		}
	}
}

// buildSite runs the pinned Hugo on site, with the askplane module from
// this checkout.
func buildSite(root, hugo, site, public string, stderr io.Writer) error {
	cmd := exec.Command(hugo, "--source", site, "--destination", public, "--logLevel", "warn")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HUGO_MODULE_REPLACEMENTS="+moduleReplacements(os.Getenv("HUGO_MODULE_REPLACEMENTS"), root))
	cmd.Stdout, cmd.Stderr = io.Discard, stderr // the page-count table is noise here
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("hugo failed: %w", err)
	}
	return nil
}

// moduleReplacements points the site's import of the Hugo module at this
// checkout, keeping the replacements the author set (a theme of their own,
// say) in HUGO_MODULE_REPLACEMENTS.
func moduleReplacements(author, root string) string {
	own := "github.com/askplane/askplane/hugo-module -> " + filepath.Join(root, "hugo-module")
	if strings.TrimSpace(author) == "" {
		return own
	}
	return own + "," + author
}

// moduleRoot finds the askplane checkout from the working directory up.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(data), "module github.com/askplane/askplane\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run askplane dev inside the askplane checkout")
		}
		dir = parent
	}
}
