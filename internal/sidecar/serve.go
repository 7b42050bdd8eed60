package sidecar

import (
	"context"
	"errors"
	"net"
	"net/http"
)

// HTTPServer returns an http.Server for s with the edge's bounds: header
// and whole-request read deadlines (the Ask handler moves its own past the
// request deadline once the body is read, never to none), an idle
// timeout and a header size cap. There is deliberately no WriteTimeout:
// answers stream for up to the site's requestTimeoutMs, which the Ask
// handler enforces itself.
func (s *Server) HTTPServer() *http.Server {
	e := &s.cfg.Edge
	readHeader := e.ReadHeaderTimeout.or(DefaultReadHeaderTimeout)
	maxHeader := e.MaxHeaderBytes
	if maxHeader == 0 {
		maxHeader = DefaultMaxHeaderBytes
	}
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: readHeader,
		ReadTimeout:       readHeader + e.BodyTimeout.or(DefaultBodyTimeout),
		IdleTimeout:       e.IdleTimeout.or(DefaultIdleTimeout),
		MaxHeaderBytes:    maxHeader,
		ErrorLog:          nil,
	}
}

// Serve serves s on ln, at most maxConnections at once (closing the
// longest idle at the cap) and maxConnectionsPerAddress from one address,
// until ctx is done.
// Then it shuts down gracefully: it stops accepting, ends every answer in
// flight with a terminal, retryable error event (Drain), and waits up to
// shutdownTimeout for the handlers to return. Durable runs this instance
// executes get half of shutdownTimeout to finish; the rest are handed on
// to another instance (durable.Worker.Shutdown). It returns nil after a clean
// shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	if ln == nil {
		return errNoListener
	}
	maxConns := s.cfg.Edge.MaxConnections
	if maxConns == 0 {
		maxConns = DefaultMaxConnections
	}
	ll := newLimitListener(ln, maxConns, s.cfg.Edge.connsPerAddress(maxConns))
	srv := s.HTTPServer()
	srv.ConnState = ll.connState
	done := make(chan error, 1)
	go func() {
		<-ctx.Done()
		s.Drain()
		timeout := s.cfg.Edge.ShutdownTimeout.or(DefaultShutdownTimeout)
		shutdown, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		runs := make(chan struct{})
		go func() {
			defer close(runs)
			s.shutdownRuns(timeout / 2)
		}()
		err := srv.Shutdown(shutdown)
		<-runs
		done <- err
	}()
	if err := srv.Serve(ll); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-done
}
