package storetest

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
)

// RunBounds runs the checks internal/store makes before writing: a record
// or key outside the bounds fails with its code and writes nothing.
func RunBounds(t *testing.T, open func(t *testing.T) session.Store) {
	t.Run("RecordOutOfBounds", func(t *testing.T) { testRecordBounds(t, open(t)) })
	t.Run("KeyOutOfBounds", func(t *testing.T) { testKeyBounds(t, open(t)) })
}

func testRecordBounds(t *testing.T, s session.Store) {
	k := Key(t, "s1")
	kept := session.Record{Revision: 1, Messages: Messages("kept", 1)}
	MustSave(t, s, k, kept, 0, true)

	longest := strings.Repeat("a", protocol.MaxAskContentLen)
	tooLong := strings.Repeat("😀", protocol.MaxAskContentLen/2) + "x" // one unit over
	cases := []struct {
		name     string
		rec      session.Record
		expected int
	}{
		{"TooManyMessages", session.Record{Revision: 2, Messages: Messages("many", store.MaxMessages+1)}, 1},
		{"ContentOneUnitTooLong", session.Record{Revision: 2, Messages: []protocol.AskMessage{{Role: protocol.RoleUser, Content: tooLong}}}, 1},
		{"UnknownRole", session.Record{Revision: 2, Messages: []protocol.AskMessage{{Role: "system", Content: "x"}}}, 1},
		{"InvalidUTF8", session.Record{Revision: 2, Messages: []protocol.AskMessage{{Role: protocol.RoleUser, Content: "a\xffb"}}}, 1},
		{"RevisionSkips", session.Record{Revision: 3, Messages: Messages("skip", 1)}, 1},
		{"RevisionRepeats", session.Record{Revision: 1, Messages: Messages("same", 1)}, 1},
		{"NegativeExpected", session.Record{Revision: 0, Messages: Messages("neg", 1)}, -1},
	}
	for _, c := range cases {
		ok, err := s.Save(t.Context(), k, c.rec, c.expected)
		if ok || store.CodeOf(err) != store.CodeInvalidRecord {
			t.Fatalf("%s: Save = %v, %v; want false, %s", c.name, ok, err, store.CodeInvalidRecord)
		}
		if strings.Contains(err.Error(), "kept") || strings.Contains(err.Error(), "many turn") {
			t.Fatalf("%s: the error quotes a message: %v", c.name, err)
		}
	}
	Equal(t, MustLoad(t, s, k), kept)

	// The bounds themselves are allowed.
	MustSave(t, s, k, session.Record{Revision: 2, Messages: Messages("max", store.MaxMessages)}, 1, true)
	at := session.Record{Revision: 3, Messages: []protocol.AskMessage{
		{Role: protocol.RoleUser, Content: longest},
		{Role: protocol.RoleAssistant, Content: strings.Repeat("😀", protocol.MaxAskContentLen/2)},
	}}
	MustSave(t, s, k, at, 2, true)
	Equal(t, MustLoad(t, s, k), at)
}

func testKeyBounds(t *testing.T, s session.Store) {
	good := Key(t, "s1")
	bad := map[string]session.Key{
		"EmptySite":    {SiteID: "", Subject: good.Subject, SessionID: good.SessionID},
		"EmptySubject": {SiteID: good.SiteID, Subject: "", SessionID: good.SessionID},
		"EmptySession": {SiteID: good.SiteID, Subject: good.Subject, SessionID: ""},
		"TooLong":      {SiteID: good.SiteID, Subject: strings.Repeat("s", store.MaxKeyLen+1), SessionID: good.SessionID},
		"NUL":          {SiteID: good.SiteID, Subject: good.Subject, SessionID: "a\x00b"},
		"InvalidUTF8":  {SiteID: "site\xff", Subject: good.Subject, SessionID: good.SessionID},
	}
	for name, k := range bad {
		if _, err := s.Load(t.Context(), k); store.CodeOf(err) != store.CodeInvalidKey {
			t.Fatalf("%s: Load err = %v, want %s", name, err, store.CodeInvalidKey)
		}
		ok, err := s.Save(t.Context(), k, session.Record{Revision: 1, Messages: Messages("x", 1)}, 0)
		if ok || store.CodeOf(err) != store.CodeInvalidKey {
			t.Fatalf("%s: Save = %v, %v; want false, %s", name, ok, err, store.CodeInvalidKey)
		}
	}
	// The longest key is allowed.
	long := session.Key{SiteID: strings.Repeat("a", store.MaxKeyLen), Subject: strings.Repeat("b", store.MaxKeyLen), SessionID: strings.Repeat("c", store.MaxKeyLen)}
	MustSave(t, s, long, session.Record{Revision: 1}, 0, true)
}
