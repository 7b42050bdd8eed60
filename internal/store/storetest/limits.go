package storetest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
)

// SmallLimits hold three BigRecords per subject and nine overall: small
// enough for a test to fill.
var SmallLimits = session.Limits{
	MaxSessionBytes: session.MinSessionBytes,
	MaxSubjectBytes: 3 * session.MinSessionBytes,
	MaxTotalBytes:   9 * session.MinSessionBytes,
}

// BigRecord is a record of six messages of 15 KB each tagged with tag,
// about 90 KB in all (under session.MinSessionBytes).
func BigRecord(rev int, tag string) session.Record {
	msgs := Messages(tag, 6)
	for i := range msgs {
		msgs[i].Content += strings.Repeat("x", 15_000)
	}
	return session.Record{Revision: rev, Messages: msgs}
}

// RunLimits runs the byte bounds every store enforces on Save: a record
// over MaxSessionBytes is refused, and a subject over MaxSubjectBytes
// loses its own oldest-written sessions. open must return a store on
// fresh storage with the limits given.
func RunLimits(t *testing.T, open func(t *testing.T, l session.Limits) session.Store) {
	t.Run("RecordOverMaxSessionBytes", func(t *testing.T) { testTooLarge(t, open(t, SmallLimits)) })
	t.Run("SubjectEvictsItsOwnOldest", func(t *testing.T) { testSubjectBound(t, open(t, SmallLimits)) })
}

func testTooLarge(t *testing.T, s session.Store) {
	k := Key(t, "s1")
	var msgs []protocol.AskMessage
	for i := range 8 {
		msgs = append(msgs, Messages(fmt.Sprintf("old%d", i), 2)...)
		msgs[len(msgs)-1].Content += strings.Repeat("y", 15_000)
	}
	over := session.Record{Revision: 1, Messages: msgs}
	if session.Size(over) <= SmallLimits.MaxSessionBytes {
		t.Fatalf("test record of %d bytes is not over the bound", session.Size(over))
	}
	ok, err := s.Save(t.Context(), k, over, 0)
	var se *store.Error
	if ok || !errors.Is(err, session.ErrRecordTooLarge) || !errors.As(err, &se) || se.Code != store.CodeInvalidRecord || int64(se.Limit) != SmallLimits.MaxSessionBytes {
		t.Fatalf("Save over MaxSessionBytes = %v, %v; want false, %s with limit %d wrapping ErrRecordTooLarge", ok, err, store.CodeInvalidRecord, SmallLimits.MaxSessionBytes)
	}
	if strings.Contains(err.Error(), "old0") || strings.Contains(err.Error(), "yyy") {
		t.Fatalf("the error quotes a message: %v", err)
	}
	Equal(t, MustLoad(t, s, k), session.Record{})
	fitted := session.Fit(over, SmallLimits.MaxSessionBytes)
	if len(fitted.Messages) == 0 || len(fitted.Messages)%2 != 0 || fitted.Messages[0].Role != protocol.RoleUser {
		t.Fatalf("Fit kept %d messages", len(fitted.Messages))
	}
	MustSave(t, s, k, fitted, 0, true)
	Equal(t, MustLoad(t, s, k), fitted)
}

func testSubjectBound(t *testing.T, s session.Store) {
	victim := session.Key{SiteID: "site-a", Subject: "anon:victim." + sanitize(t.Name()), SessionID: "v"}
	MustSave(t, s, victim, BigRecord(1, "v"), 0, true)
	flood := func(i int) session.Key { return Key(t, fmt.Sprint("f", i)) }
	// Durable stores order by a millisecond clock: keep the writes apart.
	tick := func() { time.Sleep(3 * time.Millisecond) }
	for i := range 6 {
		tick()
		MustSave(t, s, flood(i), BigRecord(1, "f"), 0, true)
		switch i {
		case 1: // session 0 written again: now newer than 1
			tick()
			MustSave(t, s, flood(0), BigRecord(2, "f"), 1, true)
		case 2: // full: a save that loses its compare-and-swap evicts nothing
			MustSave(t, s, flood(99), BigRecord(2, "f"), 1, false)
			MustSave(t, s, flood(2), BigRecord(1, "f"), 0, false)
			for _, j := range []int{0, 1, 2} {
				if len(MustLoad(t, s, flood(j)).Messages) == 0 {
					t.Fatalf("a failed save evicted session %d", j)
				}
			}
		case 3:
			// Evicted: no messages (a durable store keeps the row's
			// revision for an answer in flight, EvictedGrace).
			if r := MustLoad(t, s, flood(1)); len(r.Messages) != 0 {
				t.Fatalf("the subject's oldest-written session (1) was kept")
			}
			if r := MustLoad(t, s, flood(0)); r.Revision != 2 {
				t.Fatalf("session 0, written again, was evicted before 1")
			}
		}
	}
	for i := range 6 {
		kept := len(MustLoad(t, s, flood(i)).Messages) != 0
		if kept != (i >= 3) {
			t.Errorf("flooder session %d kept = %v", i, kept)
		}
	}
	Equal(t, MustLoad(t, s, victim), BigRecord(1, "v"))
	// The same subject on another site has its own share.
	other := flood(5)
	other.SiteID = "site-b"
	MustSave(t, s, other, BigRecord(1, "o"), 0, true)
	if MustLoad(t, s, flood(3)).Revision == 0 {
		t.Fatalf("a save on another site evicted this site's session")
	}
}

// testCheck: a fresh store is ready.
func testCheck(t *testing.T, s session.Store) {
	c, ok := s.(session.Checker)
	if !ok {
		t.Fatalf("%T does not implement session.Checker", s)
	}
	if err := c.Check(t.Context()); err != nil {
		t.Fatalf("Check on a fresh store: %v", err)
	}
}
