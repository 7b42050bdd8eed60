// Package devserver holds what askplane dev adds around the sidecar while
// an author edits a site: a fingerprint of the site's sources that changes
// when a file does (Fingerprint), a handler that can be replaced while it
// serves (Swap), and a page reload pushed to every open tab after a
// rebuild (Reloader).
//
// None of it is in askplane serve: the reload script is injected into the
// HTML askplane dev serves, never into the site Hugo builds.
//
// What dev serves is what serve serves, byte for byte and header for
// header, with one exception: Reloader.Wrap adds
//
//	<script src="/_askplane/dev/reload.js" defer></script>
//
// before the last </body> of a response (at its end when it has none)
// when all of these hold, and only then:
//
//   - the request is a GET navigation: its Sec-Fetch-Dest is "document"
//     or "iframe", or absent (a client that sends no fetch metadata);
//   - the response is a 200 with Content-Type text/html, no
//     Content-Encoding, and at most 8 MiB;
//   - its body is a whole document: it holds "<html" or "</body>" (in any
//     case).
//
// Such a response also gets Cache-Control: no-store and its new
// Content-Length. Every navigation is asked of the site in full (its
// Accept-Encoding, If-None-Match and If-Modified-Since are dropped), so a
// reload after a rebuild never shows a cached page: a navigation serve
// would answer 304 gets the same bytes with a 200. Nothing else is
// touched: not a fragment (the widget's panel.<hash>.html, which the page
// fetches with a Subresource Integrity hash and would refuse if one byte
// changed), not a script, a style sheet or JSON, not anything fetched
// (Sec-Fetch-Dest "empty", "script", "style"…), and not the headers of
// any of those requests or responses.
package devserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// MaxFiles bounds the files Fingerprint reads, so a site folder that is
// really a home directory fails clearly instead of being walked for
// minutes.
const MaxFiles = 200_000

// skipped are folders Hugo writes into or that hold no site source.
var skipped = map[string]bool{"public": true, "resources": true, ".git": true, "node_modules": true, ".askplane": true}

// hugoLock is the file every Hugo build of the site touches, this one's
// or another's (a test, an editor, the author's own hugo): no source, so
// a change to it rebuilds nothing.
const hugoLock = ".hugo_build.lock"

// ErrTooManyFiles is returned when a folder holds more than MaxFiles files.
var ErrTooManyFiles = errors.New("devserver: more than 200,000 files to watch; point --site at the Hugo site's folder")

// Fingerprint digests the path, size and modification time of every file
// under roots (skipping public/, resources/, .git/, node_modules/ and
// Hugo's build lock), so
// any edit, addition or removal changes it. Polling this is what watches
// the site: it needs no platform notifier and sees edits made by any tool.
func Fingerprint(roots ...string) (string, error) {
	h := sha256.New()
	n := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				if path != root && skipped[d.Name()] {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Name() == hugoLock {
				return nil
			}
			if n++; n > MaxFiles {
				return ErrTooManyFiles
			}
			info, err := d.Info()
			if err != nil {
				return nil // removed while walking: the next poll sees it
			}
			fmt.Fprintf(h, "%s\x00%d\x00%d\n", path, info.Size(), info.ModTime().UnixNano())
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Swap is an http.Handler whose handler is replaced after each rebuild;
// requests in flight finish on the handler they started with.
type Swap struct{ h atomic.Pointer[http.Handler] }

// Set makes h serve every request from now on.
func (s *Swap) Set(h http.Handler) { s.h.Store(&h) }

// ServeHTTP serves r with the current handler, or 503 before the first Set.
func (s *Swap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := s.h.Load()
	if h == nil {
		http.Error(w, "askplane dev: the site is still building", http.StatusServiceUnavailable)
		return
	}
	(*h).ServeHTTP(w, r)
}

// Paths of the reload script and its event stream.
const (
	ScriptPath = "/_askplane/dev/reload.js"
	EventsPath = "/_askplane/dev/events"
)

// script reloads the page when the event stream says the site was rebuilt.
// It is a file, not inline, so the sidecar's Content-Security-Policy
// (script-src 'self') holds in dev as it does in production.
const script = `new EventSource(` + "`" + EventsPath + "`" + `).addEventListener("rebuilt", () => location.reload());
`

// maxPage bounds an HTML page Reloader buffers to add its script tag;
// larger pages are served unchanged.
const maxPage = 8 << 20

// maxListeners bounds the open event streams (one per tab).
const maxListeners = 64

// Reloader serves the reload script and its event stream, and injects the
// script into the HTML documents a browser navigates to (see the package
// documentation for the rule).
type Reloader struct {
	mu        sync.Mutex
	listeners map[chan struct{}]bool
	closed    chan struct{}
	closeOnce sync.Once
}

// NewReloader returns a Reloader with no tab listening.
func NewReloader() *Reloader {
	return &Reloader{listeners: map[chan struct{}]bool{}, closed: make(chan struct{})}
}

// Close ends every open event stream and refuses new ones. Register it
// with http.Server.RegisterOnShutdown: Shutdown waits for active
// connections, and a tab's stream never ends on its own.
func (rl *Reloader) Close() { rl.closeOnce.Do(func() { close(rl.closed) }) }

// Rebuilt tells every open tab to reload.
func (rl *Reloader) Rebuilt() {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	for ch := range rl.listeners {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Wrap serves the reload routes and passes everything else to next,
// adding the script tag before </body> of the HTML documents navigated to
// (the package documentation gives the rule). Every other request reaches
// next untouched, with w itself.
func (rl *Reloader) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case ScriptPath:
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.Write([]byte(script))
			return
		case EventsPath:
			rl.events(w, r)
			return
		}
		if !navigation(r) {
			next.ServeHTTP(w, r)
			return
		}
		// Identity bodies only, and no 304 from a cache of the page
		// before the last rebuild.
		r.Header.Del("Accept-Encoding")
		r.Header.Del("If-None-Match")
		r.Header.Del("If-Modified-Since")
		bw := &pageWriter{ResponseWriter: w}
		next.ServeHTTP(bw, r)
		bw.finish()
	})
}

// navigation reports whether r is a GET a browser makes to show a
// document: Sec-Fetch-Dest "document" or "iframe", or none at all (a
// client without fetch metadata, such as curl). Only such a request may
// get the reload script.
func navigation(r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	switch strings.ToLower(r.Header.Get("Sec-Fetch-Dest")) {
	case "", "document", "iframe":
		return true
	}
	return false
}

// document reports whether body is a whole HTML document, not a
// fragment: it holds "<html" or "</body>", in any case.
func document(body []byte) bool {
	lower := asciiLower(body)
	return bytes.Contains(lower, []byte("<html")) || bytes.Contains(lower, []byte("</body>"))
}

// asciiLower is a copy of b with A-Z lowered and every other byte kept,
// so its indexes are b's.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func (rl *Reloader) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan struct{}, 1)
	rl.mu.Lock()
	select {
	case <-rl.closed:
		rl.mu.Unlock()
		http.Error(w, "askplane dev is stopping", http.StatusServiceUnavailable)
		return
	default:
	}
	if len(rl.listeners) >= maxListeners {
		rl.mu.Unlock()
		http.Error(w, "too many open tabs", http.StatusServiceUnavailable)
		return
	}
	rl.listeners[ch] = true
	rl.mu.Unlock()
	defer func() {
		rl.mu.Lock()
		delete(rl.listeners, ch)
		rl.mu.Unlock()
	}()
	// The server's read deadline would end the stream; a dev tab keeps
	// it open until it closes.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(": askplane dev\n\n"))
	flusher.Flush()
	keepalive := time.NewTicker(25 * time.Second)
	defer keepalive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-rl.closed:
			return
		case <-keepalive.C:
			w.Write([]byte(": keepalive\n\n"))
		case <-ch:
			w.Write([]byte("event: rebuilt\ndata: 1\n\n"))
		}
		flusher.Flush()
	}
}

// pageWriter holds back the body of a navigation's HTML 200 to add the
// script tag; every other response passes straight through.
type pageWriter struct {
	http.ResponseWriter
	status  int
	holding bool
	buf     bytes.Buffer
}

func (p *pageWriter) WriteHeader(status int) {
	if p.status != 0 {
		return
	}
	p.status = status
	h := p.Header()
	mediaType, _, _ := strings.Cut(h.Get("Content-Type"), ";")
	encoded := h.Get("Content-Encoding") != "" && !strings.EqualFold(h.Get("Content-Encoding"), "identity")
	if status == http.StatusOK && strings.EqualFold(strings.TrimSpace(mediaType), "text/html") && !encoded {
		if n, err := strconv.Atoi(h.Get("Content-Length")); err != nil || n <= maxPage {
			p.holding = true
			return
		}
	}
	p.ResponseWriter.WriteHeader(status)
}

func (p *pageWriter) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.WriteHeader(http.StatusOK)
	}
	if !p.holding {
		return p.ResponseWriter.Write(b)
	}
	if p.buf.Len()+len(b) > maxPage {
		// Too big after all: send what is held unchanged.
		if err := p.release(); err != nil {
			return 0, err
		}
		return p.ResponseWriter.Write(b)
	}
	return p.buf.Write(b)
}

// Flush flushes a response that is not held; a held one is sent whole by
// finish.
func (p *pageWriter) Flush() {
	if p.status == 0 {
		p.WriteHeader(http.StatusOK)
	}
	if p.holding {
		return
	}
	if f, ok := p.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (p *pageWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// release sends the held response as the handler wrote it.
func (p *pageWriter) release() error {
	p.holding = false
	p.ResponseWriter.WriteHeader(p.status)
	_, err := p.ResponseWriter.Write(p.buf.Bytes())
	p.buf.Reset()
	return err
}

func (p *pageWriter) finish() {
	if !p.holding {
		return
	}
	page := p.buf.Bytes()
	if !document(page) {
		// A fragment: served exactly as the handler wrote it.
		p.release()
		return
	}
	tag := []byte(`<script src="` + ScriptPath + `" defer></script>`)
	if i := bytes.LastIndex(asciiLower(page), []byte("</body>")); i >= 0 {
		page = append(page[:i:i], append(tag, page[i:]...)...)
	} else {
		page = append(page, tag...)
	}
	p.Header().Set("Content-Length", strconv.Itoa(len(page)))
	p.Header().Set("Cache-Control", "no-store")
	p.ResponseWriter.WriteHeader(p.status)
	p.ResponseWriter.Write(page)
}
