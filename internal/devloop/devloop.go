// Package devloop is askplane dev as a library: it builds a site with the
// pinned Hugo, checks what the module emitted (internal/verify), serves
// the build and the Ask API on one local port through the same sidecar as
// askplane serve (sidecar.Dev's config), then watches the site and the
// Hugo module, rebuilding, re-verifying and reloading open pages
// (internal/devserver) on each change. A failed build keeps the last good
// one serving.
//
// The command (sidecar/cmd/askplane) keeps the flags and the signals;
// tools and tests may import this package, the server never does.
package devloop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/askplane/askplane/internal/devserver"
	"github.com/askplane/askplane/internal/sidecar"
	"github.com/askplane/askplane/internal/verify"
)

// Polling intervals of the dev loop: how often the site's sources are
// fingerprinted, and how long they must stay unchanged before a rebuild
// (an editor saving several files, or git checking out a branch).
const (
	devPoll   = 500 * time.Millisecond
	devSettle = 300 * time.Millisecond
)

// Options are what askplane dev's flags say.
type Options struct {
	// Addr is where to listen (host:port).
	Addr string
	// Site is the Hugo site folder, relative to the checkout unless
	// absolute.
	Site string
	// Sessions is the SQLite file conversations persist in; empty means
	// .askplane/sessions.db in the checkout (a folder git ignores).
	Sessions string
	// Watch rebuilds and reloads the pages when the site or the module
	// changes.
	Watch bool
	// CSP is the Content-Security-Policy the pages are sent with, as a
	// static site's csp setting; empty sends the widget's own.
	CSP string
	// Stdout and Stderr get what an author reads.
	Stdout, Stderr io.Writer
}

// Run is askplane dev until ctx is done: it returns nil once it stopped
// cleanly, or the error that kept it from serving.
func Run(ctx context.Context, o Options) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	siteDir := o.Site
	if !filepath.IsAbs(siteDir) {
		siteDir = filepath.Join(root, siteDir)
	}
	hugo, err := prepareHugo(root, o.Stdout)
	if err != nil {
		return err
	}
	sessions := o.Sessions
	if sessions == "" {
		// The embedded default, in a local folder that git ignores.
		sessions = filepath.Join(root, ".askplane", "sessions.db")
	}
	d := &loop{root: root, site: siteDir, hugo: hugo, sessions: sessions, csp: o.CSP, stdout: o.Stdout, stderr: o.Stderr}

	fmt.Fprintf(o.Stdout, "askplane dev: building %s with Hugo and checking what the module emitted…\n", o.Site)
	var public string
	err = whileSaying(o.Stdout, "still building", "building the site", func() error {
		var err error
		public, err = d.build()
		return err
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		os.RemoveAll(public)
		return err
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	d.hosts = []string{ln.Addr().String(), "localhost:" + port, "127.0.0.1:" + port}
	d.origins = []string{"http://" + ln.Addr().String(), "http://localhost:" + port, "http://127.0.0.1:" + port}
	srv, err := d.start(ctx, public)
	if err != nil {
		ln.Close()
		os.RemoveAll(public)
		return err
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
	if o.Watch {
		go d.watch(ctx, func(next *sidecar.Server) { swap.Set(next); reload.Rebuilt() })
		fmt.Fprintf(o.Stdout, "askplane dev: open http://%s/  (watching %s; Ctrl-C to stop)\n", ln.Addr(), o.Site)
	} else {
		fmt.Fprintf(o.Stdout, "askplane dev: open http://%s/  (Ctrl-C to stop)\n", ln.Addr())
	}
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// loop is one askplane dev session: the site it builds and the sidecar
// serving the last good build.
type loop struct {
	root, site, hugo string
	sessions         string // the SQLite file
	csp              string // the pages' Content-Security-Policy, "" for the default
	stdout, stderr   io.Writer
	hosts, origins   []string

	env     sidecar.Env // the first build's, so cookies outlive rebuilds
	current *sidecar.Server
	public  string
}

// build builds the site into a fresh folder and verifies it; on failure
// the folder is removed.
func (d *loop) build() (string, error) {
	public, err := os.MkdirTemp("", "askplane-dev-")
	if err != nil {
		return "", err
	}
	if err := buildSite(d.root, d.hugo, d.site, public, d.stderr); err != nil {
		os.RemoveAll(public)
		return "", err
	}
	ok, err := verify.Dir(public, d.stdout, d.stderr, "site.fallback.unchecked")
	if err != nil {
		fmt.Fprintf(d.stderr, "askplane verify: %v\n", err)
	}
	if !ok {
		os.RemoveAll(public)
		return "", errors.New("the build does not verify (see above)")
	}
	return public, nil
}

// start provisions a sidecar for the build in public and makes it current.
func (d *loop) start(ctx context.Context, public string) (*sidecar.Server, error) {
	cfg, env, err := sidecar.Dev(public, d.hosts, d.origins, "sqlite:"+d.sessions)
	if err != nil {
		return nil, err
	}
	cfg.Sites[0].CSP = d.csp // the site served at /
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
func (d *loop) watch(ctx context.Context, serve func(*sidecar.Server)) {
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
