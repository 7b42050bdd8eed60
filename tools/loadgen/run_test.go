package loadgen

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunAgainstTheAskHandler runs a short closed loop against the real
// handler stack: heading questions are answered with done, the designed
// unanswerable ones get 422, nothing is an error, and each worker stays
// one subject for the whole run.
func TestRunAgainstTheAskHandler(t *testing.T) {
	c := loadCorpus(t, 50)
	srv, auth := askServer(t, c, 0)
	qs := Mix(FromCorpus(c, 20), 5)
	r, err := Run(context.Background(), Options{
		URL: srv.URL + "/v1/ask", Origin: testOrigin, Workers: 3,
		Duration: 400 * time.Millisecond, Warmup: 50 * time.Millisecond,
		Questions: qs, TurnsPerSession: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Answered == 0 || r.NoSources == 0 || r.NoSourcesUnexpected != 0 || r.ErrorCount != 0 || r.RateLimited != 0 {
		t.Fatalf("report = %+v", r)
	}
	if r.Mode != "closed" || r.FirstEvent.Count != r.Answered || r.FirstEvent.P50 <= 0 || r.Total.P50 < r.FirstEvent.P50 {
		t.Errorf("latencies = %+v %+v", r.FirstEvent, r.Total)
	}
	if n := auth.count(); n != 3 {
		t.Errorf("%d subjects for 3 workers: the cookie was not kept", n)
	}
}

// TestRunCountsRateLimitsApartFromErrors: a limit of two questions per
// subject gives designed 429s, not errors.
func TestRunCountsRateLimitsApartFromErrors(t *testing.T) {
	c := loadCorpus(t, 20)
	srv, _ := askServer(t, c, 2)
	r, err := Run(context.Background(), Options{
		URL: srv.URL + "/v1/ask", Workers: 2, Duration: 500 * time.Millisecond,
		Questions: FromCorpus(c, 10),
	})
	if err != nil {
		t.Fatal(err)
	}
	// At most 2 answers per subject; fewer only if a slow machine let one
	// finish after the window.
	if r.Answered < 1 || r.Answered > 4 || r.RateLimited == 0 || r.ErrorCount != 0 {
		t.Errorf("answered %d, rate limited %d, errors %v", r.Answered, r.RateLimited, r.Errors)
	}
}

// TestRunClassifiesFailures serves each failure shape in turn and checks
// the error table names it.
func TestRunClassifiesFailures(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch n.Add(1) % 4 {
		case 0:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(500)
			io.WriteString(w, `{"error":{"code":"ASK_INTERNAL","message":"x","retryable":true}}`)
		case 1:
			io.WriteString(w, "{\"type\":\"text\",\"delta\":\"a\"}\n") // no done
		case 2:
			io.WriteString(w, "{\"type\":\"text\",\"delta\":\"a\"}\n{\"type\":\"error\",\"message\":\"m\",\"code\":\"ASK_TIMEOUT\",\"retryable\":true}\n")
		case 3:
			io.WriteString(w, "{\"type\":\"text\",\"delta\":\"a\"}\n{\"type\":\"done\"}\n")
		}
	}))
	defer srv.Close()
	r, err := Run(context.Background(), Options{URL: srv.URL, Workers: 1, Duration: 100 * time.Millisecond, Questions: []Question{{Text: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"http_500:ASK_INTERNAL", "stream_incomplete", "stream_error:ASK_TIMEOUT"} {
		if r.Errors[k] == 0 {
			t.Errorf("errors lack %q: %v", k, r.Errors)
		}
	}
	if r.Answered == 0 || r.ErrorCount != r.Requests-r.Answered {
		t.Errorf("answered %d of %d, errors %d", r.Answered, r.Requests, r.ErrorCount)
	}
}

// TestOpenLoopKeepsTheTargetRate: at 200 requests/s for 0.5 s the run
// sends about 100 requests whatever the server's speed allows, and never
// more than the schedule holds.
func TestOpenLoopKeepsTheTargetRate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "{\"type\":\"done\"}\n")
	}))
	defer srv.Close()
	r, err := Run(context.Background(), Options{URL: srv.URL, Workers: 4, Rate: 200, Duration: 500 * time.Millisecond, Questions: []Question{{Text: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	// The bounds are loose below for a busy machine; a closed loop would
	// send thousands.
	if r.Mode != "open" || r.Requests > 101 || r.Requests < 40 || r.Answered != r.Requests {
		t.Errorf("open loop sent %d requests (answered %d), want about 100", r.Requests, r.Answered)
	}
	if r.Lag.Count != r.Requests {
		t.Errorf("start lag samples %d", r.Lag.Count)
	}
}

func TestRunTimesOutASlowStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "{\"type\":\"text\",\"delta\":\"a\"}\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	r, err := Run(context.Background(), Options{URL: srv.URL, Workers: 1, Duration: 300 * time.Millisecond, Timeout: 50 * time.Millisecond, Questions: []Question{{Text: "q"}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Errors["transport"] == 0 || r.Answered != 0 {
		t.Errorf("report %+v", r)
	}
}

func TestValidateRejectsBadOptions(t *testing.T) {
	good := Options{URL: "http://127.0.0.1:1/v1/ask", Workers: 1, Duration: time.Second, Questions: []Question{{Text: "q"}}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*Options){
		"url":       func(o *Options) { o.URL = "ftp://x" },
		"urls":      func(o *Options) { o.URLs = []string{"http://127.0.0.1:1/v1/ask", "127.0.0.1:2"} },
		"workers":   func(o *Options) { o.Workers = 0 },
		"many":      func(o *Options) { o.Workers = MaxWorkers + 1 },
		"rate":      func(o *Options) { o.Rate = -1 },
		"duration":  func(o *Options) { o.Duration = 0 },
		"questions": func(o *Options) { o.Questions = nil },
		"turns":     func(o *Options) { o.TurnsPerSession = -1 },
	} {
		o := good
		edit(&o)
		if err := o.Validate(); !errors.Is(err, ErrOptions) || !strings.HasPrefix(err.Error(), "loadgen: invalid options") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
