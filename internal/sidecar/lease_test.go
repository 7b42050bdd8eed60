package sidecar

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Issue 25: runLease must let a crashed instance's run be resumed while
// its reader waits. Omitted, it defaults to a third of the shortest
// deadline of a model site (requestTimeoutMs or generationTimeoutMs);
// set, it is refused, naming runLease, when the lease and a sweep after
// it do not fit in that deadline. An extractive site never runs, so its
// deadlines do not count.
func TestRunLeaseFitsTheSitesDeadlines(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	model := `,"generator":{"provider":"openai-compatible","model":"m","baseUrl":"http://127.0.0.1:9/v1"}`
	site := func(extra string) string { return testSiteConfig(testSite("docs", "docs-public"), extra) }
	lease := func(config string) (time.Duration, error) {
		c, err := Decode([]byte(config))
		if err != nil {
			return 0, err
		}
		_, sites, err := checkAndProvision(c)
		if err != nil {
			return 0, err
		}
		return (&Server{cfg: c, sites: sites}).runLease(), nil
	}
	for _, tt := range []struct {
		name, config string
		want         time.Duration
		err          string
	}{
		{"default for a model site (20 s generation deadline)", `{"sites":[` + site(model) + `]}`, 20 * time.Second / 3, ""},
		{"default for an extractive site", `{"sites":[` + site("") + `]}`, DefaultRunLease, ""},
		{"default for a model site with runs off", `{"sites":[` + site(model+`,"runs":false`) + `]}`, DefaultRunLease, ""},
		{"the shortest of two model sites", `{"sites":[` + site(model) + `,` + testSiteConfig(withDeadlines(testSite("docs", "b"), 3000, 20000), model) + `]}`, time.Second, ""},
		{"a lease that fits", `{"runLease":"10s","sites":[` + site(model) + `]}`, 10 * time.Second, ""},
		{"the old default, as long as the request", `{"runLease":"30s","sites":[` + site(model) + `]}`, 0, "config: runLease: 30s cannot run out and be swept (every 5s) before sites[0]'s runs end (20s"},
		{"no room for the sweep", `{"runLease":"16s","sites":[` + site(model) + `]}`, 0, "config: runLease: 16s cannot run out"},
		{"a long lease on an extractive site", `{"runLease":"1m","sites":[` + site("") + `]}`, time.Minute, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lease(tt.config)
			switch {
			case tt.err != "":
				if !errors.Is(err, ErrConfig) || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("err %v; want %q…", err, tt.err)
				}
			case err != nil:
				t.Fatal(err)
			case got != tt.want:
				t.Fatalf("lease %v; want %v", got, tt.want)
			}
		})
	}
}

// On a platform that caps request time (the Lambda function's
// ASKPLANE_MAX_REQUEST_TIME), runLease must fit the capped deadlines; the
// default follows them.
func TestRunLeaseFitsTheCappedDeadlines(t *testing.T) {
	model := `,"generator":{"provider":"openai-compatible","model":"m","baseUrl":"http://127.0.0.1:9/v1"}`
	site := siteJSON(edgePublic(t), "docs", "docs-public", model)
	cfg, err := Decode([]byte(`{"sessions":"memory:","runLease":"10s","sites":[` + site + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(t.Context(), cfg, Options{Env: edgeEnv, MaxRequestTime: 6 * time.Second}); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "runLease: 10s cannot run out") {
		t.Fatalf("a 10 s lease under a 6 s cap: %v", err)
	}
	cfg.RunLease = 0
	s, err := New(t.Context(), cfg, Options{Env: edgeEnv, MaxRequestTime: 6 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.runLease(); got != 2*time.Second {
		t.Fatalf("default lease under a 6 s cap: %v; want 2s", got)
	}
}
