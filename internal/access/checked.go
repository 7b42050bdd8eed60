package access

import (
	"fmt"
	"net/http"
	"slices"
)

// Checked is an Authenticator that Check accepted: its configuration
// (a Policy's tokens, its anonymous cookie) validated once, where the
// config is loaded, so the handlers that take one (internal/ask's
// Config.Auth) trust it without a second check, as they trust a
// protocol.TrustedSite. Only Check makes one (and Guarded, which changes
// nothing Check checked); the zero Checked reports Valid false.
type Checked struct{ auth Authenticator }

// Check validates a, when it can validate itself (Policy, CookieAuth:
// their Validate), and returns it as a Checked. A Policy or CookieAuth is
// copied, so editing a afterwards changes nothing the Checked holds,
// apart from the tokens' secret bytes it shares. Another Authenticator
// (an AuthFunc, a test's double) has nothing to check and is held as
// given. Errors never contain a secret.
func Check(a Authenticator) (Checked, error) {
	if a == nil {
		return Checked{}, fmt.Errorf("%w: no authenticator", ErrInvalid)
	}
	if v, ok := a.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return Checked{}, err
		}
	}
	switch p := a.(type) {
	case *Policy:
		a = p.clone()
	case *CookieAuth:
		a = p.clone()
	}
	return Checked{auth: a}, nil
}

// Valid reports whether Check made c.
func (c Checked) Valid() bool { return c.auth != nil }

// Authenticate implements Authenticator.
func (c Checked) Authenticate(w http.ResponseWriter, r *http.Request) (string, bool) {
	return c.auth.Authenticate(w, r)
}

// Guarded returns c's Policy with the edge's guards, which are wiring,
// not configuration, and which Check therefore never looks at: refused
// tokens limited per client address (failed, named by addr), and new
// anonymous subjects let through beforeMint. The result stays checked.
// An Authenticator that is not a Policy is returned as it is.
func (c Checked) Guarded(failed PeekLimiter, addr ClientAddrFunc, beforeMint func(http.ResponseWriter, *http.Request) bool) Checked {
	p, ok := c.auth.(*Policy)
	if !ok {
		return c
	}
	g := p.clone()
	g.FailedAuth, g.ClientAddr = failed, addr
	if g.Anonymous != nil {
		g.Anonymous.BeforeMint = beforeMint
	}
	return Checked{auth: g}
}

// clone copies every field Validate checks or Authenticate reads; the
// token digests are computed again, on first use.
func (a *Policy) clone() *Policy {
	return &Policy{
		Hosts: slices.Clone(a.Hosts), Origins: slices.Clone(a.Origins), SameOrigin: a.SameOrigin,
		Tokens: slices.Clone(a.Tokens), Anonymous: a.Anonymous.clone(),
		FailedAuth: a.FailedAuth, ClientAddr: a.ClientAddr,
	}
}

func (a *CookieAuth) clone() *CookieAuth {
	if a == nil {
		return nil
	}
	c := *a
	c.Origins = slices.Clone(a.Origins)
	return &c
}
