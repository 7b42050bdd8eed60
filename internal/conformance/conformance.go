// Package conformance loads the shared conformance vectors under
// testdata/conformance. The same JSON files drive the Go tests and the
// widget's JavaScript tests, so both implementations are held to one set of
// expected bytes.
package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir returns the absolute path of testdata/conformance.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "conformance")
}

// Load decodes the named vector file into v, failing the test on error.
func Load(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(), name))
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("conformance: %s: %v", name, err)
	}
}

// Generate describes a large input by repetition, so vector files stay
// small: Prefix + Repeat×Count + Suffix.
type Generate struct {
	Prefix string `json:"prefix"`
	Repeat string `json:"repeat"`
	Count  int    `json:"count"`
	Suffix string `json:"suffix"`
}

// Bytes expands g.
func (g Generate) Bytes() []byte {
	return []byte(g.Prefix + strings.Repeat(g.Repeat, g.Count) + g.Suffix)
}
