package sidecar

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
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

// openConns counts the connections of cs the server has not closed: a
// read that times out (nothing to read, not closed) counts as open.
func openConns(t *testing.T, cs []net.Conn) (open []bool, n int) {
	t.Helper()
	open = make([]bool, len(cs))
	errs := make([]error, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
			_, errs[i] = c.Read(make([]byte, 1))
		})
	}
	wg.Wait()
	for i, err := range errs {
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			open[i] = true
			n++
		case err == io.EOF || errors.Is(err, syscall.ECONNRESET):
		default:
			t.Fatalf("reading an idle connection: %v", err)
		}
	}
	return open, n
}

// stallFrom opens n connections from address from, each a question whose
// body stalls in its handler (busy until edge.bodyTimeout), and returns
// how many the server refused with 503 and Retry-After.
func stallFrom(t *testing.T, e *edgeServer, from string, n int) (refused int) {
	t.Helper()
	for range n {
		c := dialFrom(t, from, e.addr)
		fmt.Fprintf(c, "POST /v1/ask HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", e.addr)
		resp, _, err := readResponse(c, bufio.NewReader(c), 300*time.Millisecond)
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			// busy in its handler
		case err == nil && resp.StatusCode == 503 && resp.Header.Get("Retry-After") == "1" && resp.Close:
			refused++
		default:
			t.Fatalf("a stalled question from %s: %v %v", from, resp, err)
		}
	}
	return refused
}

// TestEdgeOneAddressCannotTakeEveryConnection: the connection cap was
// global, so with maxConnections 100 one address holding 100 idle
// kept-alive connections kept another address's /health waiting over
// 20 s. Now one address holds at most edge.maxConnectionsPerAddress
// (default 64): each connection past it takes the place of the address's
// own longest idle one, so 64 of its 100 are still open at the end, and
// another address is served at once.
func TestEdgeOneAddressCannotTakeEveryConnection(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"maxConnections":100`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	idle, refused := holdIdle(t, e, "127.0.0.2", 100)
	if _, n := openConns(t, idle); len(idle) != 100 || refused != 0 || n != DefaultMaxConnectionsPerAddress {
		t.Errorf("one address: %d of 100 connections served, %d refused, %d still open; want 100, 0 and %d", len(idle), refused, n, DefaultMaxConnectionsPerAddress)
	}
	if err := healthFrom(t, e, "127.0.0.3", 2*time.Second); err != nil {
		t.Fatalf("another address while one holds its share: %v", err)
	}
}

// TestEdgeBusyAddressIsRefusedPastItsShare: an address whose share (3)
// of connections are all busy gets 503 with Retry-After for the next
// ones, at once, while another address is served.
func TestEdgeBusyAddressIsRefusedPastItsShare(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"maxConnections":10,"maxConnectionsPerAddress":3`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	if refused := stallFrom(t, e, "127.0.0.2", 5); refused != 2 {
		t.Fatalf("5 busy connections from one address with a share of 3: %d refused, want 2", refused)
	}
	if err := healthFrom(t, e, "127.0.0.3", 2*time.Second); err != nil {
		t.Fatalf("another address: %v", err)
	}
}

// TestEdgeIdleConnectionsGoFirstAtTheCap: with maxConnections 6 and two
// addresses holding three idle kept-alive connections each (their
// per-address share), the server is full; a third address was not
// served until one of them closed on its own. Now the longest idle
// connection is closed to make room, and the newcomer is served at once;
// the other five stay open.
func TestEdgeIdleConnectionsGoFirstAtTheCap(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"maxConnections":6,"maxConnectionsPerAddress":3`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	a, _ := holdIdle(t, e, "127.0.0.2", 3)
	time.Sleep(20 * time.Millisecond) // a's are idle longer than b's
	b, _ := holdIdle(t, e, "127.0.0.4", 3)
	if len(a) != 3 || len(b) != 3 {
		t.Fatalf("kept %d and %d, want 3 and 3", len(a), len(b))
	}
	if err := healthFrom(t, e, "127.0.0.3", 2*time.Second); err != nil {
		t.Fatalf("a third address at the cap: %v", err)
	}
	openA, n := openConns(t, a)
	if _, m := openConns(t, b); n != 2 || m != 3 {
		t.Errorf("open after the newcomer: %d of a's (%v) and %d of b's, want 2 and 3: one of the longest idle closed", n, openA, m)
	}
}

// TestEdgeConnectionsPerAddressConfig: the share is checked when the
// config loads, defaults to 64 (never above maxConnections), and is off
// by default behind a trusted proxy, where every peer is the proxy.
func TestEdgeConnectionsPerAddressConfig(t *testing.T) {
	site := siteJSON("public", "docs", "docs-public", "")
	if _, err := decodeChecked([]byte(`{"sessions":"memory:","edge":{"maxConnectionsPerAddress":-1},"sites":[` + site + `]}`)); err == nil ||
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
