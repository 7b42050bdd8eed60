// Command generate renders askplane's templ components (internal/web) into
// the Hugo module's partials under layouts/_partials/askplane/generated/,
// and bundles the widget's JavaScript (assets/askplane/js) with esbuild
// into assets/askplane/dist/, so Hugo builds only fingerprint it.
// Run it through go generate ./internal/web, or from anywhere in the
// module: go run ./internal/modulegen. It removes generated partials and
// bundles it no longer writes.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/askplane/askplane/internal/modulegen/bundle"
	"github.com/askplane/askplane/internal/modulegen/partials"
)

func main() {
	root := flag.String("root", "", "the module root (default: the nearest folder above the working directory with a go.mod)")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "generate:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	if root == "" {
		var err error
		if root, err = moduleRoot(); err != nil {
			return err
		}
	}
	parts, err := partials.Files()
	if err != nil {
		return err
	}
	bundles, err := bundle.Files(root)
	if err != nil {
		return err
	}
	files := map[string]map[string][]byte{partials.Dir: {}, bundle.Dir: {}}
	for _, f := range parts {
		files[partials.Dir][f.Name] = f.Data
	}
	for _, f := range bundles {
		files[bundle.Dir][f.Name] = f.Data
	}
	for dir, named := range files {
		if err := write(filepath.Join(root, filepath.FromSlash(dir)), named); err != nil {
			return err
		}
	}
	return nil
}

// write writes the named files into dir and removes any other file there.
func write(dir string, named map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, data := range named {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if _, ok := named[e.Name()]; !ok && !e.IsDir() {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// moduleRoot returns the nearest folder at or above the working directory
// that holds a go.mod.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
