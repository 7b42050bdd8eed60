package hugomodule_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/modulegen/bundle"
	"github.com/askplane/askplane/internal/sitetest"
	"github.com/askplane/askplane/internal/web"
)

// entryOnlyStates are the widget's states that are no message: what a
// backend answer's entry says as data-askplane-state, announced by the
// notice that comes with it.
var entryOnlyStates = []string{"error"}

// TestWidgetStatesAreTheMessageKeys holds the widget's one table of states
// (ui/states.js: STATES, indexed by the STATE_ constants) to the messages
// the panel's markup carries (web.MessageKeys, rendered in that order), so
// a state the JavaScript enters always has its message in every language,
// and each STATE_ constant names its own entry. (Issue 26.)
func TestWidgetStatesAreTheMessageKeys(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(sitetest.Root(), filepath.FromSlash(bundle.SourceDir), "ui", "states.js"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	table := regexp.MustCompile(`(?s)export const STATES = \[(.*?)\];`).FindStringSubmatch(text)
	if table == nil {
		t.Fatal("ui/states.js has no STATES table")
	}
	var names []string
	for _, m := range regexp.MustCompile(`'([a-z]+)'`).FindAllStringSubmatch(table[1], -1) {
		names = append(names, m[1])
	}
	want := append(slices.Clone(web.MessageKeys), entryOnlyStates...)
	if !slices.Equal(names, want) {
		t.Errorf("STATES = %q;\nwant the message keys, in order, then the entry-only states: %q", names, want)
	}
	consts := regexp.MustCompile(`export const STATE_([A-Z]+) = (\d+);`).FindAllStringSubmatch(text, -1)
	named := map[string]bool{}
	for _, c := range consts {
		i, _ := strconv.Atoi(c[2])
		if i >= len(names) || names[i] != strings.ToLower(c[1]) {
			t.Errorf("STATE_%s = %d does not index %q in STATES", c[1], i, strings.ToLower(c[1]))
			continue
		}
		named[names[i]] = true
	}
	for _, n := range names {
		if !named[n] {
			t.Errorf("state %q has no STATE_ constant", n)
		}
	}
}
