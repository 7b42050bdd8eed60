package protocol

// TrustedSite is a backend-site record that Validate accepted, as a value
// only TrustBackendSite and BackendSite.Trust make: a handler given one
// trusts it and never checks it again, and a record nobody checked cannot
// reach it (the zero TrustedSite reports Valid false). The sidecar's
// config check makes one per site, once; internal/ask and internal/askrun
// take it.
type TrustedSite struct {
	rec BackendSite
	ok  bool
}

// Trust validates s and returns it as a TrustedSite (a copy: editing s
// afterwards changes nothing the TrustedSite holds, apart from the slices
// both share, which neither side edits).
func (s *BackendSite) Trust() (TrustedSite, error) {
	if err := s.Validate(); err != nil {
		return TrustedSite{}, err
	}
	return TrustedSite{rec: *s, ok: true}, nil
}

// TrustBackendSite decodes a backend-site record strictly and validates
// it, once (DecodeBackendSite), into a TrustedSite.
func TrustBackendSite(data []byte) (TrustedSite, error) {
	s, err := DecodeBackendSite(data)
	if err != nil {
		return TrustedSite{}, err
	}
	return TrustedSite{rec: *s, ok: true}, nil
}

// Valid reports whether t came from Trust or TrustBackendSite (the zero
// TrustedSite did not).
func (t TrustedSite) Valid() bool { return t.ok }

// Record returns a copy of the record.
func (t TrustedSite) Record() BackendSite { return t.rec }

// CapDeadlines lowers each of the record's deadlines to at most ms
// (raised to the record's floor of 100 ms first) and reports whether it
// lowered any. Lowering a deadline that was within its bounds keeps it
// within them, so the result is trusted without a second check.
func (t TrustedSite) CapDeadlines(ms int) (TrustedSite, bool) {
	ms = max(ms, 100)
	l := &t.rec.Limits
	changed := false
	for _, v := range []*int{&l.RequestTimeoutMs, &l.RetrievalTimeoutMs, &l.GenerationTimeoutMs} {
		if *v > ms {
			*v, changed = ms, true
		}
	}
	return t, changed
}
