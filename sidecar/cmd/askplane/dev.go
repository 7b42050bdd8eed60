package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

// runDev builds exampleSite with the pinned Hugo, checks what the module
// emitted, and serves the site on one local port. The Ask endpoint is a
// placeholder until the sidecar lands: it answers 503 ASK_INTERNAL, so the
// widget escalates to an honest "not available".
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
	public, err := os.MkdirTemp("", "askplane-dev-")
	if err != nil {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	defer os.RemoveAll(public)

	fmt.Fprintf(stdout, "askplane dev: building %s with the pinned Hugo…\n", *site)
	if err := buildSite(*site, public, stderr); err != nil {
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
	srv := &http.Server{Handler: devHandler(public), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	fmt.Fprintf(stdout, "askplane dev: open http://%s/  (Ctrl-C to stop)\n", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "askplane dev:", err)
		return exitFailed
	}
	return exitOK
}

// buildSite runs `go tool hugo` from the askplane module root, so the Hugo
// version is the one pinned in go.mod.
func buildSite(site, public string, stderr io.Writer) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if !filepath.IsAbs(site) {
		site = filepath.Join(root, site)
	}
	cmd := exec.Command("go", "tool", "hugo", "--source", site, "--destination", public, "--logLevel", "warn")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HUGO_MODULE_REPLACEMENTS=github.com/askplane/askplane -> "+root)
	cmd.Stdout, cmd.Stderr = io.Discard, stderr // the page-count table is noise here
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("hugo failed: %w", err)
	}
	return nil
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

// devHandler serves the built site and a placeholder Ask endpoint.
func devHandler(public string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServer(http.Dir(public)))
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	mux.HandleFunc("POST /v1/ask", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"error":{"code":"ASK_INTERNAL","message":"The Ask backend is not configured yet.","retryable":false}}`+"\n")
	})
	return mux
}
