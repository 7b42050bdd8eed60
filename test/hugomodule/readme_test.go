package hugomodule_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/sitetest"
)

// quickstartStep is one fenced block of the README's "Add askplane to your
// Hugo site": a file to write (path set) or shell commands (lang "sh").
type quickstartStep struct {
	lang, path, body string
	appendTo         bool // "Add to `hugo.toml`": appended, not created
}

// readQuickstart returns the steps of the README's quickstart in order.
// A block's file is the last `path` named in the prose before it; "Add
// to" appends to it, anything else creates it.
func readQuickstart(t *testing.T) []quickstartStep {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(sitetest.Root(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "\n## Add askplane to your Hugo site\n")
	if start < 0 {
		t.Fatal("README has no \"Add askplane to your Hugo site\" section")
	}
	section := text[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	fence := regexp.MustCompile("(?ms)^( *)```([a-z-]*)\n(.*?)\n *```$")
	named := regexp.MustCompile("`([A-Za-z0-9_./-]+\\.(?:toml|html|md))`")
	var steps []quickstartStep
	prev := 0
	for _, m := range fence.FindAllStringSubmatchIndex(section, -1) {
		prose := section[prev:m[0]]
		prev = m[1]
		indent := section[m[2]:m[3]]
		lang := section[m[4]:m[5]]
		body := regexp.MustCompile("(?m)^"+indent).ReplaceAllString(section[m[6]:m[7]], "")
		step := quickstartStep{lang: lang, body: body + "\n"}
		if lang != "sh" {
			names := named.FindAllStringSubmatch(prose, -1)
			if names == nil {
				t.Fatalf("README: no file named before the %s block:\n%s", lang, body)
			}
			step.path = names[len(names)-1][1]
			step.appendTo = strings.Contains(prose, "Add to")
		}
		steps = append(steps, step)
	}
	return steps
}

// TestReadmeQuickstart follows the README's "Add askplane to your Hugo
// site" on a brand-new `hugo new site`, running every command as written
// (with the pinned Hugo as `hugo`, and this checkout for /path/to/askplane):
// it writes the files the steps show, runs `bash scripts/dev.sh --site`
// and asks the sidecar a question, then builds with `hugo` and checks that
// `askplane verify` prints the line the README shows.
func TestReadmeQuickstart(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the askplane command and builds a site with Hugo")
	}
	hugo := sitetest.Hugo(t)
	root, err := filepath.Abs(sitetest.Root())
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(hugo, filepath.Join(bin, "hugo")); err != nil {
		t.Fatal(err)
	}
	// The reader's environment, with no replacements of their own.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HUGO_MODULE_REPLACEMENTS=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	site := filepath.Join(work, "mydocs")
	expand := func(s string) string {
		return strings.NewReplacer("/path/to/askplane", root, "/path/to/mydocs", site).Replace(s)
	}

	steps := readQuickstart(t)
	var ran []string
	for i, step := range steps {
		switch {
		case step.path != "":
			path := filepath.Join(site, filepath.FromSlash(step.path))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
			if step.appendTo {
				if _, err := os.Stat(path); err != nil {
					t.Fatalf("step %d adds to %s, which the steps before did not make: %v", i+1, step.path, err)
				}
				flags = os.O_APPEND | os.O_WRONLY
			}
			f, err := os.OpenFile(path, flags, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("\n" + step.body)
			f.Close()
		case strings.Contains(step.body, "scripts/dev.sh"):
			ranDev(t, root, site, env, expand(step.body))
			ran = append(ran, "dev")
		case strings.Contains(step.body, "hugo new site"):
			runShell(t, work, env, step.body)
			ran = append(ran, "new site")
		default:
			out := runShell(t, site, env, expand(step.body))
			ran = append(ran, "publish")
			var want string
			for _, line := range strings.Split(step.body, "\n") {
				if s, ok := strings.CutPrefix(line, "# askplane: "); ok {
					want = "askplane: " + s
				}
			}
			if want == "" {
				t.Fatalf("README: the publish step shows no askplane verify output:\n%s", step.body)
			}
			if !strings.Contains(out, want+"\n") {
				t.Errorf("askplane verify prints\n%s\nthe README shows\n\t%s", out, want)
			}
		}
	}
	if got := strings.Join(ran, ", "); got != "new site, dev, publish" {
		t.Errorf("the quickstart's commands ran as %q, want new site, dev, publish", got)
	}
}

// runShell runs a README block with bash, stopping at the first failing
// command, and returns what it printed.
func runShell(t *testing.T, dir string, env []string, script string) string {
	t.Helper()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("README commands failed: %v\n%s\n%s", err, script, out)
	}
	return string(out)
}

// ranDev starts the README's dev command on a free port, as a reader
// would from the checkout, and checks what a reader sees: a line at once,
// never a long silence, then the page with the widget and a cited answer
// from the sidecar.
func ranDev(t *testing.T, root, site string, env []string, script string) {
	t.Helper()
	sessions := filepath.Join(t.TempDir(), "sessions.db")
	cmd := exec.Command("bash", "-c", strings.TrimSpace(script)+" --addr 127.0.0.1:0 --sessions "+sessions)
	cmd.Dir, cmd.Env = root, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	started := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var printed strings.Builder
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			mu.Lock()
			printed.WriteString(sc.Text() + "\n")
			mu.Unlock()
			lines <- sc.Text()
		}
		close(lines)
	}()
	defer func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Error("askplane dev did not stop on Ctrl-C")
		}
	}()
	log := func() string { mu.Lock(); defer mu.Unlock(); return printed.String() }

	// dev says something at once and then at least every few seconds
	// until it serves (the bound leaves room for a loaded CI machine).
	const maxSilence = 20 * time.Second
	open := regexp.MustCompile(`open (http://[^/ ]+)/`)
	var base string
	last, first := started, true
	for base == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("askplane dev exited before serving:\n%s", log())
			}
			if first && time.Since(started) > 5*time.Second {
				t.Errorf("askplane dev's first line came after %s", time.Since(started).Round(time.Millisecond))
			}
			first = false
			if m := open.FindStringSubmatch(line); m != nil {
				base = m[1]
			}
			last = time.Now()
		case <-time.After(maxSilence - time.Since(last)):
			t.Fatalf("askplane dev was silent for %s:\n%s", maxSilence, log())
		}
	}
	go func() {
		for range lines {
		}
	}()

	page := get(t, base+"/install/")
	if !strings.Contains(page, `id="askplane"`) && !strings.Contains(page, "data-askplane") {
		t.Fatalf("the page has no widget:\n%s", page)
	}
	get(t, base+"/askplane/en/site.json")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/ask",
		strings.NewReader(`{"protocol":"agentskit.chat.ask","version":1,"messages":[{"role":"user","content":"Which Go version does it need?"}]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", base)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"path":"/install/"`) || !strings.Contains(string(body), "Go 1.26") {
		t.Fatalf("the sidecar's answer under dev: %d\n%s", resp.StatusCode, body)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	return string(b)
}
