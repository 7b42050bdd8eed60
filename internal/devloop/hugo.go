package devloop

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// How long askplane dev works before it says what it is doing, and how
// often it then says it is still at it: no silence longer than 10 s.
const (
	devQuiet     = 2 * time.Second
	devHeartbeat = 8 * time.Second
)

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
