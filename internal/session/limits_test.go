package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

func TestSizeIsTheStoredJSONLength(t *testing.T) {
	for _, c := range []struct {
		msgs []protocol.AskMessage
		json string
	}{
		{nil, `[]`},
		{msgs("a"), `[{"role":"user","content":"a"}]`},
		{msgs("q", "a\n\"\\\x01é😀"), `[{"role":"user","content":"q"},{"role":"assistant","content":"a\n\"\\\u0001é😀"}]`},
		{msgs("\xff"), `[{"role":"user","content":"` + "\uFFFD" + `"}]`},
	} {
		if got, want := Size(Record{Messages: c.msgs}), int64(RecordOverheadBytes+len(c.json)); got != want {
			t.Errorf("Size(%q) = %d, want %d", c.json, got, want)
		}
	}
}

func TestLimitsValidate(t *testing.T) {
	for _, l := range []Limits{DefaultLimits(), DefaultDurableLimits(), {MinSessionBytes, MinSessionBytes, MinSessionBytes}} {
		if err := l.Validate(); err != nil {
			t.Errorf("%+v: %v", l, err)
		}
	}
	for l, want := range map[Limits]error{
		{}:                                      ErrSessionBytesTooSmall,
		{MinSessionBytes - 1, 1 << 30, 1 << 30}: ErrSessionBytesTooSmall,
		{-1, 1 << 30, 1 << 30}:                  ErrSessionBytesTooSmall,
		{MinSessionBytes, MinSessionBytes - 1, 1 << 30}: ErrLimitsOrder,
		{MinSessionBytes, 1 << 20, 1<<20 - 1}:           ErrLimitsOrder,
	} {
		if err := l.Validate(); !errors.Is(err, want) {
			t.Errorf("%+v: err = %v, want %v", l, err, want)
		}
	}
	if got := (Limits{MaxSubjectBytes: 1 << 20}).Or(DefaultLimits()); got != (Limits{DefaultMaxSessionBytes, 1 << 20, DefaultMaxMemoryBytes}) {
		t.Errorf("Or = %+v", got)
	}
	// The widest single message fits MinSessionBytes exactly.
	widest := Record{Messages: []protocol.AskMessage{{Role: protocol.RoleAssistant, Content: strings.Repeat("\x01", protocol.MaxAskContentLen)}}}
	if Size(widest) != MinSessionBytes {
		t.Errorf("widest record = %d bytes, MinSessionBytes = %d", Size(widest), MinSessionBytes)
	}
}

func TestFitDropsOldestPairsKeepingTheNewestUserTurn(t *testing.T) {
	r := Record{Revision: 9, Messages: msgs("q1", "a1", "q2", "a2", "q3", "a3")}
	if got := Fit(r, Size(r)); len(got.Messages) != 6 {
		t.Fatalf("a record that fits lost messages: %+v", got)
	}
	pair := MessageBytes(r.Messages[0]) + MessageBytes(r.Messages[1]) + 2 // and two commas
	got := Fit(r, Size(r)-1)
	if got.Revision != 9 || len(got.Messages) != 4 || got.Messages[0].Content != "q2" {
		t.Fatalf("one byte over: %+v", got)
	}
	if Size(got) != Size(r)-pair {
		t.Fatalf("Size after dropping a pair = %d, want %d", Size(got), Size(r)-pair)
	}
	if got := Fit(r, 0); len(got.Messages) != 2 || got.Messages[0].Content != "q3" {
		t.Fatalf("nothing fits: %+v, want the newest pair", got)
	}
	// A trailing user turn with no answer yet is the newest user turn.
	r2 := Record{Messages: msgs("q1", "a1", "q2")}
	if got := Fit(r2, 0); len(got.Messages) != 1 || got.Messages[0].Content != "q2" {
		t.Fatalf("%+v", got)
	}
	// Consecutive assistant messages are not split from their question.
	r3 := Record{Messages: []protocol.AskMessage{
		{Role: protocol.RoleUser, Content: "q1"}, {Role: protocol.RoleAssistant, Content: "a"}, {Role: protocol.RoleAssistant, Content: "b"},
		{Role: protocol.RoleUser, Content: "q2"}, {Role: protocol.RoleAssistant, Content: "c"},
	}}
	if got := Fit(r3, Size(r3)-1); len(got.Messages) != 2 || got.Messages[0].Content != "q2" {
		t.Fatalf("%+v", got)
	}
	// No user message: everything may go.
	r4 := Record{Messages: []protocol.AskMessage{{Role: protocol.RoleAssistant, Content: "x"}}}
	if got := Fit(r4, 0); len(got.Messages) != 0 {
		t.Fatalf("%+v", got)
	}
}

// testLimits hold three sessions of bigRec per subject and seven overall.
var testLimits = Limits{MaxSessionBytes: MinSessionBytes, MaxSubjectBytes: 3 * MinSessionBytes, MaxTotalBytes: 7 * MinSessionBytes}

func bigRec(rev int, tag string) Record {
	return Record{Revision: rev, Messages: []protocol.AskMessage{{Role: protocol.RoleUser, Content: tag + strings.Repeat("x", 90_000)}}}
}

func newLimited(t *testing.T) *MemoryStore {
	m, err := NewMemoryStoreWith(testLimits)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMemoryStoreRefusesRecordOverMaxSessionBytes(t *testing.T) {
	ctx := context.Background()
	m := newLimited(t)
	k := Key{SiteID: "s", Subject: "u", SessionID: "1"}
	over := Record{Revision: 1, Messages: []protocol.AskMessage{{Role: protocol.RoleUser, Content: strings.Repeat("x", int(MinSessionBytes))}}}
	if ok, err := m.Save(ctx, k, over, 0); ok || !errors.Is(err, ErrRecordTooLarge) {
		t.Fatalf("Save over MaxSessionBytes = %v, %v", ok, err)
	}
	if r, _ := m.Load(ctx, k); r.Revision != 0 {
		t.Fatalf("stored %+v", r)
	}
	if ok, err := m.Save(ctx, k, Fit(over, MinSessionBytes), 0); ok || !errors.Is(err, ErrRecordTooLarge) {
		t.Fatalf("a lone user turn over the bound cannot be fitted: %v, %v", ok, err)
	}
	if _, err := NewMemoryStoreWith(Limits{}); !errors.Is(err, ErrSessionBytesTooSmall) {
		t.Fatalf("NewMemoryStoreWith(zero) err = %v", err)
	}
}

// One subject writing many sessions evicts its own oldest, never another
// subject's.
func TestMemoryStoreEvictsTheSubjectsOwnOldestFirst(t *testing.T) {
	ctx := context.Background()
	m := newLimited(t)
	victim := Key{SiteID: "s", Subject: "victim", SessionID: "1"}
	if ok, err := m.Save(ctx, victim, bigRec(1, "v"), 0); !ok || err != nil {
		t.Fatal(ok, err)
	}
	flood := func(i int) Key { return Key{SiteID: "s", Subject: "flooder", SessionID: fmt.Sprint(i)} }
	for i := range 20 {
		if ok, err := m.Save(ctx, flood(i), bigRec(1, "f"), 0); !ok || err != nil {
			t.Fatal(i, ok, err)
		}
		if i == 1 { // session 0 written again: now newer than 1
			m.Save(ctx, flood(0), bigRec(2, "f"), 1)
		}
		if i == 3 {
			r0, _ := m.Load(ctx, flood(0))
			r1, _ := m.Load(ctx, flood(1))
			if r0.Revision != 2 || r1.Revision != 0 {
				t.Fatalf("after the 4th session: session 0 at %d, 1 at %d; want the oldest-written (1) gone", r0.Revision, r1.Revision)
			}
		}
	}
	if r, _ := m.Load(ctx, victim); r.Revision != 1 {
		t.Fatalf("another subject's session was evicted")
	}
	for i := range 20 {
		r, _ := m.Load(ctx, flood(i))
		if kept := r.Revision != 0; kept != (i >= 17) {
			t.Errorf("flooder session %d kept = %v", i, kept)
		}
	}
	// The same subject on another site has its own share.
	other := Key{SiteID: "s2", Subject: "flooder", SessionID: "1"}
	m.Save(ctx, other, bigRec(1, "o"), 0)
	if r, _ := m.Load(ctx, flood(19)); r.Revision == 0 {
		t.Fatalf("a save on another site evicted this site's session")
	}
	if m.bytes > testLimits.MaxTotalBytes || m.subjects[subjectKey{"s", "flooder"}].bytes > testLimits.MaxSubjectBytes {
		t.Fatalf("over the bounds: total %d", m.bytes)
	}
}

func TestMemoryStoreBoundedByTotalBytes(t *testing.T) {
	ctx := context.Background()
	m := newLimited(t)
	key := func(i int) Key { return Key{SiteID: "s", Subject: fmt.Sprintf("anon:%d", i), SessionID: "1"} }
	for i := range 10 {
		if ok, err := m.Save(ctx, key(i), bigRec(1, "t"), 0); !ok || err != nil {
			t.Fatal(i, ok, err)
		}
	}
	for i := range 10 {
		r, _ := m.Load(ctx, key(i))
		if kept := r.Revision != 0; kept != (i >= 3) {
			t.Errorf("session %d kept = %v", i, kept)
		}
	}
	var sum int64
	for _, e := range m.recs {
		sum += e.size
	}
	if sum != m.bytes || m.bytes > testLimits.MaxTotalBytes || len(m.subjects) != 7 {
		t.Fatalf("accounting: %d counted, %d held, %d subjects", m.bytes, sum, len(m.subjects))
	}
	// Shrinking a session gives its bytes back.
	m.Save(ctx, key(9), Record{Revision: 2}, 1)
	if want := sum - Size(bigRec(1, "t")) + Size(Record{}); m.bytes != want {
		t.Fatalf("after shrinking: %d, want %d", m.bytes, want)
	}
}

func TestCorruptErrorIsErrCorrupt(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &CorruptError{Revision: 7})
	var ce *CorruptError
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &ce) || ce.Revision != 7 {
		t.Fatalf("%v", err)
	}
	if errors.Is(errors.New("x"), ErrCorrupt) {
		t.Fatal("any error is ErrCorrupt")
	}
	if err := NewMemoryStore().Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}
