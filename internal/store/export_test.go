package store

import (
	"context"
	"time"
)

// CorruptMemorySource replaces a memory backend's retained bytes, as a
// damaged disk would, for the integrity tests (the durable backends'
// tests write the row directly).
func CorruptMemorySource(b Backend, site, version string, data []byte) {
	m := b.(memory).memorySources
	m.mu.Lock()
	defer m.mu.Unlock()
	if row := m.rows[[2]string{site, version}]; row != nil {
		row.data = data
	}
}

// SourceHashForTest is a version as PutSource checks it.
func SourceHashForTest(data []byte) string { return sourceHash(data) }

// PruneLimitsTo is PruneLimits with a smaller bound than MaxSharedKeys.
func (p *Postgres) PruneLimitsTo(ctx context.Context, maxKeys int64) (int64, error) {
	return p.pruneLimits(ctx, maxKeys)
}

// InjectWriteFault makes the SQLite store's session writes and write
// probes fail with what f returns for their op ("save", "delete",
// "probe"), as a full disk would; nil f restores them.
func InjectWriteFault(s *SQLite, f func(op string) error) { s.health.inject = f }

// InjectPostgresWriteFault is InjectWriteFault for PostgreSQL.
func InjectPostgresWriteFault(p *Postgres, f func(op string) error) { p.health.inject = f }

// PruneInsightsTo is PruneInsights with a smaller bound than
// MaxInsightEvents.
func (s *SQLite) PruneInsightsTo(ctx context.Context, site string, before time.Time, maxEvents int) error {
	return s.pruneInsights(ctx, site, before, maxEvents)
}

// PruneInsightsTo is PruneInsights with a smaller bound than
// MaxInsightEvents.
func (p *Postgres) PruneInsightsTo(ctx context.Context, site string, before time.Time, maxEvents int) error {
	return p.pruneInsights(ctx, site, before, maxEvents)
}
