package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// PutSource implements Sources in one immediate transaction: the upsert
// (a reload rewrites the bytes, so a damaged row heals, and takes the
// next seq), the permit, then the retention bound.
func (s *SQLite) PutSource(ctx context.Context, site, version string, data []byte, engine string) error {
	if err := checkSource(s.sources, site, version, data, engine); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, sourceTimeout)
	defer cancel()
	if s.fileGone() {
		return &Error{Code: CodeUnavailable, Op: "put source", Reason: reasonFileGone}
	}
	tx, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (_txlock)
	if err != nil {
		return unavailable(ctx, "put source", err)
	}
	defer tx.Rollback()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO sources (site_id, version, seq, bytes, stored_at, data)
		  VALUES (?1, ?2, (SELECT coalesce(max(seq), 0) + 1 FROM sources), ?3, ?4, ?5)
		  ON CONFLICT (site_id, version) DO UPDATE SET seq = excluded.seq, bytes = excluded.bytes, stored_at = excluded.stored_at, data = excluded.data`,
			[]any{site, version, len(data), time.Now().UnixMilli(), data}},
		{`INSERT INTO source_engines (site_id, version, engine) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, []any{site, version, engine}},
		{sqliteEvictSources, []any{site, version, s.sources.MaxVersions, len(data), s.sources.MaxBytes}},
		{`DELETE FROM source_engines WHERE NOT EXISTS (
		  SELECT 1 FROM sources WHERE sources.site_id = source_engines.site_id AND sources.version = source_engines.version)`, nil},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return unavailable(ctx, "put source", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return unavailable(ctx, "put source", err)
	}
	return nil
}

// sqliteEvictSources deletes, beside version (?1, ?2) of ?4 bytes, the
// versions that do not fit ?3 versions and ?5 bytes, newest kept first.
const sqliteEvictSources = `DELETE FROM sources WHERE rowid IN (
	SELECT rowid FROM (
		SELECT rowid, row_number() OVER w AS n, sum(bytes) OVER w AS newer
		FROM sources WHERE NOT (site_id = ?1 AND version = ?2)
		WINDOW w AS (ORDER BY seq DESC ROWS UNBOUNDED PRECEDING))
	WHERE n + 1 > ?3 OR newer + ?4 > ?5)`

// SourceInfo implements Sources.
func (s *SQLite) SourceInfo(ctx context.Context, site, version string) (SourceInfo, bool, error) {
	if err := checkSourceKey("source info", site, version); err != nil {
		return SourceInfo{}, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	info := SourceInfo{Site: site, Version: version}
	err := s.db.QueryRowContext(ctx, `SELECT bytes FROM sources WHERE site_id = ? AND version = ?`, site, version).Scan(&info.Bytes)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return SourceInfo{}, false, nil
	case err != nil:
		return SourceInfo{}, false, unavailable(ctx, "source info", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT engine FROM source_engines WHERE site_id = ? AND version = ? ORDER BY engine`, site, version)
	if err != nil {
		return SourceInfo{}, false, unavailable(ctx, "source info", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return SourceInfo{}, false, unavailable(ctx, "source info", err)
		}
		info.Engines = append(info.Engines, e)
	}
	if err := rows.Err(); err != nil {
		return SourceInfo{}, false, unavailable(ctx, "source info", err)
	}
	return info, true, nil
}

// ReadSource implements Sources.
func (s *SQLite) ReadSource(ctx context.Context, site, version string) ([]byte, bool, error) {
	if err := checkSourceKey("read source", site, version); err != nil {
		return nil, false, err
	}
	ctx, cancel := context.WithTimeout(ctx, sourceTimeout)
	defer cancel()
	var data []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM sources WHERE site_id = ? AND version = ?`, site, version).Scan(&data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, unavailable(ctx, "read source", err)
	}
	if err := verifySource(version, data); err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// SourceLimits implements Sources.
func (s *SQLite) SourceLimits() SourceLimits { return s.sources }

var _ Sources = (*SQLite)(nil)

// SourceVersions implements Sources.
func (s *SQLite) SourceVersions(ctx context.Context, site string) ([]SourceInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, `SELECT s.version, s.bytes, e.engine FROM sources s JOIN source_engines e ON e.site_id = s.site_id AND e.version = s.version WHERE s.site_id = ? ORDER BY s.seq DESC, e.engine`, site)
	if err != nil {
		return nil, unavailable(ctx, "source versions", err)
	}
	defer rows.Close()
	out, err := scanVersions(site, rows.Next, func(v *string, b *int64, e *string) error { return rows.Scan(v, b, e) })
	if err == nil {
		err = rows.Err()
	}
	if err != nil {
		return nil, unavailable(ctx, "source versions", err)
	}
	return out, nil
}
