package lambdahttp

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// TestRoundTrip: a base64 body, an escaped path, the query, repeated
// cookies and the client address reach the handler as net/http would
// give them; a binary body returns base64 and Set-Cookie values come
// back one by one.
func TestRoundTrip(t *testing.T) {
	var got *http.Request
	var body string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Add("Set-Cookie", "b=2")
		w.Header().Set("Content-Type", "image/png")
		w.WriteHeader(201)
		w.Write([]byte{0x89, 'P', 'N', 'G'})
	})
	ev := events.APIGatewayV2HTTPRequest{RawPath: "/a%20b/c", RawQueryString: "x=1&y=%2F", Body: base64.StdEncoding.EncodeToString([]byte("hello")),
		IsBase64Encoded: true, Cookies: []string{"s=1", "t=2"}, Headers: map[string]string{"host": "h.example", "x-thing": "a, b"}}
	ev.RequestContext.HTTP.Method = "PUT"
	ev.RequestContext.HTTP.SourceIP = "2001:db8::1"
	res, err := Handler(h)(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	if got.Method != "PUT" || got.URL.Path != "/a b/c" || got.URL.Query().Get("y") != "/" || got.Host != "h.example" || body != "hello" ||
		got.Header.Get("Cookie") != "s=1; t=2" || got.Header.Get("X-Thing") != "a, b" || got.RemoteAddr != "[2001:db8::1]:0" || got.ContentLength != 5 {
		t.Errorf("request: %s %s %q host %s body %q cookie %q addr %s", got.Method, got.URL.Path, got.URL.RawQuery, got.Host, body, got.Header.Get("Cookie"), got.RemoteAddr)
	}
	if res.StatusCode != 201 || !res.IsBase64Encoded || res.Body != base64.StdEncoding.EncodeToString([]byte{0x89, 'P', 'N', 'G'}) ||
		len(res.Cookies) != 2 || res.Cookies[1] != "b=2" || res.Headers["Set-Cookie"] != "" {
		t.Errorf("response: %+v", res)
	}
	// An event that is no HTTP request is refused, not served.
	if _, err := Handler(h)(context.Background(), events.APIGatewayV2HTTPRequest{}); err != ErrEvent {
		t.Errorf("empty event: %v", err)
	}
}

// TestNetlifyEvent: a REST-API-shaped event as Netlify delivers it, on
// the function's own path, reaches the handler at the sidecar's path
// with its query, cookies and client address, and its cookies come back
// as Set-Cookie values.
func TestNetlifyEvent(t *testing.T) {
	var got *http.Request
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.Header().Add("Set-Cookie", "a=1")
		w.Header().Set("Content-Type", "application/x-ndjson")
		io.WriteString(w, `{"type":"done"}`+"\n")
	})
	raw := []byte(`{"path":"/.netlify/functions/askplane/v1/ask","httpMethod":"POST","headers":{"host":"docs.example.com","cookie":"s=1; t=2","content-type":"application/json"},` +
		`"queryStringParameters":{"corpus":"docs-en"},"body":"{}","isBase64Encoded":false,"requestContext":{"identity":{"sourceIp":"203.0.113.9"}}}`)
	out, err := AnyHandler(h)(context.Background(), raw)
	if err != nil {
		t.Fatal(err)
	}
	res, ok := out.(events.APIGatewayProxyResponse)
	if !ok {
		t.Fatalf("answered with %T", out)
	}
	if got.URL.Path != "/v1/ask" || got.URL.Query().Get("corpus") != "docs-en" || got.Header.Get("Cookie") != "s=1; t=2" || got.RemoteAddr != "203.0.113.9:0" || got.Host != "docs.example.com" {
		t.Errorf("request: %s %q cookie %q addr %s host %s", got.URL.Path, got.URL.RawQuery, got.Header.Get("Cookie"), got.RemoteAddr, got.Host)
	}
	if res.StatusCode != 200 || res.Body != `{"type":"done"}`+"\n" || res.IsBase64Encoded || len(res.MultiValueHeaders["Set-Cookie"]) != 1 {
		t.Errorf("response: %+v", res)
	}
}
