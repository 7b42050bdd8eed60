package fakesite

import (
	"strings"
	"sync"
)

// Buffer collects what a child process writes (its stdout or stderr)
// while a test reads it: a strings.Builder safe for that.
type Buffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
