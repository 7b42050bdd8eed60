package sidecar

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// dialFrom opens a raw TCP connection to addr from the loopback address
// from (127.0.0.2, 127.0.0.3, …: all of 127/8 is loopback).
func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 2 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// holdIdle opens n kept-alive connections from address from, each after
// one GET /health, and returns how many were answered 200 (and are now
// idle) and how many refused with 503 and closed.
func holdIdle(t *testing.T, e *edgeServer, from string, n int) (idle []net.Conn, refused int) {
	t.Helper()
	get := "GET /health HTTP/1.1\r\nHost: " + e.addr + "\r\n\r\n"
	for i := range n {
		c := dialFrom(t, from, e.addr)
		io.WriteString(c, get)
		resp, _, err := readResponse(c, bufio.NewReader(c), 2*time.Second)
		switch {
		case err == nil && resp.StatusCode == 200:
			idle = append(idle, c)
		case err == nil && resp.StatusCode == 503 && resp.Header.Get("Retry-After") != "" && resp.Close:
			refused++
		default:
			t.Fatalf("connection %d from %s: %v %v", i+1, from, resp, err)
		}
	}
	return idle, refused
}

// healthFrom asks GET /health on a new connection from address from and
// reports whether it was answered 200 within d.
func healthFrom(t *testing.T, e *edgeServer, from string, d time.Duration) error {
	t.Helper()
	c := dialFrom(t, from, e.addr)
	io.WriteString(c, "GET /health HTTP/1.1\r\nHost: "+e.addr+"\r\n\r\n")
	resp, _, err := readResponse(c, bufio.NewReader(c), d)
	if err == nil && resp.StatusCode != 200 {
		return errors.New(resp.Status)
	}
	return err
}

// TestEdgeOneAddressCannotTakeEveryConnection: the connection cap was
// global, so with maxConnections 100 one address holding 100 idle
// kept-alive connections kept another address's /health waiting over
// 20 s. Now one address may hold edge.maxConnectionsPerAddress (default
// 64): its 65th to 100th connections are answered 503 with Retry-After
// and closed, and another address is served at once.
func TestEdgeOneAddressCannotTakeEveryConnection(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"maxConnections":100`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	idle, refused := holdIdle(t, e, "127.0.0.2", 100)
	if len(idle) != DefaultMaxConnectionsPerAddress || refused != 100-DefaultMaxConnectionsPerAddress {
		t.Errorf("one address: %d connections kept, %d refused; want %d kept", len(idle), refused, DefaultMaxConnectionsPerAddress)
	}
	if err := healthFrom(t, e, "127.0.0.3", 2*time.Second); err != nil {
		t.Fatalf("another address while one holds %d connections: %v", len(idle), err)
	}
}

// TestEdgeIdleConnectionsGoFirstAtTheCap: with maxConnections 6 and two
// addresses holding three idle kept-alive connections each (their
// per-address cap), the server is full; a third address was not served
// until one of them closed on its own. Now the longest idle connection is
// closed to make room, and the newcomer is served at once.
func TestEdgeIdleConnectionsGoFirstAtTheCap(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"maxConnections":6,"maxConnectionsPerAddress":3`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	a, refusedA := holdIdle(t, e, "127.0.0.2", 3)
	b, refusedB := holdIdle(t, e, "127.0.0.4", 4)
	if len(a) != 3 || len(b) != 3 || refusedA != 0 || refusedB != 1 {
		t.Fatalf("kept %d and %d, refused %d and %d: want 3, 3, 0, 1", len(a), len(b), refusedA, refusedB)
	}
	if err := healthFrom(t, e, "127.0.0.3", 2*time.Second); err != nil {
		t.Fatalf("a third address at the cap: %v", err)
	}
	// The oldest idle connection (a's first) was the one closed.
	a[0].SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := a[0].Read(make([]byte, 1)); err != io.EOF && !errors.Is(err, net.ErrClosed) && !isReset(err) {
		t.Errorf("the longest idle connection: read %v, want it closed", err)
	}
	for _, c := range append(a[1:], b...) {
		c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("another idle connection: read %v, want it still open", err)
		}
	}
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "read"
}

// TestEdgeConnectionsPerAddressConfig: the share is checked when the
// config loads, defaults to 64 (never above maxConnections), and is off
// by default behind a trusted proxy, where every peer is the proxy.
func TestEdgeConnectionsPerAddressConfig(t *testing.T) {
	site := siteJSON("public", "docs", "docs-public", "")
	if _, err := Decode([]byte(`{"sessions":"memory:","edge":{"maxConnectionsPerAddress":-1},"sites":[` + site + `]}`)); err == nil ||
		!strings.Contains(err.Error(), "edge.maxConnectionsPerAddress: must be 1 to 1000000") {
		t.Errorf("a negative share: %v", err)
	}
	for _, tc := range []struct {
		edge     Edge
		maxConns int
		want     int
	}{
		{Edge{}, 1024, 64},
		{Edge{}, 10, 10},
		{Edge{MaxConnsPerAddress: 5}, 1024, 5},
		{Edge{TrustedProxyHeader: "X-Forwarded-For"}, 1024, 0},
		{Edge{TrustedProxyHeader: "X-Forwarded-For", MaxConnsPerAddress: 500}, 1024, 500},
	} {
		if got := tc.edge.connsPerAddress(tc.maxConns); got != tc.want {
			t.Errorf("%+v with maxConnections %d: %d, want %d", tc.edge, tc.maxConns, got, tc.want)
		}
	}
}
