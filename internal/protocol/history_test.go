package protocol

import (
	"slices"
	"testing"
)

func msgs(turns ...string) []AskMessage {
	var out []AskMessage
	for i, c := range turns {
		role := RoleUser
		if i%2 == 1 {
			role = RoleAssistant
		}
		out = append(out, AskMessage{Role: role, Content: c})
	}
	return out
}

func contents(list []AskMessage) []string {
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
		stored, submitted []AskMessage
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
		{"no user", nil, []AskMessage{{Role: RoleAssistant, Content: "a"}}, nil, "", false},
	}
	for _, c := range cases {
		got, q, ok := MergeAskHistory(c.stored, c.submitted)
		if ok != c.ok || q != c.question || !slices.Equal(contents(got), c.want) {
			t.Errorf("%s: %v %q %v", c.name, contents(got), q, ok)
		}
	}
}
