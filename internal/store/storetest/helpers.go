package storetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// Key returns a key unique to the test, so suites can share storage.
func Key(t testing.TB, id string) session.Key {
	return session.Key{SiteID: "site-a", Subject: "anon:" + sanitize(t.Name()), SessionID: id}
}

func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '.'
	}, name)
}

// Messages returns n alternating user/assistant turns tagged with tag.
func Messages(tag string, n int) []protocol.AskMessage {
	out := make([]protocol.AskMessage, n)
	for i := range out {
		role := protocol.RoleUser
		if i%2 == 1 {
			role = protocol.RoleAssistant
		}
		out[i] = protocol.AskMessage{Role: role, Content: fmt.Sprintf("%s turn %d", tag, i)}
	}
	return out
}

// MustSave saves and fails the test on an error or an unexpected outcome.
func MustSave(t testing.TB, s session.Store, k session.Key, r session.Record, expected int, want bool) {
	t.Helper()
	ok, err := s.Save(t.Context(), k, r, expected)
	if err != nil {
		t.Fatalf("Save(rev %d, expected %d): %v", r.Revision, expected, err)
	}
	if ok != want {
		t.Fatalf("Save(rev %d, expected %d) = %v, want %v", r.Revision, expected, ok, want)
	}
}

// MustLoad loads and fails the test on an error.
func MustLoad(t testing.TB, s session.Store, k session.Key) session.Record {
	t.Helper()
	r, err := s.Load(t.Context(), k)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return r
}

// Equal fails the test unless got is want, message for message.
func Equal(t testing.TB, got, want session.Record) {
	t.Helper()
	if got.Revision != want.Revision {
		t.Fatalf("revision = %d, want %d", got.Revision, want.Revision)
	}
	if len(got.Messages) != len(want.Messages) {
		t.Fatalf("%d messages, want %d", len(got.Messages), len(want.Messages))
	}
	for i := range want.Messages {
		g, w := got.Messages[i], want.Messages[i]
		if g.Role != w.Role {
			t.Fatalf("message %d: role %q, want %q", i, g.Role, w.Role)
		}
		if g.Content != w.Content {
			t.Fatalf("message %d: content of %d bytes differs from the %d bytes saved, from byte %d on",
				i, len(g.Content), len(w.Content), firstDiff(g.Content, w.Content))
		}
	}
}

func firstDiff(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}
