package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseEndpoint(t *testing.T) {
	ok := map[string]string{
		"https://api.openai.com/v1":  "https://api.openai.com/v1/",
		"https://api.deepseek.com":   "https://api.deepseek.com/",
		"http://127.0.0.1:11434/v1":  "http://127.0.0.1:11434/v1/",
		"http://127.3.4.5/":          "http://127.3.4.5/",
		"http://[::1]:8080/v1/":      "http://[::1]:8080/v1/",
		"http://[::ffff:127.0.0.1]/": "http://[::ffff:127.0.0.1]/",
	}
	for in, want := range ok {
		u, err := ParseEndpoint(in)
		if err != nil || u.String() != want {
			t.Errorf("%s: %v %v", in, u, err)
		}
	}
	for _, in := range []string{
		"", "http://localhost:11434/v1", "http://10.0.0.1/", "http://api.openai.com/", "http://[::2]/",
		"ftp://127.0.0.1/", "https://user:pw@api.openai.com/", "https://api.openai.com/?k=v",
		"https://api.openai.com/#f", "https:///v1", "mailto:x@y", "http://0.0.0.0/",
	} {
		if _, err := ParseEndpoint(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	cases := map[string]time.Duration{
		"2": 2 * time.Second, "0": 0, " 120 ": 2 * time.Minute, "86400": 24 * time.Hour,
		"86401": 0, "-1": 0, "1.5": 0, "soon": 0, "": 0, "99999999999999999999": 0,
		now.Add(30 * time.Second).Format(http.TimeFormat): 30 * time.Second,
		now.Add(-time.Minute).Format(http.TimeFormat):     0,
		now.Add(48 * time.Hour).Format(http.TimeFormat):   0,
	}
	for in, want := range cases {
		if got := ParseRetryAfter(in, now); got != want {
			t.Errorf("%q: got %v want %v", in, got, want)
		}
	}
}

func TestCredentialRedactsEverywhere(t *testing.T) {
	const key = "sk-live-abcdef0123456789"
	c, err := LoadCredential("K", func(string) string { return key })
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Provider: "openai", Model: "m", APIKeyEnv: "K", Credential: c}
	js, _ := json.Marshal(cfg)
	tx, _ := c.MarshalText()
	out := fmt.Sprintf("%v %+v %#v %s %q %x %X %d", c, c, c, c, c, c, c, c) +
		fmt.Sprintf("%v %+v %#v", cfg, cfg, cfg) + fmt.Sprintf("%v", &cfg) + string(js) + string(tx)
	if strings.Contains(out, key) || strings.Contains(out, "abcdef") {
		t.Fatalf("key leaked: %s", out)
	}
	if !strings.Contains(out, "[REDACTED]") {
		t.Fatal("no redaction marker")
	}
	h := http.Header{}
	c.apply(h, Auth{Header: "Authorization", Prefix: "Bearer "})
	if h.Get("Authorization") != "Bearer "+key {
		t.Fatal("apply does not set the key")
	}
	for _, bad := range []string{"", "has space", "tab\tkey", "new\nline", "ключ", strings.Repeat("k", 8193)} {
		if _, err := LoadCredential("K", func(string) string { return bad }); err == nil {
			t.Errorf("accepted %q", bad)
		} else if bad != "" && strings.Contains(err.Error(), bad) {
			t.Errorf("error echoes the value")
		}
	}
}

func TestLimitsValidate(t *testing.T) {
	if err := (Limits{}).Validate(); err != nil {
		t.Fatal(err)
	}
	for _, l := range []Limits{
		{MaxRequestBytes: -1},
		{MaxResponseBytes: HardLimits.MaxResponseBytes + 1},
		{MaxSSELineBytes: 4096, MaxSSEEventBytes: 1024},
		{MaxSSEEventBytes: 4096, MaxStreamBytes: 1024},
		{ConnectTimeout: time.Hour},
	} {
		if err := l.Validate(); err == nil {
			t.Errorf("accepted %+v", l)
		}
	}
}

func TestPrepareChecksBeforeIO(t *testing.T) {
	p := Profile{Name: "openai", StructuredOutput: true, MaxSchemaBytes: 64}
	cfg := Config{Model: "m", MaxOutputTokens: 100}
	ok := Request{Input: "x", Output: &OutputSchema{Name: "a_b-1", Schema: []byte(`{"type":"object"}`)}}
	c, err := Prepare(ok, cfg, p)
	if err != nil || c.Model != "m" || c.MaxOutputTokens != 100 {
		t.Fatalf("%+v %v", c, err)
	}
	for name, r := range map[string]Request{
		"empty input":    {},
		"bad utf8":       {Input: "\xff"},
		"bad name":       {Input: "x", Output: &OutputSchema{Name: "a b", Schema: []byte(`{}`)}},
		"array schema":   {Input: "x", Output: &OutputSchema{Name: "a", Schema: []byte(`[]`)}},
		"invalid json":   {Input: "x", Output: &OutputSchema{Name: "a", Schema: []byte(`{"a":`)}},
		"schema too big": {Input: "x", Output: &OutputSchema{Name: "a", Schema: []byte(`{"description":"` + strings.Repeat("d", 80) + `"}`)}},
		"tokens":         {Input: "x", MaxOutputTokens: -1},
	} {
		if _, err := Prepare(r, cfg, p); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if _, err := Prepare(ok, cfg, Profile{Name: "x"}); err == nil {
		t.Error("schema accepted by a profile without structured output")
	}
}

func TestCheckJSON(t *testing.T) {
	for _, ok := range []string{`{}`, `[]`, `{"a":{"a":1},"b":[{"a":1},{"a":2}]}`, `"s"`, ` 1 `} {
		if err := CheckJSON([]byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{`{"a":1,"a":2}`, `{"x":{"b":1,"b":1}}`, `{} {}`, `{"a":`, strings.Repeat("[", 65) + strings.Repeat("]", 65), ``} {
		if err := CheckJSON([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestProviderValuesCarryingTheKeyAreDropped(t *testing.T) {
	const key = "sk-live-abcdef0123456789XYZ"
	c, err := LoadCredential("K", func(string) string { return key })
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{key, "Bearer " + key, "req_" + key[:16], strings.ToUpper(key[4:]), "x" + key[10:] + "y", strings.Repeat("a", maxLeakCheckBytes+1)} {
		if !c.leaks(v) {
			t.Errorf("%q not caught", v)
		}
	}
	for _, v := range []string{"", "req_011CSabc", "sk-live-", "0123456789"} {
		if c.leaks(v) {
			t.Errorf("%q caught", v)
		}
	}
	if (Credential{}).leaks(key) {
		t.Error("an unset credential matched")
	}

	tr := &Transport{cred: c, idHeader: []string{"request-id", "x-request-id"}}
	for _, tc := range []struct {
		first, second, want string
	}{
		{"req_1", "req_2", "req_1"},
		{"", "req_2", "req_2"},
		{key, "req_2", redacted},
		{"req_" + key[:20], "", redacted},
		{"Bearer " + key, "req_2", "req_2"}, // not a request id: skipped, never kept
		{"a b", "id/with/slash", ""},
		{strings.Repeat("r", MaxRequestIDBytes+1), "ok-1:2.3", "ok-1:2.3"},
		{"\x1b[31mred", "", ""},
	} {
		h := http.Header{}
		h.Set("request-id", tc.first)
		h.Set("x-request-id", tc.second)
		if got := tr.requestID(h); got != tc.want {
			t.Errorf("%q,%q: got %q want %q", tc.first, tc.second, got, tc.want)
		}
	}
	h := http.Header{}
	h.Set("Retry-After", "12")
	if tr.retryAfter(h) != 12*time.Second {
		t.Error("plain advice lost")
	}
	h.Set("Retry-After", key)
	if tr.retryAfter(h) != 0 || tr.scrub(key) != redacted || tr.scrub("gpt-x") != "gpt-x" {
		t.Error("a value carrying the key was kept")
	}
}
