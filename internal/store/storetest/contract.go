package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
)

// Racers is how many goroutines race for one revision in the concurrency
// tests: enough to make lost updates likely if the CAS were not atomic,
// few enough for -race on two cores.
const Racers = 12

// Run runs the session.Store contract. open must return a store on
// fresh, empty storage and register its own cleanup.
func Run(t *testing.T, open func(t *testing.T) session.Store) {
	t.Run("LoadMissing", func(t *testing.T) { testLoadMissing(t, open(t)) })
	t.Run("FirstSaveAtZero", func(t *testing.T) { testFirstSave(t, open(t)) })
	t.Run("StaleRevisionConflicts", func(t *testing.T) { testStale(t, open(t)) })
	t.Run("RevisionsGrow", func(t *testing.T) { testRevisionsGrow(t, open(t)) })
	t.Run("MessagesRoundTrip", func(t *testing.T) { testRoundTrip(t, open(t)) })
	t.Run("KeysIsolate", func(t *testing.T) { testKeysIsolate(t, open(t)) })
	t.Run("SaveCopiesMessages", func(t *testing.T) { testSaveCopies(t, open(t)) })
	t.Run("DeleteForgetsOneKey", func(t *testing.T) { testDelete(t, open(t)) })
	t.Run("ConcurrentCASOneWinner", func(t *testing.T) {
		s := open(t)
		testOneWinner(t, []session.Store{s})
	})
	t.Run("ContextDone", func(t *testing.T) { testContextDone(t, open(t)) })
	t.Run("CheckReady", func(t *testing.T) { testCheck(t, open(t)) })
}

func testLoadMissing(t *testing.T, s session.Store) {
	r := MustLoad(t, s, Key(t, "never-saved"))
	if r.Revision != 0 || r.Messages != nil {
		t.Fatalf("missing session = %+v, want the zero Record", r)
	}
}

func testFirstSave(t *testing.T, s session.Store) {
	k := Key(t, "s1")
	want := session.Record{Revision: 1, Messages: Messages("first", 2)}
	MustSave(t, s, k, want, 0, true)
	Equal(t, MustLoad(t, s, k), want)
}

func testStale(t *testing.T, s session.Store) {
	k := Key(t, "s1")
	first := session.Record{Revision: 1, Messages: Messages("first", 1)}
	MustSave(t, s, k, first, 0, true)
	// A second creator lost the race: its insert must not overwrite.
	MustSave(t, s, k, session.Record{Revision: 1, Messages: Messages("second", 1)}, 0, false)
	Equal(t, MustLoad(t, s, k), first)

	second := session.Record{Revision: 2, Messages: Messages("second", 2)}
	MustSave(t, s, k, second, 1, true)
	// A writer that loaded revision 1 is now stale.
	MustSave(t, s, k, session.Record{Revision: 2, Messages: Messages("stale", 2)}, 1, false)
	// A revision from the future is as wrong as one from the past.
	MustSave(t, s, k, session.Record{Revision: 6, Messages: Messages("future", 2)}, 5, false)
	Equal(t, MustLoad(t, s, k), second)

	// Expecting a revision of a session that does not exist creates nothing.
	absent := Key(t, "absent")
	MustSave(t, s, absent, session.Record{Revision: 2, Messages: Messages("x", 1)}, 1, false)
	Equal(t, MustLoad(t, s, absent), session.Record{})
}

func testRevisionsGrow(t *testing.T, s session.Store) {
	k := Key(t, "s1")
	var history []protocol.AskMessage
	for rev := 1; rev <= 12; rev++ {
		history = append(history, Messages(fmt.Sprintf("rev%d", rev), 1)...)
		r := session.Record{Revision: rev, Messages: slices.Clone(history)}
		MustSave(t, s, k, r, rev-1, true)
		Equal(t, MustLoad(t, s, k), r)
	}
}

// RoundTripContents are message contents whose bytes a store must give
// back exactly: every JSON escape class, astral characters (two UTF-16
// units each), the line and paragraph separators JavaScript treats
// specially, NUL (which PostgreSQL text and jsonb reject raw), and a
// content of the maximum length made of surrogate pairs.
var RoundTripContents = []string{
	"",
	"plain ascii",
	"Grüße, 日本語, עברית, emoji 😀 and 𝄞 (astral)",
	"line\u2028separator\u2029paragraph",
	`quotes " and ' and \ backslash and / slash`,
	"<script>&amp;</script>",
	"controls \x00 \x01 \x1f \x7f \b \f \n \r \t",
	"\ufeffBOM first, U+FFFD \ufffd, noncharacter \uffff",
	"trailing spaces and newline  \n",
	strings.Repeat("😀", protocol.MaxAskContentLen/2),
}

func testRoundTrip(t *testing.T, s session.Store) {
	k := Key(t, "s1")
	var msgs []protocol.AskMessage
	for i, c := range RoundTripContents {
		role := protocol.RoleUser
		if i%2 == 1 {
			role = protocol.RoleAssistant
		}
		msgs = append(msgs, protocol.AskMessage{Role: role, Content: c})
	}
	want := session.Record{Revision: 1, Messages: msgs}
	MustSave(t, s, k, want, 0, true)
	Equal(t, MustLoad(t, s, k), want)
	// Empty history is a valid record too, distinct from none.
	empty := Key(t, "empty")
	MustSave(t, s, empty, session.Record{Revision: 1}, 0, true)
	if r := MustLoad(t, s, empty); r.Revision != 1 || len(r.Messages) != 0 {
		t.Fatalf("empty history = %+v", r)
	}
}

func testKeysIsolate(t *testing.T, s session.Store) {
	base := Key(t, "shared-id")
	keys := []session.Key{
		base,
		{SiteID: "site-b", Subject: base.Subject, SessionID: base.SessionID},
		{SiteID: base.SiteID, Subject: base.Subject + ".other", SessionID: base.SessionID},
		{SiteID: base.SiteID, Subject: base.Subject, SessionID: base.SessionID + "2"},
		// Parts that would collide if a backend joined them into one string.
		{SiteID: base.SiteID + ":" + base.Subject, Subject: "x", SessionID: base.SessionID},
		{SiteID: "SITE-A", Subject: strings.ToUpper(base.Subject), SessionID: strings.ToUpper(base.SessionID)},
	}
	for i, k := range keys {
		MustSave(t, s, k, session.Record{Revision: 1, Messages: Messages(fmt.Sprintf("key%d", i), 1)}, 0, true)
	}
	for i, k := range keys {
		Equal(t, MustLoad(t, s, k), session.Record{Revision: 1, Messages: Messages(fmt.Sprintf("key%d", i), 1)})
	}
	// Advancing one key leaves the others at revision 1.
	MustSave(t, s, keys[0], session.Record{Revision: 2, Messages: Messages("key0", 2)}, 1, true)
	for _, k := range keys[1:] {
		if r := MustLoad(t, s, k); r.Revision != 1 {
			t.Fatalf("key %+v moved to revision %d", k, r.Revision)
		}
	}
}

// testDelete: Delete forgets exactly its key's session (not the same id
// of another subject or site), reports whether one was there, and the id
// starts again at revision 0.
func testDelete(t *testing.T, s session.Store) {
	d, ok := s.(session.Deleter)
	if !ok {
		t.Fatalf("%T does not implement session.Deleter", s)
	}
	k := Key(t, "forget-me")
	other := session.Key{SiteID: k.SiteID, Subject: k.Subject + ".other", SessionID: k.SessionID}
	site := session.Key{SiteID: "site-b", Subject: k.Subject, SessionID: k.SessionID}
	for _, key := range []session.Key{k, other, site} {
		MustSave(t, s, key, session.Record{Revision: 1, Messages: Messages("kept", 1)}, 0, true)
	}
	ctx := context.Background()
	if gone, err := d.Delete(ctx, k); err != nil || !gone {
		t.Fatalf("Delete = %v, %v; want true, nil", gone, err)
	}
	if r := MustLoad(t, s, k); r.Revision != 0 || r.Messages != nil {
		t.Fatalf("after Delete the session is %+v; want the zero Record", r)
	}
	for _, key := range []session.Key{other, site} {
		Equal(t, MustLoad(t, s, key), session.Record{Revision: 1, Messages: Messages("kept", 1)})
	}
	if gone, err := d.Delete(ctx, k); err != nil || gone {
		t.Fatalf("a second Delete = %v, %v; want false, nil", gone, err)
	}
	MustSave(t, s, k, session.Record{Revision: 1, Messages: Messages("again", 1)}, 0, true)
}

func testSaveCopies(t *testing.T, s session.Store) {
	k := Key(t, "s1")
	msgs := Messages("orig", 2)
	MustSave(t, s, k, session.Record{Revision: 1, Messages: msgs}, 0, true)
	msgs[0].Content = "changed by the caller after Save"
	got := MustLoad(t, s, k)
	Equal(t, got, session.Record{Revision: 1, Messages: Messages("orig", 2)})
	got.Messages[1].Content = "changed by the caller after Load"
	Equal(t, MustLoad(t, s, k), session.Record{Revision: 1, Messages: Messages("orig", 2)})
}

// testOneWinner races Racers goroutines, spread over stores (handles on
// one storage), for each of several revisions: exactly one must win each,
// and the stored record must be the winner's.
func testOneWinner(t *testing.T, stores []session.Store) {
	k := Key(t, "raced")
	for rev := 1; rev <= 3; rev++ {
		var wins atomic.Int32
		winner := make(chan int, Racers)
		errs := make(chan error, Racers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for g := range Racers {
			wg.Go(func() {
				<-start
				s := stores[g%len(stores)]
				r := session.Record{Revision: rev, Messages: Messages(fmt.Sprintf("g%d", g), rev)}
				ok, err := s.Save(t.Context(), k, r, rev-1)
				if err != nil {
					errs <- err
					return
				}
				if ok {
					wins.Add(1)
					winner <- g
				}
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("racing Save: %v", err)
		}
		if n := wins.Load(); n != 1 {
			t.Fatalf("revision %d: %d winners, want exactly 1", rev, n)
		}
		g := <-winner
		Equal(t, MustLoad(t, stores[0], k), session.Record{Revision: rev, Messages: Messages(fmt.Sprintf("g%d", g), rev)})
	}
}

func testContextDone(t *testing.T, s session.Store) {
	k := Key(t, "s1")
	want := session.Record{Revision: 1, Messages: Messages("kept", 1)}
	MustSave(t, s, k, want, 0, true)

	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Load(cancelled, k); !errors.Is(err, context.Canceled) {
		t.Fatalf("Load on a cancelled context: err = %v, want context.Canceled", err)
	}
	ok, err := s.Save(cancelled, k, session.Record{Revision: 2, Messages: Messages("lost", 2)}, 1)
	if !errors.Is(err, context.Canceled) || ok {
		t.Fatalf("Save on a cancelled context = %v, %v; want false, context.Canceled", ok, err)
	}
	expired, cancel2 := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel2()
	if _, err := s.Load(expired, k); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Load past the deadline: err = %v, want context.DeadlineExceeded", err)
	}
	if ok, err := s.Save(expired, k, session.Record{Revision: 2, Messages: Messages("lost", 2)}, 1); !errors.Is(err, context.DeadlineExceeded) || ok {
		t.Fatalf("Save past the deadline = %v, %v; want false, context.DeadlineExceeded", ok, err)
	}
	Equal(t, MustLoad(t, s, k), want)
}
