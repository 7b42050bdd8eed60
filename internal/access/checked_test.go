package access_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/access"
)

// TestCheckRefusesWhatValidateRefuses: a Checked is made only from an
// authenticator whose own Validate accepts it; the zero one is not valid.
func TestCheckRefusesWhatValidateRefuses(t *testing.T) {
	if (access.Checked{}).Valid() {
		t.Error("the zero Checked is valid")
	}
	if _, err := access.Check(nil); !errors.Is(err, access.ErrInvalid) {
		t.Errorf("nil: %v", err)
	}
	bad := testAccess(false)
	bad.Tokens[0].Subject = "ci bot"
	if c, err := access.Check(bad); err == nil || err.Error() != bad.Validate().Error() || c.Valid() {
		t.Errorf("a bad token subject: %v (Validate: %v)", err, bad.Validate())
	}
	if _, err := access.Check(&access.CookieAuth{Secret: []byte("short")}); !errors.Is(err, access.ErrWeakSecret) {
		t.Errorf("a weak cookie secret: %v", err)
	}
	double := access.AuthFunc(func(http.ResponseWriter, *http.Request) (string, bool) { return "x", true })
	if c, err := access.Check(double); err != nil || !c.Valid() {
		t.Errorf("an authenticator with nothing to check: %v", err)
	}
}

// TestCheckedIgnoresLaterEdits: the Checked holds a copy of the Policy
// Check accepted, so the config a caller edits afterwards (a token
// dropped, the hosts emptied, another token added) is not what answers.
func TestCheckedIgnoresLaterEdits(t *testing.T) {
	p := testAccess(false)
	c, err := access.Check(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Tokens[0] = access.Token{Subject: "intruder", Secret: []byte(readerToken + "-intruder")}
	p.Tokens = nil
	p.Hosts = nil
	p.Origins[0] = "https://evil.example"
	ask := func(host, origin, token string) int {
		r := httptest.NewRequest(http.MethodPost, "http://"+host+"/v1/ask", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		r.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		if _, ok := c.Authenticate(w, r); ok {
			return 200
		}
		return w.Code
	}
	if got := ask("ask.example.com", "https://docs.example.com", ciToken); got != 200 {
		t.Errorf("the checked token on a checked host and origin: %d", got)
	}
	if got := ask("other.example", "", ciToken); got != http.StatusForbidden {
		t.Errorf("a host the checked policy does not allow: %d, want 403", got)
	}
	if got := ask("ask.example.com", "https://evil.example", ciToken); got != http.StatusForbidden {
		t.Errorf("an origin edited in afterwards: %d, want 403", got)
	}
}

// refuseAll is a PeekLimiter whose budget is spent.
type refuseAll struct{}

func (refuseAll) Spend(context.Context, string) (bool, time.Duration, error) {
	return false, time.Minute, nil
}
func (refuseAll) Check(context.Context, string) (bool, time.Duration, error) {
	return false, time.Minute, nil
}

// TestGuardedAddsTheEdgeOnly: Guarded wires the edge's guards (refused
// tokens per address, new subjects) into a copy, which stays checked;
// the Checked it came from answers as before.
func TestGuardedAddsTheEdgeOnly(t *testing.T) {
	c, err := access.Check(testAccess(true))
	if err != nil {
		t.Fatal(err)
	}
	minted := 0
	g := c.Guarded(refuseAll{}, func(*http.Request) string { return "198.51.100.7" },
		func(w http.ResponseWriter, _ *http.Request) bool {
			minted++
			w.WriteHeader(http.StatusTooManyRequests)
			return false
		})
	if !g.Valid() {
		t.Fatal("Guarded is not valid")
	}
	send := func(a access.Authenticator, token string) int {
		r := httptest.NewRequest(http.MethodPost, "http://ask.example.com/v1/ask", nil)
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		if _, ok := a.Authenticate(w, r); ok {
			return 200
		}
		return w.Code
	}
	if got := send(g, ciToken); got != http.StatusTooManyRequests {
		t.Errorf("a token from an address past its refused tokens: %d, want 429", got)
	}
	if got := send(g, ""); got != http.StatusTooManyRequests || minted != 1 {
		t.Errorf("a new subject its guard refuses: %d after %d mints", got, minted)
	}
	if send(c, ciToken) != 200 || send(c, "") != 200 || minted != 1 {
		t.Error("Guarded changed the Checked it came from")
	}
}
