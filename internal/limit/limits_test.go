package limit

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func newTestLimits(t *testing.T, c *fakeClock) *Limits {
	t.Helper()
	cfg := DefaultLimitsConfig()
	cfg.Now = c.Now
	l, err := NewLimits(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLimitsDefaults(t *testing.T) {
	l := newTestLimits(t, newFakeClock())
	for name, c := range map[string]struct {
		k    *Keyed
		want int
	}{
		"Address":    {l.Address, DefaultPerAddress},
		"Subject":    {l.Subject, DefaultPerSubject},
		"Mint":       {l.Mint, DefaultMintPerAddress},
		"FailedAuth": {l.FailedAuth, DefaultFailedAuthPerAddress},
	} {
		if c.k.Rate() != (Rate{c.want, DefaultWindow}) {
			t.Errorf("%s: %v", name, c.k.Rate())
		}
	}
}

// The attack this package answers: a client that never sends its cookie
// gets a new subject each time. Under the per-address limits, 200 such
// requests from one address mint 10 subjects at most, and at most 120 are
// admitted at all.
func TestLimitsCookielessClient(t *testing.T) {
	l := newTestLimits(t, newFakeClock())
	addr := ClientAddr{}.Key(&http.Request{RemoteAddr: "203.0.113.5:40000"})
	admitted, minted := 0, 0
	for i := range 200 {
		if ok, _ := l.Address.Allow(addr); !ok {
			continue
		}
		admitted++
		if ok, _ := l.Mint.Allow(addr); !ok {
			continue // refused rather than answered under a fresh subject
		}
		minted++
		if ok, _ := l.Subject.Allow(fmt.Sprint("anon-", i)); !ok {
			t.Fatal("a fresh subject was refused")
		}
	}
	if admitted != DefaultPerAddress || minted != DefaultMintPerAddress {
		t.Fatalf("admitted %d minted %d, want %d and %d", admitted, minted, DefaultPerAddress, DefaultMintPerAddress)
	}
}

// Failed bearer tokens: Peek before checking, Allow after a failure; a
// client past its budget is refused without its token being checked, and
// successes cost nothing.
func TestLimitsFailedAuth(t *testing.T) {
	c := newFakeClock()
	l := newTestLimits(t, c)
	const addr = "203.0.113.5/32"
	checked := 0
	check := func(valid bool) (status int) {
		if ok, _ := l.FailedAuth.Peek(addr); !ok {
			return http.StatusTooManyRequests
		}
		checked++
		if valid {
			return http.StatusOK
		}
		l.FailedAuth.Allow(addr)
		return http.StatusUnauthorized
	}
	for range 100 {
		if check(true) != http.StatusOK {
			t.Fatal("a valid token was refused")
		}
	}
	for i := range DefaultFailedAuthPerAddress {
		if s := check(false); s != http.StatusUnauthorized {
			t.Fatalf("failure %d: status %d", i, s)
		}
	}
	checked = 0
	for range 50 {
		if s := check(false); s != http.StatusTooManyRequests {
			t.Fatalf("status %d past the budget", s)
		}
	}
	if checked != 0 {
		t.Fatalf("%d tokens checked past the budget", checked)
	}
	c.Add(DefaultWindow / DefaultFailedAuthPerAddress)
	if s := check(false); s != http.StatusUnauthorized {
		t.Fatalf("after one refill: status %d", s)
	}
}

func TestLimitsConfigErrorsNameTheField(t *testing.T) {
	cfg := DefaultLimitsConfig()
	cfg.Mint = Rate{}
	_, err := NewLimits(cfg)
	if !errors.Is(err, ErrRate) || !strings.Contains(err.Error(), "LimitsConfig.Mint") {
		t.Fatalf("err %v", err)
	}
	cfg = DefaultLimitsConfig()
	cfg.MaxKeys = -1
	if _, err := NewLimits(cfg); !errors.Is(err, ErrMaxKeys) {
		t.Fatalf("err %v", err)
	}
	cfg.MaxKeys = 3
	l, err := NewLimits(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		l.Address.Allow(fmt.Sprint(i))
	}
	if l.Address.Len() != 3 {
		t.Fatalf("MaxKeys not applied: Len %d", l.Address.Len())
	}
}
