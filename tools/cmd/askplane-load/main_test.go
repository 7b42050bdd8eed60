package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/tools/loadgen"
)

// writeSite lays out a built site folder with a two-page corpus.
func writeSite(t *testing.T) string {
	t.Helper()
	public := t.TempDir()
	corpus := `{"language":"en","pages":[` +
		`{"chunks":[{"anchor":"install","headings":["Install"],"text":"Run go install."}],"title":"Install","url":"/install/"},` +
		`{"chunks":[{"anchor":"limits","headings":["Rate limits"],"text":"Sixty per minute."}],"title":"Limits","url":"/limits/"}` +
		`],"protocol":"askplane.corpus","siteId":"docs","version":1}`
	sum := sha256.Sum256([]byte(corpus))
	hash := hex.EncodeToString(sum[:])
	manifest := `{"protocol":"askplane.manifest","version":1,"siteId":"docs","language":"en","site":"/askplane/en/site.json",` +
		`"corpus":{"href":"/askplane/en/corpus.` + hash[:12] + `.json","contentHash":"sha256:` + hash + `"}}`
	for name, data := range map[string]string{"manifest.json": manifest, "corpus." + hash[:12] + ".json": corpus} {
		path := filepath.Join(public, "askplane", "en", name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return public
}

// TestLoadPrintsTableAndJSON runs a short closed loop against a stand-in
// server that answers heading questions and refuses the designed
// unanswerable ones with 422, then reads both outputs.
func TestLoadPrintsTableAndJSON(t *testing.T) {
	var asked bytes.Buffer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"Install"`) || strings.Contains(string(body), `"Limits Rate limits"`) {
			io.WriteString(w, "{\"type\":\"text\",\"delta\":\"ok\"}\n{\"type\":\"done\"}\n")
			return
		}
		if asked.Len() < 4096 {
			asked.Write(body) // only this handler goroutine at a time: one worker
		}
		w.WriteHeader(422)
		io.WriteString(w, `{"error":{"code":"ASK_NO_GROUNDED_SOURCES","message":"m","retryable":false}}`)
	}))
	defer srv.Close()
	report := filepath.Join(t.TempDir(), "r.json")
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"--public", writeSite(t), "--url", srv.URL + "/v1/ask",
		"--workers", "1", "--duration", "200ms", "--warmup", "0s", "--unanswerable-every", "2", "--json", report}, &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "closed loop (max throughput), 1 workers") || !strings.Contains(out.String(), "first event") {
		t.Errorf("table:\n%s", out.String())
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var r loadgen.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Answered == 0 || r.NoSources == 0 || r.NoSourcesUnexpected != 0 || r.ErrorCount != 0 {
		t.Errorf("report %+v; unexpected bodies: %s", r, asked.String())
	}
	if !bytes.Contains(out.Bytes(), data) {
		t.Error("the printed JSON differs from the file")
	}
}

func TestLoadUsageErrors(t *testing.T) {
	public := writeSite(t)
	for name, args := range map[string][]string{
		"no public":   {},
		"bad flag":    {"--nope"},
		"no corpus":   {"--public", t.TempDir()},
		"bad workers": {"--public", public, "--workers", "0"},
		"bad url":     {"--public", public, "--url", "ftp://x"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != exitUsage {
			t.Errorf("%s: exit %d, want %d (%s)", name, code, exitUsage, errb.String())
		}
	}
}

// TestLoadRecords prints the corpus's record count, as the engine reads
// it, and asks nothing.
func TestLoadRecords(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"--public", writeSite(t), "--records", "--url", "http://127.0.0.1:1/v1/ask"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if out.String() != "2\n" {
		t.Errorf("printed %q, want 2 records", out.String())
	}
}
