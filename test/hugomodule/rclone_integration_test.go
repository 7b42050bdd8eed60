package hugomodule_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/sitetest"
	"github.com/askplane/askplane/internal/verify"
)

// TestRcloneDocsWithTheirOwnTheme adds askplane to a real docs site with
// a theme nobody here wrote, as an author would: rclone's documentation
// at a pinned version, from the Go module proxy (scripts/rclone-docs.sh
// adds the config file and the widget partial). The build must verify,
// with only a warning for the two headings rclone's install page gives
// one id, and the corpus must hold every page, split at its headings,
// titled from front matter, both of those headings kept.
func TestRcloneDocsWithTheirOwnTheme(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches rclone's docs and builds about 200 pages")
	}
	src := filepath.Join(t.TempDir(), "rclone")
	cmd := exec.Command("bash", filepath.Join(sitetest.Root(), "scripts", "rclone-docs.sh"), src)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("rclone-docs.sh: %v\n%s", err, out)
	}
	b, err := sitetest.BuildDir(t, src)
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, b.Output)
	}
	b.AssertFileContent("install/index.html", `class="askplane`)

	rep, err := verify.Site(os.DirFS(b.Public))
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	for _, p := range rep.Problems {
		if !p.Warning {
			t.Errorf("verify: %s", p)
		} else if p.Code == "corpus.anchor.duplicate" {
			warned = append(warned, p.Message)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], `"windows-chocolatey"`) {
		t.Errorf("duplicate-anchor warnings %q; want the install page's windows-chocolatey", warned)
	}

	c, _, err := corpus.LoadDirRaw(os.DirFS(b.Public), "en")
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]int{}
	var install []corpus.Record
	for _, r := range c.Records {
		pages[r.URL]++
		if r.URL == "/install/" {
			install = append(install, r)
		}
	}
	if len(pages) < 190 || len(c.Records) < 10*len(pages) {
		t.Errorf("%d records from %d pages; want every page split at its headings", len(c.Records), len(pages))
	}
	var winget, choco *corpus.Record
	for i, r := range install {
		if r.Title != "Install" {
			t.Errorf("install record %s titled %q", r.Href(), r.Title)
		}
		switch r.Headings[len(r.Headings)-1] {
		case "Windows package manager (Winget)":
			winget = &install[i]
		case "Chocolatey package manager":
			choco = &install[i]
		}
	}
	switch {
	case winget == nil || choco == nil:
		t.Fatalf("install page records lack Winget or Chocolatey: %d records", len(install))
	case winget.Anchor != "windows-chocolatey" || choco.Anchor != "windows-chocolatey" || winget.ID == choco.ID:
		t.Errorf("winget %s (%s), choco %s (%s): want one anchor, two ids", winget.Href(), winget.ID, choco.Href(), choco.ID)
	case !strings.Contains(choco.Text, "choco install rclone"):
		t.Errorf("the Chocolatey section lost its command: %q", choco.Text)
	}
}
