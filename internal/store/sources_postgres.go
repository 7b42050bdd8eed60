package store

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// PutSource implements Sources in one transaction: the upsert (a reload
// rewrites the bytes, so a damaged row heals, and takes the next seq),
// the permit, then the retention bound; permits go with their version by
// the foreign key. Two instances putting at once serialise on an advisory
// lock, so the bound is applied to one order of puts.
func (p *Postgres) PutSource(ctx context.Context, site, version string, data []byte, engine string) error {
	if err := checkSource(p.sources, site, version, data, engine); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, sourceTimeout)
	defer cancel()
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return p.unavailable(ctx, "put source", err)
	}
	defer tx.Rollback(context.Background())
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`SELECT pg_advisory_xact_lock($1)`, []any{postgresSourcesLock}},
		{`INSERT INTO sources (site_id, version, bytes, data) VALUES ($1, $2, $3, $4)
		  ON CONFLICT (site_id, version) DO UPDATE SET seq = nextval('source_order'), bytes = excluded.bytes, stored_at = now(), data = excluded.data`,
			[]any{site, version, len(data), data}},
		{`INSERT INTO source_engines (site_id, version, engine) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, []any{site, version, engine}},
		{`DELETE FROM sources WHERE (site_id, version) IN (
			SELECT site_id, version FROM (
				SELECT site_id, version, row_number() OVER w AS n, sum(bytes) OVER w AS newer
				FROM sources WHERE NOT (site_id = $1 AND version = $2)
				WINDOW w AS (ORDER BY seq DESC ROWS UNBOUNDED PRECEDING)) AS ranked
			WHERE n + 1 > $3 OR newer + $4 > $5)`,
			[]any{site, version, p.sources.MaxVersions, len(data), p.sources.MaxBytes}},
	} {
		if _, err := tx.Exec(ctx, q.sql, q.args...); err != nil {
			return p.unavailable(ctx, "put source", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return p.unavailable(ctx, "put source", err)
	}
	return nil
}

// postgresSourcesLock serialises PutSource across instances ("askplsrc").
const postgresSourcesLock int64 = 0x61736b706c737263

// SourceInfo implements Sources.
func (p *Postgres) SourceInfo(ctx context.Context, site, version string) (SourceInfo, bool, error) {
	if err := checkSourceKey("source info", site, version); err != nil {
		return SourceInfo{}, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	info := SourceInfo{Site: site, Version: version}
	err := p.pool.QueryRow(ctx, `SELECT bytes, coalesce((SELECT array_agg(engine ORDER BY engine COLLATE "C") FROM source_engines e
		WHERE e.site_id = s.site_id AND e.version = s.version), '{}')
		FROM sources s WHERE site_id = $1 AND version = $2`, site, version).Scan(&info.Bytes, &info.Engines)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return SourceInfo{}, false, nil
	case err != nil:
		return SourceInfo{}, false, p.unavailable(ctx, "source info", err)
	}
	if len(info.Engines) == 0 {
		info.Engines = nil
	}
	return info, true, nil
}

// ReadSource implements Sources.
func (p *Postgres) ReadSource(ctx context.Context, site, version string) ([]byte, bool, error) {
	if err := checkSourceKey("read source", site, version); err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, sourceTimeout)
	defer cancel()
	var data []byte
	err := p.pool.QueryRow(ctx, `SELECT data FROM sources WHERE site_id = $1 AND version = $2`, site, version).Scan(&data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, p.unavailable(ctx, "read source", err)
	}
	if err := verifySource(version, data); err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// SourceLimits implements Sources.
func (p *Postgres) SourceLimits() SourceLimits { return p.sources }

var _ Sources = (*Postgres)(nil)

// SourceVersions implements Sources.
func (p *Postgres) SourceVersions(ctx context.Context, site string) ([]SourceInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := p.pool.Query(ctx, `SELECT s.version, s.bytes, e.engine FROM sources s JOIN source_engines e ON e.site_id = s.site_id AND e.version = s.version WHERE s.site_id = $1 ORDER BY s.seq DESC, e.engine`, site)
	if err != nil {
		return nil, p.unavailable(ctx, "source versions", err)
	}
	defer rows.Close()
	out, err := scanVersions(site, rows.Next, func(v *string, b *int64, e *string) error { return rows.Scan(v, b, e) })
	if err == nil {
		err = rows.Err()
	}
	if err != nil {
		return nil, p.unavailable(ctx, "source versions", err)
	}
	return out, nil
}
