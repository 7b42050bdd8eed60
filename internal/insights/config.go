package insights

import "fmt"

// Config is a site's "insights" setting; its absence keeps insights off.
//
//	"insights": {"retentionDays": 30, "minCrowd": 5}
type Config struct {
	// RetentionDays is the window: older rows are deleted. 1 to
	// MaxRetentionDays; 0 means DefaultRetentionDays.
	RetentionDays int `json:"retentionDays"`
	// MinCrowd is how many distinct readers must use a term the corpus
	// does not hold before the report shows it. MinMinCrowd to
	// MaxMinCrowd; 0 means DefaultMinCrowd.
	MinCrowd int `json:"minCrowd"`
	// OwnerTokenEnv names the environment variable holding the bearer
	// token (at least 32 bytes) of the owner-only page at
	// /insights/<siteId>/; empty serves no page.
	OwnerTokenEnv string `json:"ownerTokenEnv"`
}

// Defaults and bounds of Config.
const (
	DefaultRetentionDays = 30
	MaxRetentionDays     = 365
	DefaultMinCrowd      = 5
	MinMinCrowd          = 2
	MaxMinCrowd          = 10_000
)

// FieldError names the member of the insights setting that is wrong.
type FieldError struct {
	Field  string // "retentionDays" or "minCrowd"
	Reason string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

// Check validates c as the file gives it.
func (c Config) Check() error {
	if c.RetentionDays != 0 && (c.RetentionDays < 1 || c.RetentionDays > MaxRetentionDays) {
		return &FieldError{"retentionDays", fmt.Sprintf("must be 1 to %d", MaxRetentionDays)}
	}
	if c.MinCrowd != 0 && (c.MinCrowd < MinMinCrowd || c.MinCrowd > MaxMinCrowd) {
		return &FieldError{"minCrowd", fmt.Sprintf("must be %d to %d", MinMinCrowd, MaxMinCrowd)}
	}
	return nil
}

// Or returns c with its zero fields set to the defaults.
func (c Config) Or() Config {
	if c.RetentionDays == 0 {
		c.RetentionDays = DefaultRetentionDays
	}
	if c.MinCrowd == 0 {
		c.MinCrowd = DefaultMinCrowd
	}
	return c
}
