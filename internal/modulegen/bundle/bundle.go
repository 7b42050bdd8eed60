// Package bundle builds the widget's JavaScript bundles with esbuild, as
// Hugo's js.Build with (dict "format" "esm" "minify" true) did: one ES
// module per entry point, everything it imports bundled in, minified, for
// the browser, target esnext. internal/modulegen writes them to Dir; a
// test in hugo-module compares them byte for byte with the committed
// files, so Hugo builds only fingerprint them and never run esbuild.
package bundle

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Dir is the folder of the generated bundles, relative to the module root.
const Dir = "hugo-module/assets/askplane/dist"

// SourceDir is the folder of the widget's JavaScript sources, relative to
// the module root.
const SourceDir = "hugo-module/assets/askplane/js"

// Header opens every bundle (esbuild's banner, kept through minifying).
// Every reader downloads it, so it stays short.
const Header = "/* generated, do not edit: go generate ./internal/web */"

// Entries are the bundled entry points, by slash path in SourceDir; each
// bundle has the entry's file name in Dir. main.js is the page's module
// script, core.js the protocol core and the widget (runtime/ and ui/),
// imported on the reader's first intent, runtime/sha256.js the SHA-256
// the widget imports only where Web Crypto is missing.
var Entries = []string{"main.js", "core.js", "runtime/sha256.js"}

// File is one bundle.
type File struct {
	Name string // file name in Dir
	Data []byte
}

// Files bundles every entry point from the sources under root, the module
// root. It writes nothing.
func Files(root string) ([]File, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	var files []File
	for _, name := range Entries {
		data, err := build(abs, name)
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", SourceDir, name, err)
		}
		files = append(files, File{Name: path.Base(name), Data: data})
	}
	return files, nil
}

func build(root, name string) ([]byte, error) {
	res := api.Build(api.BuildOptions{
		EntryPoints:   []string{filepath.ToSlash(filepath.Join(SourceDir, name))},
		AbsWorkingDir: root,
		Outdir:        filepath.Join(root, filepath.FromSlash(Dir)),
		Write:         false,
		Bundle:        true,
		Format:        api.FormatESModule,
		Platform:      api.PlatformBrowser,
		Target:        api.ESNext,
		Banner:        map[string]string{"js": Header},

		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,

		LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, errors.New(strings.TrimSpace(strings.Join(msgs, "\n")))
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("esbuild wrote %d files; want 1", len(res.OutputFiles))
	}
	return res.OutputFiles[0].Contents, nil
}
