package ask_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
)

// maxWalkFiles is issue 26's bound: following the question from the
// request body to the evidence engine passes through at most this many
// files, with no return to a file already left.
const maxWalkFiles = 5

// TestQuestionWalk measures, on a real HTTP /v1/ask request, the files
// the question passes through from the handler's entry to the evidence
// engine: the call path when the body is read (a body double) and the
// call path when the engine is searched (an engine double, stitched across
// the retrieval goroutine to the request's own), in the repository's own
// non-test files. Each path must not re-enter a file it left, and the two
// together must stay within maxWalkFiles files, the engine's own file
// counted. What runs between the two without a double (the strict
// decoder, the history merge) is not seen.
func TestQuestionWalk(t *testing.T) {
	eng := &walkEngine{}
	recs := []corpus.Record{{URL: "/docs/install/", Anchor: "install", Title: "Install", Headings: []string{"Install the CLI"},
		Text: "Install the CLI with go install. The askplane binary then serves the sidecar."}}
	recs[0].ID = corpus.RecordID(recs[0].URL, recs[0].Anchor)
	eng.Engine = evidence.NewIndex3(&corpus.Corpus{SiteID: "docs-site", Language: "en", Version: "sha256:" + strings.Repeat("0", 64), Records: recs})
	g := &grounding.Grounded{Engine: eng}
	h, err := config{Site: testSite(), Auth: fixedSubject, Config: ask.Config{Retriever: g, Generator: g}}.handler()
	if err != nil {
		t.Fatal(err)
	}
	var body walkPath
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = &walkBody{ReadCloser: r.Body, path: &body}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/ask", "application/json", strings.NewReader(askBody("", "How do I install the CLI?")))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(out), `"name":"cite"`) {
		t.Fatalf("%d %s", resp.StatusCode, out)
	}

	root := moduleRoot(t)
	bodyFiles := body.files(t, "body read", root)
	engineFiles := eng.path.files(t, "engine search", root)
	// The engine's own file: the search the double passes the question to.
	engineFile := walkFileOf(root, methodFile(eng.Engine, "Search"))
	seen := map[string]bool{engineFile: true}
	for _, f := range append(bodyFiles, engineFiles...) {
		seen[f] = true
	}
	t.Logf("body read: %s", strings.Join(bodyFiles, " → "))
	t.Logf("engine search: %s → %s", strings.Join(engineFiles, " → "), engineFile)
	t.Logf("%d files from the body to the evidence engine", len(seen))
	if len(seen) > maxWalkFiles {
		t.Errorf("the question passes through %d files, want at most %d", len(seen), maxWalkFiles)
	}
}

// walkPath is one call path, as runtime.Stack text frames (function,
// file), outermost first.
type walkPath struct {
	mu     sync.Mutex
	frames []walkFrame
}

type walkFrame struct{ fn, file string }

// record keeps the first path it is given.
func (p *walkPath) record(frames []walkFrame) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.frames == nil {
		p.frames = frames
	}
}

// files is the path's files from the handler's entry on, in the
// repository's own non-test files, each run of frames in one file
// counted once; a file that comes back after another fails the test.
func (p *walkPath) files(t *testing.T, what, root string) []string {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	start := -1
	for i, f := range p.frames {
		if strings.HasSuffix(f.fn, "ask.(*Handler).ServeHTTP") {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatalf("%s: the handler's entry is not on the path: %v", what, p.frames)
	}
	var files []string
	left := map[string]bool{}
	for _, f := range p.frames[start:] {
		file := walkFileOf(root, f.file)
		if file == "" {
			continue
		}
		if n := len(files); n > 0 && files[n-1] == file {
			continue
		}
		if left[file] {
			t.Errorf("%s: the path comes back to %s after leaving it: %v", what, file, append(files, file))
		}
		if n := len(files); n > 0 {
			left[files[n-1]] = true
		}
		files = append(files, file)
	}
	return files
}

// walkFileOf names path relative to root when it is one of the
// repository's non-test Go files, else "".
func walkFileOf(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") || strings.HasSuffix(rel, "_test.go") {
		return ""
	}
	return filepath.ToSlash(rel)
}

func moduleRoot(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file))) // internal/ask/walk_test.go
}

// methodFile is the file of the code of v's method name.
func methodFile(v any, name string) string {
	m, ok := reflect.TypeOf(v).MethodByName(name)
	if !ok {
		return ""
	}
	file, _ := runtime.FuncForPC(m.Func.Pointer()).FileLine(m.Func.Pointer())
	return file
}

// walkBody records the call path of the body's first read.
type walkBody struct {
	io.ReadCloser
	path *walkPath
	once sync.Once
}

func (b *walkBody) Read(p []byte) (int, error) {
	b.once.Do(func() { b.path.record(stackOf(false, 0)) })
	return b.ReadCloser.Read(p)
}

// walkEngine records the call path of its first search: the retrieval
// goroutine's frames after those of the goroutine that started it.
type walkEngine struct {
	evidence.Engine
	path walkPath
}

func (e *walkEngine) Search(q string, b evidence.Budget) evidence.Package {
	own := stackOf(false, 0)
	if creator := createdIn(); creator != 0 {
		own = append(stackOf(true, creator), own...)
	}
	e.path.record(own)
	return e.Engine.Search(q, b)
}

// stackOf parses runtime.Stack's text: the current goroutine's frames,
// or (all) those of goroutine id, outermost first.
func stackOf(all bool, id int) []walkFrame {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, all)]
	var block []byte
	if !all {
		block = buf
	} else {
		head := []byte("goroutine " + strconv.Itoa(id) + " [")
		for _, b := range bytes.Split(buf, []byte("\n\n")) {
			if bytes.HasPrefix(b, head) {
				block = b
				break
			}
		}
	}
	lines := strings.Split(strings.TrimSpace(string(block)), "\n")
	var frames []walkFrame
	for i := 1; i+1 < len(lines); i += 2 {
		fn := lines[i]
		if strings.HasPrefix(fn, "created by ") {
			break
		}
		file, _, _ := strings.Cut(strings.TrimSpace(lines[i+1]), ":")
		if j := strings.LastIndex(fn, "("); j > 0 {
			fn = fn[:j]
		}
		frames = append([]walkFrame{{fn: fn, file: file}}, frames...)
	}
	return frames
}

// createdIn is the id of the goroutine that started the current one, or 0.
func createdIn() int {
	buf := make([]byte, 1<<16)
	buf = buf[:runtime.Stack(buf, false)]
	_, after, ok := bytes.Cut(buf, []byte("created by "))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(after, []byte("\n"))
	_, id, ok := bytes.Cut(line, []byte(" in goroutine "))
	if !ok {
		return 0
	}
	n, _ := strconv.Atoi(string(id))
	return n
}
