package resolve

import (
	"fmt"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

// offer remembers the fixture's "docs" choices for session as the adapter
// does when it projects them for message messageID.
func offer(t *testing.T, res *Reservations, session, messageID string) (instanceID string, props []byte) {
	t.Helper()
	r, _ := fixtureResolver(t)
	env := r.Resolve("docs")
	res.RememberChoices(session, messageID, env)
	instanceID, props, ok := ChoiceFrame(env, messageID)
	if !ok {
		t.Fatal("no choice frame")
	}
	return instanceID, props
}

func mustGrant(t *testing.T, res *Reservations, session, id string, props []byte, choice string) *Claim {
	t.Helper()
	c, got := res.Submit(session, id, props, choice)
	if got != Granted || c == nil {
		t.Fatalf("Submit(%s, %s, %s) = %v", session, id, choice, got)
	}
	return c
}

func expectResult(t *testing.T, res *Reservations, session, id string, props []byte, choice string, want SubmitResult) {
	t.Helper()
	c, got := res.Submit(session, id, props, choice)
	if got != want || (c != nil) != (want == Granted) {
		t.Fatalf("Submit(%s, %s, %s) = %v, want %v", session, id, choice, got, want)
	}
	if c != nil {
		c.Release()
	}
}

func TestReservationLifecycle(t *testing.T) {
	var res Reservations // the zero value works
	id, props := offer(t, &res, "s1", "user-1")

	// Not offered.
	expectResult(t, &res, "s1", id, props, "install-cli", Unavailable)
	expectResult(t, &res, "s2", id, props, "docs-agentskit", Unavailable)
	expectResult(t, &res, "s1", id+"x", props, "docs-agentskit", Unavailable)

	// Double claim.
	c := mustGrant(t, &res, "s1", id, props, "docs-agentskit")
	if c.Value != "agentskit docs" {
		t.Fatalf("value %q", c.Value)
	}
	expectResult(t, &res, "s1", id, props, "docs-agentskit", Unavailable)
	expectResult(t, &res, "s1", id, props, "docs-registry", Unavailable)

	// Release then retry.
	c.Release()
	c.Release()
	c.Commit() // release won: commit is a no-op
	c2 := mustGrant(t, &res, "s1", id, props, "docs-registry")
	if c2.Value != "registry docs" {
		t.Fatalf("value %q", c2.Value)
	}

	// Commit then reuse.
	c2.Commit()
	c2.Release() // commit won
	c2.Commit()
	expectResult(t, &res, "s1", id, props, "docs-registry", Unavailable)
	expectResult(t, &res, "s1", id, props, "docs-agentskit", Unavailable)
	if res.Len() != 0 {
		t.Fatalf("empty session kept: %d", res.Len())
	}

	// Asking again offers again.
	offer(t, &res, "s1", "user-1")
	mustGrant(t, &res, "s1", id, props, "docs-agentskit").Commit()
}

func TestReservationForgedAndAltered(t *testing.T) {
	res := NewReservations()
	id, props := offer(t, res, "s1", "user-1")

	// A frame that is not a deterministic choice list is not ours.
	expectResult(t, res, "s1", "destination-choice", props, "docs-agentskit", NotDeterministic)
	expectResult(t, res, "s1", "sources-user-1", props, "docs-agentskit", NotDeterministic)
	// A forged deterministic instance id is unavailable.
	expectResult(t, res, "s1", "deterministic-choices-user-2", props, "docs-agentskit", Unavailable)
	// Props must match byte for byte.
	altered := []byte(string(props[:len(props)-2]) + `,{"id":"install-cli","label":"x","description":"install cli"}]}`)
	expectResult(t, res, "s1", id, altered, "install-cli", Unavailable)
	expectResult(t, res, "s1", id, altered, "docs-agentskit", Unavailable)
	expectResult(t, res, "s1", id, append([]byte(" "), props...), "docs-agentskit", Unavailable)
	expectResult(t, res, "s1", id, nil, "docs-agentskit", Unavailable)
	// Changing the caller's props buffer after Remember changes nothing.
	buf := append([]byte(nil), props...)
	res.Remember("s3", id, buf, []protocol.Suggestion{{ID: "a", Value: "A"}})
	buf[0] = 'X'
	mustGrant(t, res, "s3", id, props, "a").Release()
	// Only deterministic choice lists are remembered.
	res.Remember("s4", "destination-choice", props, []protocol.Suggestion{{ID: "a", Value: "A"}})
	if _, got := res.Submit("s4", "deterministic-choices-x", props, "a"); got != Unavailable {
		t.Fatal(got)
	}
	// The original still works.
	mustGrant(t, res, "s1", id, props, "docs-agentskit")
}

func TestReservationRememberKeepsClaimed(t *testing.T) {
	res := NewReservations()
	id, props := offer(t, res, "s1", "user-1")
	c := mustGrant(t, res, "s1", id, props, "docs-agentskit")
	// Re-offering the same instance while it is claimed keeps the claim.
	res.Remember("s1", id, []byte(`{}`), []protocol.Suggestion{{ID: "z", Value: "Z"}})
	c.Release()
	expectResult(t, res, "s1", id, []byte(`{}`), "z", Unavailable)
	mustGrant(t, res, "s1", id, props, "docs-registry").Release()
	// Re-offering an unclaimed instance replaces it.
	res.Remember("s1", id, []byte(`{}`), []protocol.Suggestion{{ID: "z", Value: "Z"}})
	expectResult(t, res, "s1", id, props, "docs-registry", Unavailable)
	mustGrant(t, res, "s1", id, []byte(`{}`), "z")
}

// The AgentsKit test: 260 sessions each offered choices, one of them with a
// claim in flight. The claimed session survives, the oldest abandoned one
// is evicted.
func TestReservationSessionEviction(t *testing.T) {
	res := NewReservations()
	id, props := offer(t, res, "claimed", "user-1")
	c := mustGrant(t, res, "claimed", id, props, "docs-agentskit")
	for i := range 260 {
		offer(t, res, fmt.Sprintf("abandoned-%d", i), "user-1")
	}
	if res.Len() != MaxChoiceSessions {
		t.Fatalf("%d sessions", res.Len())
	}
	for i := range 5 {
		expectResult(t, res, fmt.Sprintf("abandoned-%d", i), id, props, "docs-agentskit", Unavailable)
	}
	expectResult(t, res, "abandoned-5", id, props, "docs-agentskit", Granted)
	expectResult(t, res, "abandoned-259", id, props, "docs-agentskit", Granted)
	c.Commit()
	expectResult(t, res, "claimed", id, props, "docs-registry", Unavailable)
}

func TestReservationTouchOrder(t *testing.T) {
	res := NewReservations()
	id, props := offer(t, res, "first", "user-1")
	for i := 1; i < MaxChoiceSessions; i++ {
		offer(t, res, fmt.Sprintf("s-%d", i), "user-1")
	}
	// A granted submission touches "first"; "s-1" becomes the oldest.
	mustGrant(t, res, "first", id, props, "docs-agentskit").Release()
	offer(t, res, "new", "user-1")
	expectResult(t, res, "first", id, props, "docs-agentskit", Granted)
	expectResult(t, res, "s-1", id, props, "docs-agentskit", Unavailable)
	// Remembering touches too.
	offer(t, res, "s-2", "user-2")
	offer(t, res, "new-2", "user-1")
	expectResult(t, res, "s-2", id, props, "docs-agentskit", Granted)
	expectResult(t, res, "s-3", id, props, "docs-agentskit", Unavailable)
}

func TestReservationAllSessionsClaimed(t *testing.T) {
	res := NewReservations()
	var id string
	var props []byte
	for i := range MaxChoiceSessions {
		s := fmt.Sprintf("s-%d", i)
		id, props = offer(t, res, s, "user-1")
		mustGrant(t, res, s, id, props, "docs-agentskit")
	}
	offer(t, res, "late", "user-1")
	expectResult(t, res, "late", id, props, "docs-agentskit", Unavailable)
	if res.Len() != MaxChoiceSessions {
		t.Fatal(res.Len())
	}
}

func TestReservationPerSessionEviction(t *testing.T) {
	res := NewReservations()
	id0, props := offer(t, res, "s", "m-0")
	c := mustGrant(t, res, "s", id0, props, "docs-agentskit")
	id1, props1 := offer(t, res, "s", "m-1")
	for i := 2; i < MaxSessionChoices+2; i++ {
		offer(t, res, "s", fmt.Sprintf("m-%d", i))
	}
	// m-0 is claimed, so the oldest unclaimed (m-1) went first, then m-2.
	expectResult(t, res, "s", id1, props1, "docs-agentskit", Unavailable)
	id2, props2, _ := ChoiceFrame(mustResolve(t, "docs"), "m-2")
	expectResult(t, res, "s", id2, props2, "docs-agentskit", Unavailable)
	id3, props3, _ := ChoiceFrame(mustResolve(t, "docs"), "m-3")
	expectResult(t, res, "s", id3, props3, "docs-agentskit", Granted)
	c.Commit()
}

func TestReservationPerSessionAllClaimed(t *testing.T) {
	res := NewReservations()
	for i := range MaxSessionChoices {
		id, props := offer(t, res, "s", fmt.Sprintf("m-%d", i))
		mustGrant(t, res, "s", id, props, "docs-agentskit")
	}
	id, props := offer(t, res, "s", "late")
	expectResult(t, res, "s", id, props, "docs-agentskit", Unavailable)
}

func mustResolve(t *testing.T, q string) *protocol.Envelope {
	r, _ := fixtureResolver(t)
	return r.Resolve(q)
}

// A commit that arrives after its session was released and created again
// must not delete the new session.
func TestReservationLateCommit(t *testing.T) {
	res := NewReservations()
	id, props := offer(t, res, "s", "user-1")
	c := mustGrant(t, res, "s", id, props, "docs-agentskit")
	res.ReleaseSession("s")
	expectResult(t, res, "s", id, props, "docs-agentskit", Unavailable)
	offer(t, res, "s", "user-1")
	c.Commit()
	if res.Len() != 1 {
		t.Fatal("recreated session deleted")
	}
	mustGrant(t, res, "s", id, props, "docs-agentskit").Commit()
	if res.Len() != 0 {
		t.Fatal("session kept")
	}

	// A late release is as harmless.
	offer(t, res, "s", "user-1")
	c = mustGrant(t, res, "s", id, props, "docs-agentskit")
	res.ReleaseSession("s")
	offer(t, res, "s", "user-1")
	c2 := mustGrant(t, res, "s", id, props, "docs-agentskit")
	c.Release()
	expectResult(t, res, "s", id, props, "docs-registry", Unavailable)
	c2.Commit()

	var nilClaim *Claim
	nilClaim.Commit()
	nilClaim.Release()
	(&Claim{}).Commit()
}

// Concurrent sessions sharing message ids, double clicks and releases; run
// with -race.
func TestReservationConcurrent(t *testing.T) {
	res := NewReservations()
	r, _ := fixtureResolver(t)
	env := r.Resolve("docs")
	id, props, _ := ChoiceFrame(env, "user-1")
	const sessions = 32
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := map[string]int{}
	for s := range sessions {
		sid := fmt.Sprintf("s-%d", s)
		res.RememberChoices(sid, "user-1", env)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, got := res.Submit(sid, id, props, "docs-agentskit")
				if got != Granted {
					return
				}
				mu.Lock()
				granted[sid]++
				mu.Unlock()
				c.Commit()
				c.Release()
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.RememberChoices(fmt.Sprintf("other-%d", s), "user-1", env)
			res.ReleaseSession(fmt.Sprintf("other-%d", s))
			_ = res.Len()
		}()
	}
	wg.Wait()
	for s := range sessions {
		if n := granted[fmt.Sprintf("s-%d", s)]; n != 1 {
			t.Errorf("session %d granted %d times", s, n)
		}
	}
}
