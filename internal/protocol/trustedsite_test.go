package protocol

import (
	"errors"
	"strings"
	"testing"
)

func trustedTestSite() BackendSite {
	return BackendSite{
		SiteID:      "docs",
		Assistant:   BackendAssistant{ID: "guide", Name: "Guide"},
		Corpus:      BackendCorpus{ID: "docs-en", Mode: CorpusLocal},
		Limits:      BackendLimits{RequestTimeoutMs: 30_000, RetrievalTimeoutMs: 5_000, GenerationTimeoutMs: 20_000, MaxSources: 5},
		Persistence: BackendPersistence{Mode: PersistenceDisabled},
	}
}

// TestTrustedSite: only a validated record becomes a TrustedSite; the
// zero value is not one; editing the record afterwards does not reach it;
// capping its deadlines keeps it valid without a second check.
func TestTrustedSite(t *testing.T) {
	if (TrustedSite{}).Valid() {
		t.Fatal("the zero TrustedSite is valid")
	}
	bad := trustedTestSite()
	bad.Limits.MaxSources = MaxBackendSources + 1
	if ts, err := bad.Trust(); !errors.Is(err, ErrInvalidBackendSite) || !strings.HasSuffix(err.Error(), "limits.maxSources") || ts.Valid() {
		t.Fatalf("Trust of a bad record: %v, valid %v", err, ts.Valid())
	}
	if _, err := TrustBackendSite([]byte(`{"siteId":"docs","tenant":"x"}`)); !errors.Is(err, ErrInvalidBackendSite) {
		t.Fatalf("TrustBackendSite of an unknown member: %v", err)
	}
	rec := trustedTestSite()
	ts, err := rec.Trust()
	if err != nil || !ts.Valid() {
		t.Fatal(err)
	}
	rec.Limits.MaxSources = 99
	if ts.Record().Limits.MaxSources != 5 {
		t.Fatal("editing the record reached the TrustedSite")
	}
	capped, changed := ts.CapDeadlines(10)
	got := capped.Record()
	if !changed || got.Limits.RequestTimeoutMs != 100 || got.Limits.RetrievalTimeoutMs != 100 || got.Limits.GenerationTimeoutMs != 100 || got.Validate() != nil {
		t.Fatalf("capped at 10 ms: %+v (changed %v, %v)", got.Limits, changed, got.Validate())
	}
	if _, changed := ts.CapDeadlines(60_000); changed {
		t.Fatal("a cap above every deadline changed one")
	}
	if ts.Record().Limits.RequestTimeoutMs != 30_000 {
		t.Fatal("CapDeadlines changed the TrustedSite it was called on")
	}
}
