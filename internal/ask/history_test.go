package ask

import (
	"slices"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

func msgs(turns ...string) []protocol.AskMessage {
	var out []protocol.AskMessage
	for i, c := range turns {
		role := protocol.RoleUser
		if i%2 == 1 {
			role = protocol.RoleAssistant
		}
		out = append(out, protocol.AskMessage{Role: role, Content: c})
	}
	return out
}

func contents(list []protocol.AskMessage) []string {
	var out []string
	for _, m := range list {
		out = append(out, m.Content)
	}
	return out
}

func TestMergeHistory(t *testing.T) {
	long := make([]string, 64)
	for i := range long {
		long[i] = "t"
	}
	cases := []struct {
		name              string
		stored, submitted []protocol.AskMessage
		want              []string
		question          string
		ok                bool
	}{
		{"new", nil, msgs(" hi "), []string{" hi "}, "hi", true},
		{"append, client history ignored", msgs("first", "history:1"), msgs("x", "y", "second"), []string{"first", "history:1", "second"}, "second", true},
		{"retried turn kept", msgs("a", "b", "c"), msgs("c"), []string{"a", "b", "c"}, "c", true},
		{"last user turn", nil, msgs("q", "trailing answer"), []string{"q"}, "q", true},
		{"cut to 64", msgs(long...), msgs("new"), append(slices.Clone(long[1:]), "new"), "new", true},
		{"blank", nil, msgs("  "), nil, "", false},
		{"no user", nil, []protocol.AskMessage{{Role: protocol.RoleAssistant, Content: "a"}}, nil, "", false},
	}
	for _, c := range cases {
		got, q, ok := mergeHistory(c.stored, c.submitted)
		if ok != c.ok || q != c.question || !slices.Equal(contents(got), c.want) {
			t.Errorf("%s: %v %q %v", c.name, contents(got), q, ok)
		}
	}
}

// TestMemoryStoreEvictsLeastRecentlyWritten: past MaxMemorySessions the
// session written longest ago goes; one written again recently stays.
