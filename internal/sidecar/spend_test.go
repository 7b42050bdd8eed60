package sidecar

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/replay"
	"github.com/askplane/askplane/internal/store"
)

// retainVersion puts a corpus version of site "docs" that no site serves
// into e's store, as an earlier deployment would have, and returns the
// replay request body of a question over it.
func retainVersion(t *testing.T, e *edgeServer, n int) string {
	t.Helper()
	text := installText + " Version " + strconv.Itoa(n) + "."
	raw := []byte(`{"language":"en","pages":[{"chunks":[{"anchor":"install","headings":["Install"],"text":"` + text + `"}],"title":"Install","url":"/docs/install/"}],"protocol":"askplane.corpus","siteId":"docs","version":1}`)
	v := corpus.ContentHash(raw)
	cur := engines.Current()
	if err := e.sessions.(store.Sources).PutSource(t.Context(), "docs", v, raw, cur.ID); err != nil {
		t.Fatal(err)
	}
	ix, err := cur.Open(raw, v)
	if err != nil {
		t.Fatal(err)
	}
	p := ix.Search("how do I install askplane?", evidence.Budget{MaxRecords: 5})
	return `{"fragment":"` + p.Recipe().Fragment() + `"}`
}

func replayReq(e *edgeServer, body string) func() *http.Request {
	return func() *http.Request {
		req, _ := http.NewRequest("POST", e.url+"/v1/evidence/replay", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return req
	}
}

// busy reports whether a is replay's 503 replay_busy with a Retry-After.
func (a answer) busy() bool {
	var out replay.ErrorBody
	json.Unmarshal([]byte(a.body), &out)
	secs, err := strconv.Atoi(a.header.Get("Retry-After"))
	return a.status == http.StatusServiceUnavailable && out.Error.Code == replay.CodeBusy && err == nil && secs >= 1
}

// TestReplayFloodBuildsOnce: 30 concurrent anonymous replays of one
// retained version no site serves each built their own index (RSS 125 MB
// to 3.25 GB, every one 503 after 13 s), and cycling three retained
// versions rebuilt one on every request. Now, over HTTP: the flood builds
// one index and every replay answers from it; cycling three versions four
// times builds each once; and past the budget of builds of versions not
// served (3 a minute here) a replay that needs one is refused at once with
// 503 replay_busy and a Retry-After. Afterwards nothing is in flight and
// the cache's accounting is within its bound.
func TestReplayFloodBuildsOnce(t *testing.T) {
	e := startEdge(t, edgeConfig(t, `,"sources":{"rebuildsPerMinute":3,"rebuildCacheBytes":4194304}`, `"perAddress":{"requests":1000,"windowSeconds":60}`,
		siteJSON(edgePublic(t), "docs", "docs-public", "")))
	body := retainVersion(t, e, 1)
	for i, a := range flood(t, 30, 30, replayReq(e, body)) {
		if a.status != 200 || !strings.Contains(a.body, `"evidence"`) {
			t.Fatalf("replay %d: %d %.200s", i, a.status, a.body)
		}
	}
	if st := e.builds.Stats(); st.Builds != 1 {
		t.Fatalf("30 concurrent replays of one retained version: %+v, want 1 build", st)
	}
	bodies := []string{body, retainVersion(t, e, 2), retainVersion(t, e, 3)}
	c := newClient(t)
	for range 4 {
		for _, b := range bodies {
			if a := fetch(t, c, replayReq(e, b)()); a.status != 200 {
				t.Fatalf("cycling: %d %.200s", a.status, a.body)
			}
		}
	}
	if st := e.builds.Stats(); st.Builds != 3 {
		t.Fatalf("cycling three retained versions four times: %+v, want 3 builds", st)
	}
	// The budget (3 a minute) is spent: a fourth version is refused at
	// once, every time, and builds nothing.
	fourth := retainVersion(t, e, 4)
	for i, a := range flood(t, 10, 5, replayReq(e, fourth)) {
		if !a.busy() {
			t.Fatalf("replay %d past the budget: %d %v %.200s", i, a.status, a.header, a.body)
		}
	}
	st := e.builds.Stats()
	if st.Builds != 3 || st.Refused != 10 || st.InFlight != 0 || st.Waiting != 0 || st.CacheBytes > 4<<20 || st.Cached != 3 {
		t.Fatalf("after the flood: %+v", st)
	}
}
