package hugomodule_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/askplane/askplane/hugo-module/sitetest"
)

// widgetBudget is what the widget's JavaScript and CSS may weigh together,
// gzipped at the best compression, as the built exampleSite ships them:
// the size measured when it was set, rounded up to the next 0.5 KiB, so
// the bundle cannot grow unnoticed. Lower it when the widget shrinks.
const widgetBudget = 14 * 1024

// TestWidgetSize builds exampleSite and weighs the fingerprinted widget
// script and stylesheet it publishes.
func TestWidgetSize(t *testing.T) {
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "exampleSite"))
	if err != nil {
		t.Fatalf("exampleSite: %v\n%s", err, b.Output)
	}
	total := 0
	for _, pattern := range []string{"askplane/js/main.*.js", "askplane/widget.min.*.css"} {
		files, _ := filepath.Glob(filepath.Join(b.Public, filepath.FromSlash(pattern)))
		if len(files) != 1 {
			t.Fatalf("%s: published %v; want one file", pattern, files)
		}
		data, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		t.Logf("%s: %d B, %d B gzipped", filepath.Base(files[0]), len(data), buf.Len())
		total += buf.Len()
	}
	t.Logf("widget JS + CSS: %d B (%.2f KiB) gzipped; budget %.1f KiB", total, float64(total)/1024, float64(widgetBudget)/1024)
	if total > widgetBudget {
		t.Errorf("the widget's JS + CSS weigh %d B gzipped, over the %d B budget: make it smaller, or raise widgetBudget knowingly", total, widgetBudget)
	}
}
