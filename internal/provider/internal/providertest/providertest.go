// Package providertest is the test kit for the adapters: a real local
// TCP HTTP server (httptest, listening on 127.0.0.1) that records every
// request it sees, an SSE writer that flushes one fragment at a time, and
// a slog handler that captures records. No client is mocked: adapters are
// tested through their real transport.
package providertest

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/provider"
)

// Key is the fake API key every test uses; tests assert it never shows.
const Key = "sk-test-SECRET-0123456789abcdef"

// Seen is one request as the server received it.
type Seen struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// Server records requests and answers each with Reply.
type Server struct {
	*httptest.Server
	mu    sync.Mutex
	seen  []Seen
	Reply func(w http.ResponseWriter, r *http.Request)
}

// NewServer starts a server on 127.0.0.1 that answers with reply.
func NewServer(t testing.TB, reply func(w http.ResponseWriter, r *http.Request)) *Server {
	s := &Server{Reply: reply}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		s.mu.Lock()
		s.seen = append(s.seen, Seen{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		s.mu.Unlock()
		s.Reply(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// Requests returns a copy of what the server has seen so far.
func (s *Server) Requests() []Seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Seen(nil), s.seen...)
}

// Count is how many requests the server has seen. It waits briefly so a
// hidden retry, if there were one, would have time to arrive.
func (s *Server) Count() int {
	time.Sleep(100 * time.Millisecond)
	return len(s.Requests())
}

// JSON answers with status and a JSON body.
func JSON(status int, body string, header ...string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// SSE answers with an event stream written chunk bytes at a time, each
// fragment flushed to the socket on its own, so the client's parser sees
// lines and events split at every possible point.
func SSE(stream string, chunk int, header ...string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		for i := 0; i < len(stream); i += chunk {
			end := min(i+chunk, len(stream))
			if _, err := io.WriteString(w, stream[i:end]); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
			if r.Context().Err() != nil {
				return
			}
		}
	}
}

// Events renders (name, data) pairs as an SSE stream with LF line ends.
func Events(pairs ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] != "" {
			b.WriteString("event: " + pairs[i] + "\n")
		}
		b.WriteString("data: " + pairs[i+1] + "\n\n")
	}
	return b.String()
}

// Logs captures slog output as text.
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Logger returns a logger writing into l at debug level.
func (l *Logs) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (l *Logs) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String returns everything logged so far.
func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Getenv returns a getenv that knows only name=Key.
func Getenv(name string) func(string) string {
	return func(k string) string {
		if k == name {
			return Key
		}
		return ""
	}
}

// EchoKey wraps reply so the response first carries the key in every
// request id header an adapter reads and in Retry-After, as a provider
// that echoes the request's credential would.
func EchoKey(reply func(w http.ResponseWriter, r *http.Request)) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		for _, h := range []string{"x-request-id", "request-id", "x-ds-trace-id", "Retry-After"} {
			w.Header().Set(h, Key)
		}
		reply(w, r)
	}
}

// NoKey fails t if any of texts carries the key, whole or cut short.
func NoKey(t testing.TB, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, Key) || strings.Contains(s, "SECRET-0123456789") {
			t.Fatalf("the key leaked: %s", s)
		}
	}
}

// SearchTool is the tool the adapters' tool tests offer: search_docs,
// its schema in the strict form.
var SearchTool = provider.Tool{Name: "search_docs", Description: "Search the docs.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"],"additionalProperties":false}`)}

// Compact is the JSON s compacted (json.Compact), as a replay is sealed.
func Compact(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
