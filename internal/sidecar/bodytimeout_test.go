package sidecar

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Issue 25: /mcp, /v1/feedback and /v1/sessions/{id}/forget ignored
// edge.bodyTimeout: a body sent at a byte a second was held until the
// server's whole-request ReadTimeout (readHeaderTimeout + bodyTimeout, 13 s
// at a 3 s setting). Every route that may get a body now lets it take at
// most bodyTimeout: a stalled body is answered or its connection closed
// about a second after it stalled, with bodyTimeout 1s and
// readHeaderTimeout 10s.
func TestEveryBodyRouteKeepsBodyTimeout(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"bodyTimeout":"1s","readHeaderTimeout":"10s"`,
		siteJSON(edgePublic(t), "docs", "docs-public", `,"feedback":true`)))
	// A subject's cookie, for the routes that need one.
	resp, err := http.Post(e.url+"/v1/ask", "application/json", strings.NewReader(askJSON("how do I install askplane?")))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	var cookie string
	for _, c := range resp.Cookies() {
		cookie = c.Name + "=" + c.Value
	}
	if cookie == "" {
		t.Fatal("no subject cookie minted")
	}
	for _, path := range []string{"/mcp", "/v1/feedback?corpus=docs-public", "/v1/sessions/s1/forget"} {
		t.Run(path, func(t *testing.T) {
			c := dialRaw(t, e.addr)
			start := time.Now()
			fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{", path, e.addr, cookie)
			br := bufio.NewReader(c)
			resp, _, err := readResponse(c, br, 6*time.Second)
			if err == nil {
				// Answered: the connection must not wait for the rest.
				c.SetReadDeadline(time.Now().Add(6 * time.Second))
				_, err = br.ReadByte()
			}
			took := time.Since(start)
			if err == nil || took > 3*time.Second {
				status := 0
				if resp != nil {
					status = resp.StatusCode
				}
				t.Fatalf("a stalled body on %s: status %d, connection held %v (%v); want it closed within about 1 s", path, status, took.Round(time.Millisecond), err)
			}
			t.Logf("%s: closed after %v", path, took.Round(time.Millisecond))
		})
	}
}
