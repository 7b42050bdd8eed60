package retrievalbench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// PagefindResult is what pagefind.mjs printed: the Pagefind version that
// ran, how many pages it indexed, and for each question its result URLs,
// best first.
type PagefindResult struct {
	Version string     `json:"version"`
	Pages   int        `json:"pages"`
	Results [][]string `json:"results"`
}

// Script is pagefind.mjs beside this file; node resolves its pagefind
// import from the repository's node_modules (npm ci).
func Script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "pagefind.mjs")
}

// RunPagefind indexes the built site with Pagefind's Node API (the
// language's pages only: the folders of the site's other corpus
// languages are left out) into a temporary bundle and searches it with
// Pagefind's own runtime for every question of the file at questions.
func RunPagefind(ctx context.Context, public, questions, lang string) (*PagefindResult, error) {
	bundle, err := os.MkdirTemp("", "askplane-pagefind-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(bundle)
	var skip []string
	if entries, err := os.ReadDir(filepath.Join(public, "askplane")); err == nil {
		for _, e := range entries {
			if e.IsDir() && e.Name() != lang {
				skip = append(skip, e.Name())
			}
		}
	}
	// Hugo's redirect for the default language's subfolder (/en/) has no
	// <main>, and pagefind.mjs skips such pages by itself.
	cmd := exec.CommandContext(ctx, "node", Script(), public, questions, bundle, lang)
	cmd.Env = append(os.Environ(), "ASKPLANE_BENCH_SKIP="+strings.Join(skip, ","))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("node pagefind.mjs: %w\n%s", err, stderr.Bytes())
	}
	var res PagefindResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return nil, fmt.Errorf("node pagefind.mjs printed %q: %w", stdout.Bytes(), err)
	}
	return &res, nil
}
