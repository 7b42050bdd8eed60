package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/fakesite"
)

// TestContainerRecipe builds the binary as deploy/Dockerfile does
// (CGO_ENABLED=0, -trimpath) and runs it as the image does: a non-root
// user, a working directory and site folder it cannot write, the config
// from the environment, sessions in SQLite on the one writable folder.
// It answers, reports ready, and on SIGTERM exits 0.
func TestContainerRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if os.Geteuid() != 0 {
		t.Skip("runs the binary as another user, which needs root (CI runs as root)")
	}
	root, err := os.MkdirTemp("", "askplane-container-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	bin := filepath.Join(root, "askplane")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	public := filepath.Join(root, "public")
	if _, err := fakesite.WriteCorpus(public, "en", "docs", fakesite.Page{URL: "/docs/install/", Title: "Install", Anchor: "install",
		Text: "Run go install to get the askplane command. It needs Go 1.26."}); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(root, "data")
	os.Mkdir(data, 0o700)
	const uid = 65532
	if err := os.Chown(data, uid, uid); err != nil {
		t.Fatal(err)
	}
	// Everything else is read-only to the process: the binary's folder,
	// the site, its working directory.
	filepath.Walk(public, func(p string, fi os.FileInfo, err error) error {
		if fi.IsDir() {
			return os.Chmod(p, 0o555)
		}
		return os.Chmod(p, 0o444)
	})
	os.Chmod(root, 0o555)
	t.Cleanup(func() { os.Chmod(root, 0o755) })

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	config := `{"sessions":"sqlite:` + filepath.Join(data, "sessions.db") + `","sites":[{"site":{"protocol":"agentskit.chat.backend-site","version":1,"siteId":"docs",` +
		`"assistant":{"id":"guide","name":"Guide"},"corpus":{"id":"docs-en","mode":"local"},"limits":{"requestTimeoutMs":30000,"retrievalTimeoutMs":5000,"generationTimeoutMs":20000,"maxSources":5},` +
		`"persistence":{"mode":"disabled"}},"public":"` + public + `","language":"en","cookieSecretEnv":"ASKPLANE_COOKIE_SECRET"}]}`
	cmd := exec.Command(bin, "serve", "--addr", addr)
	cmd.Dir = root
	cmd.Env = []string{"ASKPLANE_CONFIG_JSON=" + config, "ASKPLANE_COOKIE_SECRET=" + strings.Repeat("k", 40)}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	var out fakesite.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })

	base := "http://" + addr
	deadline := time.Now().Add(10 * time.Second)
	for {
		if res, err := http.Get(base + "/ready"); err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !strings.Contains(string(b), `"status":"ok"`) {
				t.Fatalf("/ready: %d %s", res.StatusCode, b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("never ready:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	req, _ := http.NewRequest("POST", base+"/v1/ask", strings.NewReader(`{"protocol":"agentskit.chat.ask","version":1,"sessionId":"s1","messages":[{"role":"user","content":"how do I install askplane?"}]}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), `"type":"done"`) {
		t.Fatalf("answer: %d %s\n%s", res.StatusCode, b, out.String())
	}
	if fi, err := os.Stat(filepath.Join(data, "sessions.db")); err != nil || fi.Sys().(*syscall.Stat_t).Uid != uid {
		t.Errorf("the session store was not written by the non-root user in /data: %v", err)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v\n%s", err, out.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("no exit after SIGTERM:\n%s", out.String())
	}
	fmt.Fprint(io.Discard, out.String())
}
