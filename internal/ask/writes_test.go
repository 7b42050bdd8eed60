package ask_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/session"
)

// countingListener counts the writes made on the connections it accepts.
type countingListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, writes: &l.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(b)
}

// TestAnswerTakesTwoWrites: an answer whose text comes at once is sent
// in two writes to the connection, the headers with the text, then the
// cite and done events with the stream's end (it took four: the headers
// alone, the text, cite and done, the end; each write a syscall and a
// wakeup of the reader, about a tenth of the server's CPU under load).
func TestAnswerTakesTwoWrites(t *testing.T) {
	h, err := config{Site: testSite(), Auth: fixedSubject, Config: ask.Config{
		Retriever: localRetriever, Generator: fixtureGenerator, Sessions: session.NewMemoryStore(),
	}}.handler()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	ln := &countingListener{Listener: srv.Listener}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)

	post := func() string {
		resp, err := http.Post(srv.URL+"/v1/ask", "application/json", strings.NewReader(askBody("s1", "q")))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%d %s %v", resp.StatusCode, b, err)
		}
		return string(b)
	}
	post() // the connection is open and kept alive from here
	before := ln.writes.Load()
	body := post()
	if n := ln.writes.Load() - before; n != 2 {
		t.Errorf("the answer took %d writes, want 2", n)
	}
	if !strings.Contains(body, `"type":"text"`) || !strings.HasSuffix(body, `{"type":"done","model":"fixture-model"}`+"\n") {
		t.Errorf("body %s", body)
	}
}

// TestSlowGeneratorGetsHeadersFirst: a generator that has not emitted
// within a moment does not hold the headers back; the reader learns its
// answer is coming before the first text (this generator waits for
// the reader to have seen them).
func TestSlowGeneratorGetsHeadersFirst(t *testing.T) {
	seen := make(chan struct{})
	f := newFixture(t, func(c *config) {
		c.Generator = grounding.GeneratorFunc(func(ctx context.Context, q grounding.Query, sources []grounding.Source, emit func(string) error) (grounding.Result, error) {
			select {
			case <-seen:
			case <-time.After(5 * time.Second):
				return grounding.Result{}, errors.New("the reader never saw the headers")
			}
			return fixtureGenerator(ctx, q, sources, emit)
		})
	})
	resp, err := http.Post(f.srv.URL+"/v1/ask", "application/json", strings.NewReader(askBody("s1", "q")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	close(seen)
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 || !strings.Contains(string(b), `"type":"done"`) {
		t.Fatalf("%d %s %v", resp.StatusCode, b, err)
	}
}
