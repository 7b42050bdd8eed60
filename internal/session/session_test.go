package session

import (
	"context"
	"fmt"
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

func TestMemoryStoreCAS(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore()
	k := Key{SiteID: "s", Subject: "u", SessionID: "1"}
	if r, err := s.Load(ctx, k); err != nil || r.Revision != 0 || r.Messages != nil {
		t.Fatalf("empty load %+v %v", r, err)
	}
	if ok, _ := s.Save(ctx, k, Record{Revision: 1, Messages: msgs("a")}, 1); ok {
		t.Fatal("saved with a wrong expected revision")
	}
	if ok, _ := s.Save(ctx, k, Record{Revision: 1, Messages: msgs("a")}, 0); !ok {
		t.Fatal("first save refused")
	}
	if ok, _ := s.Save(ctx, k, Record{Revision: 2}, 0); ok {
		t.Fatal("stale save accepted")
	}
	r, _ := s.Load(ctx, k)
	r.Messages[0].Content = "mutated"
	if r2, _ := s.Load(ctx, k); r2.Revision != 1 || r2.Messages[0].Content != "a" {
		t.Fatalf("store aliased: %+v", r2)
	}
	if _, err := s.Load(ctx, Key{SiteID: "s", Subject: "other", SessionID: "1"}); err != nil {
		t.Fatal(err)
	}
}

func TestMemoryStoreEvictsLeastRecentlyWritten(t *testing.T) {
	ctx := context.Background()
	m := NewMemoryStore()
	// One subject each, so only the count bound is in play.
	key := func(i int) Key { return Key{SiteID: "s", Subject: fmt.Sprintf("anon:%d", i), SessionID: "k"} }
	rec := func(rev int) Record { return Record{Revision: rev} }
	for i := 0; i < MaxMemorySessions; i++ {
		if ok, err := m.Save(ctx, key(i), rec(1), 0); !ok || err != nil {
			t.Fatal(i, ok, err)
		}
	}
	m.Save(ctx, key(0), rec(2), 1) // k0 is now the most recently written
	m.Save(ctx, key(MaxMemorySessions), rec(1), 0)
	if r, _ := m.Load(ctx, key(1)); r.Revision != 0 {
		t.Errorf("k1 (oldest) not evicted: %+v", r)
	}
	for _, i := range []int{0, 2, MaxMemorySessions} {
		if r, _ := m.Load(ctx, key(i)); r.Revision == 0 {
			t.Errorf("k%d evicted", i)
		}
	}
}
