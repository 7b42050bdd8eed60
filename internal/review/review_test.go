package review

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, h http.Handler, method, path string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	resp := rec.Result()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// TestPageIsInertAndStrict: the page holds no evidence and no inline
// script or style, is served with the strict CSP, and names its script
// and stylesheet by digest so they can be cached for good.
func TestPageIsInertAndStrict(t *testing.T) {
	h, err := New()
	if err != nil {
		t.Fatal(err)
	}
	resp, page := get(t, h, "GET", "/review/")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Security-Policy") != CSP || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /review/: %d %v", resp.StatusCode, resp.Header)
	}
	if strings.Contains(page, "style=") || strings.Contains(page, "<style") || regexp.MustCompile(`\son[a-z]+=`).MatchString(page) {
		t.Error("the page has inline style or an event handler")
	}
	scripts := regexp.MustCompile(`<script[^>]*>`).FindAllString(page, -1)
	if len(scripts) != 1 || !strings.Contains(scripts[0], `type="module"`) {
		t.Fatalf("scripts: %q", scripts)
	}
	src := regexp.MustCompile(`src="(/review/[0-9a-f]{12}\.review\.js)"`).FindStringSubmatch(scripts[0])
	css := regexp.MustCompile(`href="(/review/[0-9a-f]{12}\.review\.css)"`).FindStringSubmatch(page)
	if src == nil || css == nil {
		t.Fatalf("asset URLs not digest-named: %q", page[:min(len(page), 600)])
	}
	for path, typ := range map[string]string{src[1]: "text/javascript", css[1]: "text/css"} {
		resp, body := get(t, h, "GET", path)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), typ) ||
			resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || resp.Header.Get("X-Content-Type-Options") != "nosniff" || body == "" {
			t.Errorf("GET %s: %d %v", path, resp.StatusCode, resp.Header)
		}
	}
	if resp, _ := get(t, h, "GET", "/review"); resp.StatusCode != 301 || resp.Header.Get("Location") != "/review/" {
		t.Errorf("GET /review: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, p := range []string{"/review/x.js", "/review/review.js", "/review/../etc/passwd"} {
		if resp, _ := get(t, h, "GET", p); resp.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
		}
	}
	if resp, _ := get(t, h, "POST", "/review/"); resp.StatusCode != 405 {
		t.Errorf("POST /review/: %d", resp.StatusCode)
	}
}
