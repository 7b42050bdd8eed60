package evidence

// Budget limits what a package may hold. MaxRecords and MaxBytes are the
// caller's request; UsedBytes is what the sealed package's JSON takes.
// Bytes are bounded because the package is stored, linked from the
// answer, and reread on replay.
type Budget struct {
	MaxRecords int `json:"max_records"`
	MaxBytes   int `json:"max_bytes"`
	UsedBytes  int `json:"used_bytes"`
}

// Budget bounds. MaxRecords tops out above the Ask protocol's 8 sources
// so a generator can read a little more than it may cite.
const (
	DefaultMaxRecords = 5
	MaxMaxRecords     = 16
	DefaultMaxBytes   = 16 << 10
	MinMaxBytes       = 2 << 10
	MaxMaxBytes       = 512 << 10
)

// normalize fills zero limits with defaults and clamps the rest into
// range, so any Budget a caller builds gives a valid package rather than
// an error the handler would have to map.
func (b Budget) normalize() Budget {
	if b.MaxRecords <= 0 {
		b.MaxRecords = DefaultMaxRecords
	}
	b.MaxRecords = min(b.MaxRecords, MaxMaxRecords)
	if b.MaxBytes <= 0 {
		b.MaxBytes = DefaultMaxBytes
	}
	b.MaxBytes = max(MinMaxBytes, min(b.MaxBytes, MaxMaxBytes))
	b.UsedBytes = 0
	return b
}
