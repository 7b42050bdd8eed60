package sidecar

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/askplane/askplane/internal/limit"
)

// limitListener accepts at most cap(sem) connections at once, and at most
// perAddr from one client address (the TCP peer, grouped as per-address
// rate limits group it: IPv4 alone, IPv6 by /64).
//
// At the cap it does not simply wait, as golang.org/x/net/netutil's
// LimitListener does (a client holding every place with idle keep-alive
// connections kept everyone else waiting): it closes the connection idle
// the longest (kept alive with no request, or opened and silent for
// newGrace), then accepts. Only when every connection is busy does
// Accept wait for one to close (the kernel queues the rest).
//
// A connection past an address's share takes the place of that
// address's own longest idle connection, if it has one; otherwise (all
// of them busy) it is answered at once with a 503 (Retry-After,
// Connection: close) and closed, without reaching the server, and holds
// no place.
//
// Unlike netutil's, its connections keep CloseWrite: net/http half-closes
// a connection whose request it refused (431) or whose body it left
// unread, then waits before it closes it, so the client reads the
// response and its end rather than a reset. netutil's wrapper hides
// CloseWrite, and such clients got ECONNRESET instead.
type limitListener struct {
	net.Listener
	sem     chan struct{}
	perAddr int           // 0: no per-address cap
	idleNow chan struct{} // a connection went idle (buffered, 1)
	done    chan struct{} // closed by Close
	closed  sync.Once

	mu       sync.Mutex
	byAddr   map[netip.Prefix]int
	conns    map[*limitConn]struct{}
	refusing int // refusals being written
}

// newGrace is how long a new connection may stay silent before, at the
// cap, it counts as idle.
const newGrace = time.Second

// maxRefusing bounds the refusals being written at once; past it a
// refused connection is closed without a response.
const maxRefusing = 64

// connRefusal is the whole response to a connection past its address's
// share.
const connRefusal = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: 45\r\n\r\ntoo many open connections from this address\r\n"

func newLimitListener(l net.Listener, n, perAddr int) *limitListener {
	return &limitListener{Listener: l, sem: make(chan struct{}, n), perAddr: perAddr,
		idleNow: make(chan struct{}, 1), done: make(chan struct{}),
		byAddr: map[netip.Prefix]int{}, conns: map[*limitConn]struct{}{}}
}

// Accept accepts a connection that frees its place when closed. With a
// place free it takes it; at the cap, once a connection is idle it
// accepts the next one, checks its address's share, and only then closes
// the idle one to make room (a refused connection costs nobody theirs).
// A connection past its address's share is refused and the next one
// accepted.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		placed, err := l.ready()
		if err != nil {
			return nil, err
		}
		c, err := l.Listener.Accept()
		if err != nil {
			if placed {
				<-l.sem
			}
			return nil, err
		}
		key := peerKey(c.RemoteAddr())
		l.mu.Lock()
		over := l.perAddr > 0 && key.IsValid() && l.byAddr[key] >= l.perAddr
		l.mu.Unlock()
		if over {
			// Its own longest idle connection makes room for it, if it
			// has one.
			closed, _ := l.closeIdleOf(key)
			over = !closed
		}
		if over {
			if placed {
				<-l.sem
			}
			l.refuse(c)
			continue
		}
		if !placed {
			if err := l.makeRoom(); err != nil {
				c.Close()
				return nil, err
			}
		}
		lc := &limitConn{Conn: c, l: l, key: key, state: http.StateNew, since: time.Now()}
		l.mu.Lock()
		l.byAddr[key]++
		l.conns[lc] = struct{}{}
		l.mu.Unlock()
		return lc, nil
	}
}

// ready takes a free place (true), or returns false once the server is
// full but holds a connection that could be closed to make room; with
// every connection busy it waits.
func (l *limitListener) ready() (bool, error) {
	for {
		select {
		case l.sem <- struct{}{}:
			return true, nil
		default:
		}
		ok, wait := l.idle()
		if ok {
			return false, nil
		}
		if placed, err := l.wait(wait); placed || err != nil {
			return placed, err
		}
	}
}

// makeRoom takes a place, closing the connection idle the longest to free
// one; with every connection busy it waits.
func (l *limitListener) makeRoom() error {
	for {
		select {
		case l.sem <- struct{}{}:
			return nil
		default:
		}
		closed, wait := l.closeIdle()
		if closed {
			continue
		}
		if placed, err := l.wait(wait); placed || err != nil {
			return err
		}
	}
}

// wait waits up to d (0: with no bound) for a place (taken: true), a
// connection going idle, or Close (net.ErrClosed, or the error of the
// listener beneath).
func (l *limitListener) wait(d time.Duration) (bool, error) {
	var timer <-chan time.Time
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		timer = t.C
	}
	select {
	case l.sem <- struct{}{}:
		return true, nil
	case <-l.idleNow:
	case <-timer:
	case <-l.done:
		// Closed: the listener beneath fails at once.
		c, err := l.Listener.Accept()
		if err == nil {
			c.Close()
			err = net.ErrClosed
		}
		return false, err
	}
	return false, nil
}

// oldestIdle returns the connection idle the longest: kept alive with no
// request, or new and silent for newGrace. With none, it returns how
// long until the oldest new connection's grace passes (0: none is new).
// A valid of limits the choice to that address's connections. l.mu is
// held.
func (l *limitListener) oldestIdle(now time.Time, of netip.Prefix) (*limitConn, time.Duration) {
	var idle, fresh *limitConn
	for c := range l.conns {
		if of.IsValid() && c.key != of {
			continue
		}
		switch c.state {
		case http.StateIdle:
			if idle == nil || c.since.Before(idle.since) {
				idle = c
			}
		case http.StateNew:
			if fresh == nil || c.since.Before(fresh.since) {
				fresh = c
			}
		}
	}
	if idle == nil && fresh != nil {
		if left := newGrace - now.Sub(fresh.since); left > 0 {
			return nil, left
		}
		idle = fresh
	}
	return idle, 0
}

// idle reports whether a connection could be closed to make room, or how
// long until one could.
func (l *limitListener) idle() (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, wait := l.oldestIdle(time.Now(), netip.Prefix{})
	return c != nil, wait
}

// closeIdle closes the connection idle the longest, if there is one, or
// returns how long until one could be.
func (l *limitListener) closeIdle() (closed bool, wait time.Duration) {
	return l.closeIdleOf(netip.Prefix{})
}

// closeIdleOf is closeIdle among the connections of one address (all of
// them for the zero Prefix).
func (l *limitListener) closeIdleOf(of netip.Prefix) (closed bool, wait time.Duration) {
	l.mu.Lock()
	c, wait := l.oldestIdle(time.Now(), of)
	if c == nil {
		l.mu.Unlock()
		return false, wait
	}
	c.state = http.StateClosed // chosen: never chosen twice
	l.mu.Unlock()
	c.Close() // frees its place
	return true, 0
}

// connState is the server's ConnState hook: it records which connections
// are idle, and wakes an Accept waiting for one.
func (l *limitListener) connState(c net.Conn, s http.ConnState) {
	lc, ok := c.(*limitConn)
	if !ok {
		return
	}
	l.mu.Lock()
	if lc.state != http.StateClosed {
		lc.state, lc.since = s, time.Now()
	}
	l.mu.Unlock()
	if s == http.StateIdle {
		select {
		case l.idleNow <- struct{}{}:
		default:
		}
	}
}

// refuse answers c with connRefusal and closes it, reading what the
// client sends for up to a second so that it reads the response rather
// than a reset.
func (l *limitListener) refuse(c net.Conn) {
	l.mu.Lock()
	if l.refusing >= maxRefusing {
		l.mu.Unlock()
		c.Close()
		return
	}
	l.refusing++
	l.mu.Unlock()
	go func() {
		defer func() {
			c.Close()
			l.mu.Lock()
			l.refusing--
			l.mu.Unlock()
		}()
		c.SetDeadline(time.Now().Add(time.Second))
		if _, err := io.WriteString(c, connRefusal); err != nil {
			return
		}
		if cw, ok := c.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		io.Copy(io.Discard, io.LimitReader(c, 64<<10))
	}()
}

// Close closes the listener beneath and ends every Accept waiting for a
// place.
func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closed.Do(func() { close(l.done) })
	return err
}

// peerKey is the address group a connection's peer counts as, or the
// zero Prefix.
func peerKey(a net.Addr) netip.Prefix {
	if ta, ok := a.(*net.TCPAddr); ok {
		return limit.Group(ta.AddrPort().Addr())
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.Prefix{}
	}
	return limit.Group(ap.Addr())
}

// limitConn is a connection of a limitListener.
type limitConn struct {
	net.Conn
	l    *limitListener
	key  netip.Prefix
	once sync.Once
	// state and since (guarded by l.mu) are the server's last ConnState
	// and when it was reported; StateClosed once chosen to be closed.
	state http.ConnState
	since time.Time
}

// Close closes the connection and frees its place, once.
func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		l := c.l
		l.mu.Lock()
		if l.byAddr[c.key]--; l.byAddr[c.key] <= 0 {
			delete(l.byAddr, c.key)
		}
		delete(l.conns, c)
		l.mu.Unlock()
		<-l.sem
	})
	return err
}

// CloseWrite shuts the sending side of the connection beneath (a TCP
// connection's), as net/http expects of a connection it half-closes.
func (c *limitConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}
