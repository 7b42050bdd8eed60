package web_test

import (
	"bufio"
	"html"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/web"
)

// marker is a lookup marker as it appears in the rendered markup (its
// default HTML-escaped). askplane/widget-shell.html matches the same shape.
var marker = regexp.MustCompile(`\[\[(askplane_[a-z_]+)\|([^\[\]|]*)\]\]`)

// TestMarkupLooksUpEveryString checks that the markup shows no string but
// through a marker, that the markers look up exactly the keys of Strings,
// and that each carries its English default.
func TestMarkupLooksUpEveryString(t *testing.T) {
	vm := web.EnglishWidget()
	buf := renderMarkup(t, vm)
	strs := vm.Strings()
	seen := map[string]bool{}
	for _, m := range marker.FindAllStringSubmatch(buf.String(), -1) {
		key, def := m[1], html.UnescapeString(m[2])
		seen[key] = true
		want, ok := strs[key]
		if !ok {
			t.Errorf("marker %s: not in Strings", key)
		} else if def != want {
			t.Errorf("marker %s: default %q; want %q", key, def, want)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(strs)) {
		if !seen[k] {
			t.Errorf("%s is in Strings but the markup never looks it up", k)
		}
	}
	// Left once the markers are gone: no text but whitespace.
	rest := marker.ReplaceAllString(buf.String(), "")
	rest = strings.ReplaceAll(rest, web.LangMarker, "")
	if strings.Contains(rest, "[[") || strings.Contains(rest, "]]") {
		t.Errorf("a marker the partial would not match is left in the markup")
	}
	for _, s := range regexp.MustCompile(`>([^<]*)<`).FindAllStringSubmatch(rest, -1) {
		if strings.TrimSpace(s[1]) != "" {
			t.Errorf("text %q is not looked up: wrap it in lookup()", s[1])
		}
	}
}

// TestStringsFitMarkers checks that no default holds a marker delimiter,
// which would cut its marker short, and that every key is prefixed.
func TestStringsFitMarkers(t *testing.T) {
	for k, v := range web.EnglishWidget().Strings() {
		if !strings.HasPrefix(k, web.KeyPrefix) {
			t.Errorf("key %s lacks %s", k, web.KeyPrefix)
		}
		if strings.ContainsAny(v, "[]|") {
			t.Errorf("%s = %q: [, ] and | delimit markers", k, v)
		}
	}
}

// readI18n reads one of the module's i18n files, which hold only
// key = "string" lines, comments and blank lines.
func readI18n(t *testing.T, lang string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "hugo-module", "i18n", lang+".toml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, " = ")
		s, err := strconv.Unquote(v)
		if !ok || err != nil {
			t.Fatalf("i18n/%s.toml:%d: want key = \"string\", got %q", lang, n, line)
		}
		if _, dup := out[k]; dup {
			t.Errorf("i18n/%s.toml:%d: %s twice", lang, n, k)
		}
		out[k] = s
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestI18nEnglishIsTheDefault checks that i18n/en.toml holds exactly the
// English defaults the markup embeds, so a site in English reads the same
// strings whether or not Hugo finds a key.
func TestI18nEnglishIsTheDefault(t *testing.T) {
	if got, want := readI18n(t, "en"), web.EnglishWidget().Strings(); !maps.Equal(got, want) {
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if got[k] != want[k] {
				t.Errorf("i18n/en.toml %s = %q; EnglishWidget has %q", k, got[k], want[k])
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("i18n/en.toml %s: no such string in the widget", k)
			}
		}
	}
}

// TestI18nTranslationsComplete checks that every shipped translation has
// every key, none empty, and no key the widget does not use.
func TestI18nTranslationsComplete(t *testing.T) {
	want := web.EnglishWidget().Strings()
	files, err := filepath.Glob(filepath.Join("..", "..", "hugo-module", "i18n", "*.toml"))
	if err != nil || len(files) < 2 {
		t.Fatalf("i18n files %v: %v", files, err)
	}
	for _, f := range files {
		lang := strings.TrimSuffix(filepath.Base(f), ".toml")
		got := readI18n(t, lang)
		for k := range want {
			if got[k] == "" {
				t.Errorf("i18n/%s.toml: %s missing or empty", lang, k)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("i18n/%s.toml: %s is not a widget string", lang, k)
			}
		}
	}
}
