package providers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/provider"
	"github.com/askplane/askplane/internal/provider/internal/providertest"
	"github.com/askplane/askplane/internal/provider/providers"
)

// The transport rules are shared, so every adapter is run through each.
var fixtures = []struct {
	name, env, prefix string
	streams           bool
}{
	{"openai", "OPENAI_API_KEY", "/v1", true},
	{"anthropic", "ANTHROPIC_API_KEY", "/v1", true},
	{"deepseek", "DEEPSEEK_API_KEY", "", false},
}

// errs collects every error string a test produced, so the secret check
// covers them all.
type errs struct{ all []string }

func (e *errs) add(err error) error {
	if err != nil {
		e.all = append(e.all, err.Error(), fmt.Sprintf("%v|%+v|%#v", err, err, err))
	}
	return err
}

func open(t *testing.T, name, env, base string, mod func(*provider.Config)) provider.Client {
	t.Helper()
	cfg := provider.Config{Provider: name, Model: "model-x", BaseURL: base, APIKeyEnv: env, Timeout: 5 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	c, err := providers.Open(cfg, providertest.Getenv(env))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var req = provider.Request{Instructions: "be brief", Input: `{"q":"secret prompt text"}`}

func code(t *testing.T, err error, want string) *provider.Error {
	t.Helper()
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Code != want {
		t.Fatalf("want %s, got %v", want, err)
	}
	return pe
}

func TestRateLimitIsAdviceAndNeverRetried(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			s := providertest.NewServer(t, providertest.JSON(429, `{"error":"slow down `+providertest.Key+`"}`, "Retry-After", "2", "x-request-id", "req_429"))
			_, err := open(t, f.name, f.env, s.URL+f.prefix, nil).Complete(context.Background(), req)
			pe := code(t, err, provider.CodeRateLimited)
			if pe.RetryAfter != 2*time.Second || pe.Status != 429 {
				t.Fatalf("advice %v status %d", pe.RetryAfter, pe.Status)
			}
			if strings.Contains(err.Error(), "slow down") {
				t.Fatal("error echoes the response body")
			}
			if n := s.Count(); n != 1 {
				t.Fatalf("server saw %d requests, want exactly 1", n)
			}
		})
	}
	date := time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat)
	s := providertest.NewServer(t, providertest.JSON(429, `{}`, "Retry-After", date))
	_, err := open(t, "openai", "OPENAI_API_KEY", s.URL, nil).Complete(context.Background(), req)
	if pe := code(t, err, provider.CodeRateLimited); pe.RetryAfter < 80*time.Second || pe.RetryAfter > 91*time.Second {
		t.Fatalf("HTTP-date advice %v", pe.RetryAfter)
	}
}

func TestServerErrorsAreNotRetried(t *testing.T) {
	for _, f := range fixtures {
		for _, status := range []int{500, 502, 503, 529} {
			t.Run(fmt.Sprint(f.name, status), func(t *testing.T) {
				s := providertest.NewServer(t, providertest.JSON(status, `{}`))
				_, err := open(t, f.name, f.env, s.URL+f.prefix, nil).Complete(context.Background(), req)
				if pe := code(t, err, provider.CodeUnavailable); pe.RetryAfter != 0 {
					t.Fatalf("advice without Retry-After: %v", pe.RetryAfter)
				}
				if n := s.Count(); n != 1 {
					t.Fatalf("server saw %d requests, want exactly 1", n)
				}
			})
		}
	}
}

func TestRedirectIsRefusedNotFollowed(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			var s *providertest.Server
			s = providertest.NewServer(t, func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/elsewhere") {
					providertest.JSON(200, `{}`)(w, r)
					return
				}
				http.Redirect(w, r, s.URL+"/elsewhere", http.StatusTemporaryRedirect)
			})
			_, err := open(t, f.name, f.env, s.URL+f.prefix, nil).Complete(context.Background(), req)
			code(t, err, provider.CodeRedirectRefused)
			if reqs := s.Requests(); len(reqs) != 1 || strings.HasPrefix(reqs[0].Path, "/elsewhere") {
				t.Fatalf("requests %+v", reqs)
			}
		})
	}
}

func TestBodyLimits(t *testing.T) {
	big := `{"pad":"` + strings.Repeat("x", 4096) + `"}`
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			lim := func(c *provider.Config) { c.Limits = provider.Limits{MaxResponseBytes: 1024, MaxRequestBytes: 4096} }
			s := providertest.NewServer(t, providertest.JSON(200, big))
			_, err := open(t, f.name, f.env, s.URL+f.prefix, lim).Complete(context.Background(), req)
			code(t, err, provider.CodeResponseTooLarge)

			// Without Content-Length (chunked), the limit still holds.
			s = providertest.NewServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				for range 8 {
					_, _ = w.Write([]byte(big[:512]))
					http.NewResponseController(w).Flush()
				}
			})
			_, err = open(t, f.name, f.env, s.URL+f.prefix, lim).Complete(context.Background(), req)
			code(t, err, provider.CodeResponseTooLarge)

			s = providertest.NewServer(t, providertest.JSON(200, `{}`))
			large := req
			large.Input = strings.Repeat("y", 5000)
			_, err = open(t, f.name, f.env, s.URL+f.prefix, lim).Complete(context.Background(), large)
			code(t, err, provider.CodeRequestTooLarge)
			if n := s.Count(); n != 0 {
				t.Fatalf("oversize request reached the server (%d)", n)
			}

			s = providertest.NewServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				_, _ = w.Write([]byte("<html>"))
			})
			_, err = open(t, f.name, f.env, s.URL+f.prefix, nil).Complete(context.Background(), req)
			code(t, err, provider.CodeResponseMalformed)
		})
	}
}

func TestOversizeSSELineAndEventAreRefused(t *testing.T) {
	for _, f := range fixtures {
		if !f.streams {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			lim := func(c *provider.Config) { c.Limits = provider.Limits{MaxSSELineBytes: 256, MaxSSEEventBytes: 1024} }
			long := "data: " + strings.Repeat("z", 300) + "\n\n"
			s := providertest.NewServer(t, providertest.SSE(long, 16))
			_, err := open(t, f.name, f.env, s.URL+f.prefix, lim).Stream(context.Background(), req, nil)
			code(t, err, provider.CodeStreamTooLarge)

			many := strings.Repeat("data: "+strings.Repeat("z", 200)+"\n", 8) + "\n"
			s = providertest.NewServer(t, providertest.SSE(many, 64))
			_, err = open(t, f.name, f.env, s.URL+f.prefix, lim).Stream(context.Background(), req, nil)
			code(t, err, provider.CodeStreamTooLarge)
		})
	}
}

// hang answers nothing until the client goes away.
func hang(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// hangMidStream sends the start of a stream, then stalls.
func hangMidStream(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	_, _ = w.Write([]byte(": started\n\n"))
	http.NewResponseController(w).Flush()
	<-r.Context().Done()
}

func TestDeadlineAndCancellation(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			short := func(c *provider.Config) { c.Timeout = 150 * time.Millisecond }
			s := providertest.NewServer(t, hang)
			start := time.Now()
			_, err := open(t, f.name, f.env, s.URL+f.prefix, short).Complete(context.Background(), req)
			code(t, err, provider.CodeDeadlineExceeded)
			if el := time.Since(start); el > 2*time.Second {
				t.Fatalf("deadline took %v", el)
			}

			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			_, err = open(t, f.name, f.env, s.URL+f.prefix, nil).Complete(ctx, req)
			if pe := code(t, err, provider.CodeCancelled); !errors.Is(pe, context.Canceled) {
				t.Fatal("cancellation does not unwrap to context.Canceled")
			}

			// Both stop reasons hold (the caller cancelled and the call's
			// own 1ns timeout has passed): cancellation is reported, and
			// no request is dialed at all.
			s2 := providertest.NewServer(t, hang)
			ctx, cancel = context.WithCancel(context.Background())
			cancel()
			tiny := func(c *provider.Config) { c.Timeout = time.Nanosecond }
			_, err = open(t, f.name, f.env, s2.URL+f.prefix, tiny).Complete(ctx, req)
			code(t, err, provider.CodeCancelled)
			_, err = open(t, f.name, f.env, s2.URL+f.prefix, tiny).Complete(context.Background(), req)
			code(t, err, provider.CodeDeadlineExceeded)
			if n := s2.Count(); n != 0 {
				t.Fatalf("a stopped call dialed (%d requests)", n)
			}

			if !f.streams {
				return
			}
			s3 := providertest.NewServer(t, hangMidStream)
			_, err = open(t, f.name, f.env, s3.URL+f.prefix, short).Stream(context.Background(), req, nil)
			code(t, err, provider.CodeDeadlineExceeded)
			ctx, cancel = context.WithCancel(context.Background())
			time.AfterFunc(100*time.Millisecond, cancel)
			_, err = open(t, f.name, f.env, s3.URL+f.prefix, nil).Stream(ctx, req, nil)
			code(t, err, provider.CodeCancelled)
		})
	}
}

func TestSecretsStayOutOfErrorsPrintsAndLogs(t *testing.T) {
	var logs providertest.Logs
	var e errs
	for _, f := range fixtures {
		withLog := func(c *provider.Config) { c.Logger = logs.Logger(); c.Timeout = 150 * time.Millisecond }
		for _, reply := range []func(http.ResponseWriter, *http.Request){
			providertest.JSON(401, `{"error":"bad key `+providertest.Key+`"}`),
			providertest.JSON(429, `{}`, "Retry-After", "1"),
			providertest.JSON(400, `{"echo":"secret prompt text"}`),
			providertest.JSON(200, `{"not":"a response","echo":"secret prompt text"}`, "x-request-id", "req_log"),
			hang,
		} {
			s := providertest.NewServer(t, reply)
			c := open(t, f.name, f.env, s.URL+f.prefix, withLog)
			_, err := c.Complete(context.Background(), req)
			if e.add(err) == nil {
				t.Fatalf("%s: no error", f.name)
			}
			if got := s.Requests(); len(got) == 1 && !strings.Contains(got[0].Header.Get("Authorization")+got[0].Header.Get("X-Api-Key"), providertest.Key) {
				t.Fatalf("%s: the key was not sent", f.name)
			}
			e.all = append(e.all, fmt.Sprintf("%v %+v %#v %s", c, c, c, c))
		}
		_, err := providers.Open(provider.Config{Provider: f.name, Model: "m", APIKeyEnv: f.env}, func(string) string { return "bad key " + providertest.Key })
		code(t, e.add(err), provider.CodeCredentialMissing)
	}
	cfg, err := provider.Config{Provider: "openai", Model: "m", APIKeyEnv: "K"}.WithCredential(providertest.Getenv("K"))
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(cfg)
	credJS, _ := json.Marshal(cfg.Credential)
	e.all = append(e.all, fmt.Sprintf("%v %+v %#v %s %q %x", cfg, cfg, cfg, cfg.Credential, cfg.Credential, cfg.Credential), string(js), string(credJS))
	logs.Logger().Info("config", "cfg", cfg, "cred", cfg.Credential)
	all := strings.Join(e.all, "\n") + logs.String()
	for _, secret := range []string{providertest.Key, "secret prompt text", "bad key"} {
		if strings.Contains(all, secret) {
			t.Fatalf("%q leaked into errors, prints or logs", secret)
		}
	}
	for _, want := range []string{"provider call", "provider=anthropic", "request_id=req_log", "code=PROVIDER_RATE_LIMITED", "retry_after=1s", "code=PROVIDER_DEADLINE_EXCEEDED", "[REDACTED]"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in logs/prints", want)
		}
	}
}

func TestOpenChecksConfigBeforeAnyIO(t *testing.T) {
	for _, tc := range []struct {
		cfg  provider.Config
		code string
	}{
		{provider.Config{Provider: "gemini", Model: "m", APIKeyEnv: "K"}, provider.CodeConfigInvalid},
		{provider.Config{Provider: "openai", APIKeyEnv: "K"}, provider.CodeConfigInvalid},
		{provider.Config{Provider: "openai", Model: "m"}, provider.CodeConfigInvalid},
		{provider.Config{Provider: "openai", Model: "m", APIKeyEnv: "UNSET"}, provider.CodeCredentialMissing},
		{provider.Config{Provider: "openai-compatible", Model: "m"}, provider.CodeConfigInvalid},
		{provider.Config{Provider: "openai", Model: "m", APIKeyEnv: "K", BaseURL: "http://api.example.com/v1"}, provider.CodeEndpointRefused},
		{provider.Config{Provider: "anthropic", Model: "m", APIKeyEnv: "K", BaseURL: "https://user:pw@api.example.com/"}, provider.CodeEndpointRefused},
		{provider.Config{Provider: "deepseek", Model: "m", APIKeyEnv: "K", Timeout: time.Hour}, provider.CodeConfigInvalid},
		{provider.Config{Provider: "openai", Model: "m", APIKeyEnv: "K", Limits: provider.Limits{MaxSSELineBytes: 1 << 20, MaxSSEEventBytes: 1 << 10}}, provider.CodeConfigInvalid},
	} {
		_, err := providers.Open(tc.cfg, providertest.Getenv("K"))
		code(t, err, tc.code)
	}
	c, err := providers.Open(provider.Config{Provider: "openai-compatible", Model: "llama3", BaseURL: "http://127.0.0.1:11434/v1"}, providertest.Getenv("K"))
	if err != nil || c.Profile().Name != "openai-compatible" {
		t.Fatalf("ollama-style config: %v", err)
	}
	c, err = providers.Open(provider.Config{Provider: "openai", Model: "m", APIKeyEnv: "K", BaseURL: "http://[::1]:8080/"}, providertest.Getenv("K"))
	if err != nil || c == nil {
		t.Fatalf("IPv6 loopback: %v", err)
	}
}

// TestEchoedKeyStaysOutOfLogsAndErrors: a provider that echoes the key in
// its request id headers and Retry-After gets it into no log line and no
// error, on every adapter's unary and streaming path, whatever the status.
func TestEchoedKeyStaysOutOfLogsAndErrors(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			var logs providertest.Logs
			var e errs
			withLog := func(c *provider.Config) { c.Logger = logs.Logger() }
			for _, reply := range []func(http.ResponseWriter, *http.Request){
				providertest.JSON(429, `{}`),
				providertest.JSON(503, `{}`),
				providertest.JSON(401, `{}`),
				providertest.JSON(200, `{"not":"a response"}`),
			} {
				s := providertest.NewServer(t, providertest.EchoKey(reply))
				c := open(t, f.name, f.env, s.URL+f.prefix, withLog)
				_, err := c.Complete(context.Background(), req)
				if e.add(err) == nil {
					t.Fatal("no error")
				}
				var pe *provider.Error
				if errors.As(err, &pe) && pe.RetryAfter != 0 {
					t.Fatalf("a Retry-After echoing the key became advice: %v", pe.RetryAfter)
				}
				if f.streams {
					_, err = c.Stream(context.Background(), req, nil)
					if e.add(err) == nil {
						t.Fatal("no stream error")
					}
				}
			}
			providertest.NoKey(t, append(e.all, logs.String())...)
			if !strings.Contains(logs.String(), "request_id=[REDACTED]") {
				t.Fatalf("the echoed id is not marked redacted:\n%s", logs.String())
			}
		})
	}
}
