package loadgen

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestPercentilesAreNearestRank(t *testing.T) {
	ds := make([]time.Duration, 100)
	for i := range ds {
		ds[99-i] = time.Duration(i+1) * time.Millisecond // 100 ms … 1 ms, unsorted
	}
	p := percentiles(ds)
	if p.Count != 100 || p.P50 != 50 || p.P90 != 90 || p.P99 != 99 || p.Max != 100 {
		t.Errorf("percentiles = %+v", p)
	}
	if one := percentiles([]time.Duration{3 * time.Millisecond}); one.P50 != 3 || one.P99 != 3 {
		t.Errorf("one sample = %+v", one)
	}
	if (percentiles(nil) != Percentiles{}) {
		t.Error("no samples must give zeros")
	}
}

func TestTallyCountsDesignedOutcomesApartFromErrors(t *testing.T) {
	var a, b tally
	a.add(&Sample{Outcome: Answered, FirstEvent: 3 * time.Millisecond, Total: 4 * time.Millisecond, Lag: 2 * time.Millisecond})
	a.add(&Sample{Outcome: RateLimited, Status: 429})
	a.add(&Sample{Outcome: NoSources, Status: 422, Unanswerable: true})
	b.add(&Sample{Outcome: NoSources, Status: 422})
	b.add(&Sample{Outcome: HTTPStatus, Status: 500, Code: "ASK_INTERNAL"})
	b.add(&Sample{Outcome: StreamError, Status: 200, Code: "ASK_TIMEOUT"})
	b.add(&Sample{Outcome: Transport})
	a.merge(&b)
	r := a.report(2 * time.Second)
	if r.Requests != 7 || r.Answered != 1 || r.RateLimited != 1 || r.NoSources != 2 || r.NoSourcesUnexpected != 1 {
		t.Errorf("counts = %+v", r)
	}
	want := map[string]int{"http_500:ASK_INTERNAL": 1, "stream_error:ASK_TIMEOUT": 1, "transport": 1}
	if r.ErrorCount != 3 || len(r.Errors) != 3 {
		t.Errorf("errors = %d %v", r.ErrorCount, r.Errors)
	}
	for k, v := range want {
		if r.Errors[k] != v {
			t.Errorf("errors[%q] = %d, want %d", k, r.Errors[k], v)
		}
	}
	if r.RequestRate != 3.5 || r.AnswerRate != 0.5 || r.FirstEvent.Count != 1 || r.Total.P99 != 4 || r.FirstEventSent.P99 != 1 {
		t.Errorf("rates/latencies = %v %v %+v %+v", r.RequestRate, r.AnswerRate, r.FirstEvent, r.Total)
	}
	var buf bytes.Buffer
	r.Mode = "open"
	r.TargetRate = 10
	if err := r.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"open loop at 10 req/s", "429 rate limited 1", "first event", "http_500:ASK_INTERNAL", "start lag", "first event from send"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("table lacks %q:\n%s", s, buf.String())
		}
	}
}

func TestSafeCodeDropsArbitraryServerText(t *testing.T) {
	for in, want := range map[string]string{"ASK_TIMEOUT": "ASK_TIMEOUT", "secret value": "", "": "", strings.Repeat("A", 65): ""} {
		if got := safeCode(in); got != want {
			t.Errorf("safeCode(%q) = %q", in, got)
		}
	}
}
