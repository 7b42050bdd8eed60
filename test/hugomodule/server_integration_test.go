package hugomodule_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/sitetest"
)

// TestServerRebuildsOutputs runs hugo server on a site, edits a fact and
// then a page's text, and checks that the published site config pins a
// new artifact and the manifest a corpus with the new text. hugo server
// re-renders only the pages a change touches, which are seldom the home
// page that builds the outputs in a full build.
func TestServerRebuildsOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hugo server")
	}
	dir := t.TempDir()
	sitetest.WriteArchive(t, dir, basicSite)
	if err := os.MkdirAll(filepath.Join(dir, "config", "_default"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config", "_default", "module.toml"), []byte("[[imports]]\npath = \""+sitetest.ModulePath+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, sitetest.Hugo(t), "server", "--source", dir, "--bind", "127.0.0.1", "--port", strconv.Itoa(port),
		"--renderToMemory", "--disableLiveReload", "--cacheDir", filepath.Join(t.TempDir(), "cache"), "--logLevel", "warn")
	cmd.Env = append(os.Environ(), "HUGO_MODULE_REPLACEMENTS="+sitetest.Replacement())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		cmd.Wait()
		if t.Failed() {
			t.Logf("hugo server:\n%s", out.String())
		}
	}()
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	get := func(path string) string {
		res, err := http.Get(base + path)
		if err != nil {
			return ""
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			return ""
		}
		return string(b)
	}
	// waitFor polls path until the regexp finds something other than
	// not, and returns it.
	waitFor := func(path, expr, not string) string {
		t.Helper()
		re := regexp.MustCompile(expr)
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			if m := re.FindString(get(path)); m != "" && m != not {
				return m
			}
		}
		t.Fatalf("%s: no %s other than %q within a minute", path, expr, not)
		return ""
	}
	artifact := waitFor("/askplane/en/site.json", `knowledge\.[0-9a-f]{12}\.json`, "")
	// hugo server re-renders only the pages a change touches: pages name
	// the site config bare, not keyed by a hash the others would not
	// follow.
	if home := get("/"); !strings.Contains(home, `data-askplane-site="/askplane/en/site.json"`) {
		t.Errorf("under hugo server, the home page names its site config other than bare:\n%s", home)
	}
	corpus := waitFor("/askplane/en/manifest.json", `/askplane/en/corpus\.[0-9a-f]{12}\.json`, "")

	page := filepath.Join(dir, "content", "docs", "install.md")
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "label: Install the CLI", "label: Install the askplane CLI", 1)
	if err := os.WriteFile(page, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	next := waitFor("/askplane/en/site.json", `knowledge\.[0-9a-f]{12}\.json`, artifact)
	if a := get("/askplane/en/" + next); !strings.Contains(a, "Install the askplane CLI") {
		t.Errorf("the new artifact %s lacks the edited label", next)
	}

	if err := os.WriteFile(page, []byte(edited+"\nZebras read the docs too.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := waitFor("/askplane/en/manifest.json", `/askplane/en/corpus\.[0-9a-f]{12}\.json`, corpus)
	if c := get(now); !strings.Contains(c, "Zebras read the docs too.") {
		t.Errorf("the new corpus %s lacks the edited text", now)
	}
	// The page's Markdown twin follows the edit too, so its
	// rel="alternate" resolves under hugo server.
	waitFor("/docs/install/index.md", `Zebras read the docs too\.`, "")
}
