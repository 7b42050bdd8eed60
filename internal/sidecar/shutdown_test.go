package sidecar

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestEdgeShutdownEndsStreams: five answers are streaming, each waiting
// on a model that holds its response for 10 s, when the Serve context is
// cancelled (what SIGTERM does in package main). Every stream ends at once
// with a terminal, retryable ASK_INTERNAL error event, the provider calls
// are cancelled rather than left to run, Serve returns nil well within
// edge.shutdownTimeout, and the server then takes no new connection.
func TestEdgeShutdownEndsStreams(t *testing.T) {
	const streams = 5
	p := newSlowProvider(t, 10*time.Second)
	e := startEdge(t, edgeConfig(t, "", `"shutdownTimeout":"3s"`,
		siteJSON(edgePublic(t), "docs", "docs-public", p.generator()+`,"generations":{"max":8,"queue":0,"waitMs":0}`)))
	c := newClient(t)

	type result struct {
		status int
		events []map[string]any
		err    error
	}
	results := make([]result, streams)
	started := make(chan struct{}, streams)
	var wg sync.WaitGroup
	for i := range streams {
		wg.Go(func() {
			resp, err := c.Do(e.askReq("", "how do I install askplane?"))
			if err != nil {
				results[i].err = err
				started <- struct{}{}
				return
			}
			defer resp.Body.Close()
			results[i].status = resp.StatusCode
			started <- struct{}{} // the stream's headers are here
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				var ev map[string]any
				if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
					results[i].err = err
					return
				}
				results[i].events = append(results[i].events, ev)
			}
			results[i].err = sc.Err()
		})
	}
	for range streams {
		<-started
	}
	deadline := time.Now().Add(5 * time.Second)
	for p.inFlight.Load() < streams && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := p.inFlight.Load(); n != streams {
		t.Fatalf("%d provider calls in flight, want %d", n, streams)
	}

	start := time.Now()
	e.stop()
	var served error
	select {
	case served = <-e.served:
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return within 5 s of its context's cancellation")
	}
	took := time.Since(start)
	e.served <- served // for the cleanup
	wg.Wait()
	t.Logf("shutdown with %d streams in flight: Serve returned %v after %v", streams, served, took.Round(time.Millisecond))
	if served != nil || took > 3*time.Second {
		t.Errorf("Serve = %v after %v, want nil within shutdownTimeout (3 s)", served, took)
	}
	for i, r := range results {
		if r.err != nil || r.status != 200 || len(r.events) == 0 {
			t.Errorf("stream %d: %d %v %v", i, r.status, r.err, r.events)
			continue
		}
		last := r.events[len(r.events)-1]
		if last["type"] != "error" || last["code"] != "ASK_INTERNAL" || last["retryable"] != true {
			t.Errorf("stream %d ends with %v, want a retryable ASK_INTERNAL error event", i, last)
		}
	}
	deadline = time.Now().Add(2 * time.Second)
	for p.inFlight.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n, cancelled := p.inFlight.Load(), p.cancelled.Load(); n != 0 || cancelled != streams {
		t.Errorf("after shutdown: %d provider calls still in flight, %d cancelled; want 0 and %d", n, cancelled, streams)
	}
	if resp, err := http.Post(e.url+"/v1/ask", "application/json", strings.NewReader(askJSON("how do I install askplane?"))); err == nil {
		resp.Body.Close()
		t.Errorf("a question after shutdown got %d, want the connection refused", resp.StatusCode)
	}
}
