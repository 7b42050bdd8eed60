package sidecar

import (
	"errors"
	"net"
	"sync"
)

// limitListener accepts at most cap(sem) connections at once, as
// golang.org/x/net/netutil.LimitListener does: Accept waits for one to
// close before it takes another from the listener beneath (the kernel
// queues the rest). Unlike netutil's, its connections keep CloseWrite:
// net/http half-closes a connection whose request it refused (431) or
// whose body it left unread, then waits before it closes it, so the client
// reads the response and its end rather than a reset. netutil's wrapper
// hides CloseWrite, and such clients got ECONNRESET instead.
type limitListener struct {
	net.Listener
	sem    chan struct{}
	done   chan struct{} // closed by Close
	closed sync.Once
}

func newLimitListener(l net.Listener, n int) *limitListener {
	return &limitListener{Listener: l, sem: make(chan struct{}, n), done: make(chan struct{})}
}

// Accept waits for a free place, then accepts a connection that frees it
// when closed.
func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		// Closed: the listener beneath fails at once.
		c, err := l.Listener.Accept()
		if err == nil {
			c.Close()
			err = net.ErrClosed
		}
		return nil, err
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

// Close closes the listener beneath and ends every Accept waiting for a
// place.
func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closed.Do(func() { close(l.done) })
	return err
}

// limitConn is a connection of a limitListener.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close closes the connection and frees its place, once.
func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
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
