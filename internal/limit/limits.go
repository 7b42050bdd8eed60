package limit

import (
	"fmt"
	"time"
)

// Limits are the keyed limits the Ask handler applies, one set per site
// (or one shared set whose keys the caller prefixes with the site id):
//
//   - Address, every request, by ClientAddr.Key, before anything else;
//     it is the limit a client cannot shed by dropping its cookie.
//   - Subject, every authenticated request, by subject.
//   - Mint, each new anonymous subject (a request without a valid
//     cookie), by address; refused, the request is refused rather than
//     answered under a fresh subject.
//   - FailedAuth, failed bearer tokens, by address: Peek before checking
//     a token (refusing while it says no, without checking), Allow after
//     a check failed.
type Limits struct {
	Address, Subject, Mint, FailedAuth *Keyed
}

// Default rates, all per DefaultWindow. An address's budget is twice a
// subject's so that a few people behind one NAT are not refused; minting
// and failed tokens get little, since an honest client mints once and
// rarely mistypes a token.
const (
	DefaultWindow               = time.Minute
	DefaultPerAddress           = 120
	DefaultPerSubject           = 60
	DefaultMintPerAddress       = 10
	DefaultFailedAuthPerAddress = 10
)

// LimitsConfig configures Limits; DefaultLimitsConfig has the defaults.
type LimitsConfig struct {
	Address, Subject, Mint, FailedAuth Rate
	// MaxKeys bounds each limiter's keys; 0 means DefaultMaxKeys.
	MaxKeys int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultLimitsConfig returns the default rates with the default bound
// and clock.
func DefaultLimitsConfig() LimitsConfig {
	return LimitsConfig{
		Address:    Rate{DefaultPerAddress, DefaultWindow},
		Subject:    Rate{DefaultPerSubject, DefaultWindow},
		Mint:       Rate{DefaultMintPerAddress, DefaultWindow},
		FailedAuth: Rate{DefaultFailedAuthPerAddress, DefaultWindow},
	}
}

// NewLimits validates c and returns its limits. An error names the field
// and errors.Is ErrRate or ErrMaxKeys.
func NewLimits(c LimitsConfig) (*Limits, error) {
	var l Limits
	for _, f := range []struct {
		name string
		rate Rate
		dst  **Keyed
	}{
		{"Address", c.Address, &l.Address},
		{"Subject", c.Subject, &l.Subject},
		{"Mint", c.Mint, &l.Mint},
		{"FailedAuth", c.FailedAuth, &l.FailedAuth},
	} {
		k, err := NewKeyed(KeyedConfig{Rate: f.rate, MaxKeys: c.MaxKeys, Now: c.Now})
		if err != nil {
			return nil, fmt.Errorf("limit: LimitsConfig.%s: %w", f.name, err)
		}
		*f.dst = k
	}
	return &l, nil
}
