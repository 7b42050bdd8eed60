package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/askplane/askplane/internal/sidecar"
)

// runDev builds exampleSite with the pinned Hugo, checks what the module
// emitted, and serves the site and the Ask API on one local port with the
// embedded defaults (see devConfig), through the same server as askplane
// serve.
func runDev(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askplane dev", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `host:port`")
	site := fs.String("site", "exampleSite", "the Hugo site `folder` to build")
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
	public, err := os.MkdirTemp("", "askplane-dev-")
	if err != nil {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	defer os.RemoveAll(public)

	fmt.Fprintf(stdout, "askplane dev: building %s with the pinned Hugo (the first run compiles Hugo, which takes a few minutes)…\n", *site)
	if err := buildSite(root, *site, public, stderr); err != nil {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	if code := runVerify([]string{public}, stdout, stderr); code != exitOK {
		return code
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	hosts := []string{ln.Addr().String(), "localhost:" + port, "127.0.0.1:" + port}
	origins := []string{"http://" + ln.Addr().String(), "http://localhost:" + port, "http://127.0.0.1:" + port}
	// Conversations persist in SQLite, the embedded default, in a local
	// folder that git ignores.
	sessions := filepath.Join(root, ".askplane", "sessions.db")
	cfg, env, err := sidecar.Dev(public, hosts, origins, "sqlite:"+sessions)
	if err != nil {
		ln.Close()
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	fmt.Fprintf(stdout, "askplane dev: open http://%s/  (Ctrl-C to stop)\n", ln.Addr())
	return serve("askplane dev", cfg, sidecar.Options{Env: env, Logger: slog.Default()}, ln, stdout, stderr)
}

// buildSite runs `go tool hugo` from the askplane module root, so the Hugo
// version is the one pinned in go.mod.
func buildSite(root, site, public string, stderr io.Writer) error {
	if !filepath.IsAbs(site) {
		site = filepath.Join(root, site)
	}
	cmd := exec.Command("go", "tool", "hugo", "--source", site, "--destination", public, "--logLevel", "warn")
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
